/**
 * A marker save on the phone checks its points with one read (src/domain/points.ts readGeometry)
 * before it calls the server, and refuses bad points from that read without calling it.
 */
import { MAP_MSG } from '../../src/domain/messages'
import * as points from '../../src/domain/points'
import { ok } from '../support/fakes'
import { buildLayer, buildMarker, signedInRoot } from '../support/mapBuilders'

// Spies on the module's own exports: the stores and services call them through it.
const spies = {
  readGeometry: jest.spyOn(points, 'readGeometry'),
  parsePoints: jest.spyOn(points, 'parsePoints'),
  checkGeometry: jest.spyOn(points, 'checkGeometry'),
}

const reads = () => ({ readGeometry: spies.readGeometry.mock.calls.length, parsePoints: spies.parsePoints.mock.calls.length, checkGeometry: spies.checkGeometry.mock.calls.length })

const handlers = {
  '/api/layer/getlist': () => ok([buildLayer({ id: 3, name: '片区', type: 3, show: true })]),
  '/api/marker/getlist': () => ok({ list: [], total: 0 }),
  '/api/layer/field/getlist': () => ok([]),
  '/api/marker/save': (body: any) => ok(buildMarker({ ...body, id: body.id ?? 99 })),
}

describe('a marker save on the phone', () => {
  it('reads the points once before it sends the save', async () => {
    const { root, calls } = await signedInRoot(handlers)
    await root.layers.load()
    jest.clearAllMocks()
    const saved = await root.markers.save({ layer_id: 3, name: '地块', type: 3, points: '116.0,39.0|116.4,39.0|116.4,39.4' })
    expect(saved?.id).toBe(99)
    expect(calls.filter((c) => c.path === '/api/marker/save')).toHaveLength(1)
    expect(reads()).toEqual({ readGeometry: 1, parsePoints: 0, checkGeometry: 0 })
  })

  it('refuses bad points from that one read, without calling the server', async () => {
    const { root, calls } = await signedInRoot(handlers)
    await root.layers.load()
    jest.clearAllMocks()
    expect(await root.markers.save({ layer_id: 3, name: '地块', type: 3, points: '116.0,39.0|116.4,39.0' })).toBeUndefined()
    expect(root.app.currentNotice?.text).toBe(MAP_MSG.polygonNeedsThree)
    expect(calls.filter((c) => c.path === '/api/marker/save')).toHaveLength(0)
    expect(reads()).toEqual({ readGeometry: 1, parsePoints: 0, checkGeometry: 0 })
  })
})
