/** A measure on WeChat's map: the scene draws its line or closed outline and a dot per point, and nothing it draws can open a marker. */
import { addMeasurePoint, emptyMeasure, measureDraft, switchMeasureMode } from '../../src/domain/measure'
import { MEMBER_ID_BASE, vertexOfId, weappScene } from '../../src/platform/map/weappScene'

const icons = { pinIcon: '/assets/pin.png', clusterIcon: '/assets/cluster.png' }
const EMPTY = { clusters: [], points: [], shapes: [], heat: null, pointsInView: 0 }
const A = { lng: 116.3, lat: 39.9 }
const B = { lng: 116.31, lat: 39.9 }
const C = { lng: 116.31, lat: 39.91 }
const wx = (p: { lng: number; lat: number }) => ({ longitude: p.lng, latitude: p.lat })

describe("measuring on WeChat's map", () => {
  const length = [A, B, C].reduce(addMeasurePoint, emptyMeasure('length'))

  it('draws a length as a line through the points, in GCJ-02 as tapped, with a dot on each', () => {
    const scene = weappScene(EMPTY, { ...icons, draft: measureDraft(length) })
    expect(scene.polylines).toEqual([expect.objectContaining({ points: [A, B, C].map(wx) })])
    const dots = scene.markers.filter((m) => m.zIndex === 20)
    expect(dots.map((m) => ({ longitude: m.longitude, latitude: m.latitude }))).toEqual([A, B, C].map(wx))
  })

  it('draws an area as its outline closed back to the first point', () => {
    const scene = weappScene(EMPTY, { ...icons, draft: measureDraft(switchMeasureMode(length, 'area')) })
    expect(scene.polylines[0].points).toEqual([A, B, C, A].map(wx))
  })

  it("gives its dots ids that are neither a marker's, a member's nor a vertex handle's, so a tap on one opens nothing", () => {
    const scene = weappScene(EMPTY, { ...icons, draft: measureDraft(length) })
    for (const m of scene.markers) {
      expect(m.id).toBeGreaterThanOrEqual(MEMBER_ID_BASE)
      expect(vertexOfId(m.id)).toBeNull()
    }
  })

  it('draws nothing before the first point', () => {
    const scene = weappScene(EMPTY, { ...icons, draft: measureDraft(emptyMeasure('area')) })
    expect(scene.polylines).toEqual([])
    expect(scene.markers).toEqual([])
  })
})
