/** Measuring on the map (every tier): taps are points, markers neither open nor get made, undo, clear, the settings' unit. */
import { MEASURE_MSG } from '../../src/domain/measureMessages'
import { formatArea, formatLength, lineLength, ringArea } from '../../src/domain/points'
import { ok } from '../support/fakes'
import { buildLayer, buildMarker, signedInRoot } from '../support/mapBuilders'

const spots = buildLayer({ id: 1, name: '网点', type: 1, show: true })
const A = { lng: 116.3, lat: 39.9 }
const B = { lng: 116.31, lat: 39.9 }
const C = { lng: 116.31, lat: 39.91 }
const shop = buildMarker({ id: 5, layer_id: 1, type: 0, name: '门店', points: '116.3200000,39.9200000' })

async function mapRoot(user: Record<string, unknown> = {}) {
  const made = await signedInRoot(
    {
      '/api/layer/getlist': () => ok([spots]),
      '/api/marker/getlist': () => ok({ list: [shop], total: 1 }),
      '/api/layer/field/getlist': () => ok([]),
      '/api/marker/save': () => ok(buildMarker({ id: 999 })),
    },
    { user },
  )
  await made.root.layers.load()
  await made.root.markers.loadShown()
  made.calls.length = 0
  return made
}

describe('measuring on the map', () => {
  it('takes every map tap as a point and reads the length as they come, creating nothing', async () => {
    const { root, calls, navigations } = await mapRoot()
    const m = root.map.measure
    m.start('length')
    expect(m.readout?.hint).toBe(MEASURE_MSG.lengthStart)
    root.map.tapMap(A)
    root.map.tapMap(B)
    expect(m.readout?.figure).toBe(`总长 ${formatLength(lineLength([A, B]))}`)
    root.map.tapMap(C)
    expect(m.readout?.figure).toBe(`总长 ${formatLength(lineLength([A, B, C]))}`)
    expect(root.map.drawing).toBeNull()
    expect(m.draft).toEqual({ type: 1, parts: [[A, B, C]], radius: 0 })
    // no call at all, no page opened: nothing is saved, no marker drawn
    expect(calls).toEqual([])
    expect(navigations).toEqual([])
    expect(root.markers.count).toBe(1)
  })

  it('measures an area in the unit of the settings, and follows a change of it', async () => {
    const { root } = await mapRoot()
    const m = root.map.measure
    m.start('area')
    root.map.tapMap(A)
    root.map.tapMap(B)
    expect(m.readout?.hint).toBe(MEASURE_MSG.areaNeeds(1))
    root.map.tapMap(C)
    expect(m.readout?.figure).toBe(`面积 ${formatArea(ringArea([A, B, C]), 'm2')}`)
    root.app.setAreaUnit('mu')
    expect(m.readout?.figure).toBe(`面积 ${formatArea(ringArea([A, B, C]), 'mu')}`)
    expect(m.readout?.figure).toMatch(/亩$/)
  })

  it('undoes the last point and clears them all, staying in its mode', async () => {
    const { root } = await mapRoot()
    const m = root.map.measure
    m.start('length')
    root.map.tapMap(A)
    root.map.tapMap(B)
    root.map.tapMap(C)
    m.undo()
    expect(m.state?.points).toEqual([A, B])
    m.clear()
    expect(m.state).toEqual({ mode: 'length', points: [] })
    expect(m.draft).toBeNull()
    m.undo()
    expect(m.pointCount).toBe(0)
  })

  it('switches between 测距 and 测面积 over the same points', async () => {
    const { root } = await mapRoot()
    const m = root.map.measure
    m.start('length')
    for (const p of [A, B, C]) root.map.tapMap(p)
    m.start('area')
    expect(m.mode).toBe('area')
    expect(m.state?.points).toEqual([A, B, C])
    expect(m.draft?.type).toBe(3)
  })

  it("takes a tapped point marker's own place as a point and opens no detail", async () => {
    const { root } = await mapRoot()
    root.map.measure.start('length')
    root.map.tapMap(A)
    root.map.tapMarker(shop.id)
    expect(root.markers.detailOpen).toBe(false)
    expect(root.map.measure.state?.points).toEqual([A, { lng: 116.32, lat: 39.92 }])
  })

  it('after 完成 the map taps and marker taps do what they did before', async () => {
    const { root } = await mapRoot()
    root.map.measure.start('length')
    root.map.tapMap(A)
    root.map.measure.stop()
    expect(root.map.measure.active).toBe(false)
    expect(root.map.measure.draft).toBeNull()
    root.map.tapMarker(shop.id)
    expect(root.markers.detailOpen).toBe(true)
  })

  it('closes an open detail and leaves a drawing not begun when it starts; a drawing started later ends the measure', async () => {
    const { root } = await mapRoot()
    root.map.tapMarker(shop.id)
    expect(root.markers.detailOpen).toBe(true)
    root.map.startDrawing(1)
    expect(root.map.measure.start('length')).toBe(true)
    expect(root.map.drawing).toBeNull()
    expect(root.markers.detailOpen).toBe(false)
    root.map.tapMap(B)
    expect(root.map.measure.state?.points).toEqual([B])
    root.map.startDrawing(1)
    expect(root.map.measure.active).toBe(false)
  })

  it('does not throw away a drawing with vertices placed, nor a marker being moved: it says so and stays off', async () => {
    const { root } = await mapRoot()
    root.map.startDrawing(1)
    root.map.tapMap(A)
    expect(root.map.measure.start('length')).toBe(false)
    expect(root.app.notices.at(-1)?.text).toBe(MEASURE_MSG.busyDrawing)
    expect(root.map.drawing?.parts).toEqual([[A]])
    root.map.cancelDrawing()
    root.map.startEditGeometry(shop)
    expect(root.map.measure.start('area')).toBe(false)
    expect(root.map.editing?.marker.id).toBe(shop.id)
    expect(root.map.measure.active).toBe(false)
  })

  it('works on the free tier: no module gates it', async () => {
    const { root } = await mapRoot({ level: 0, modules: [] })
    root.map.measure.start('length')
    root.map.tapMap(A)
    root.map.tapMap(B)
    expect(root.map.measure.readout?.figure).toMatch(/^总长 /)
  })

  it('is gone when the user signs out or changes map', async () => {
    const { root } = await mapRoot()
    root.map.measure.start('area')
    root.map.tapMap(A)
    root.resetMapData()
    expect(root.map.measure.active).toBe(false)
  })
})
