/**
 * The H5 draw index built with the clusters made away from the page (src/platform/indexer's worker):
 * what crosses to the page (cloned with its buffers transferred, as postMessage does) wraps back into
 * an index that draws the same clusters, points, counts and cluster zooms as the one built at once.
 */
import type { Marker } from '../../types/mapdata'
import {
  buildClusters,
  buildMarkerIndex,
  clusterZoom,
  computeDrawList,
  draftPoints,
  indexFromBuilt,
  pointFeatures,
  readMarkers,
  startIndex,
  transferablesOf,
  type MarkerIndex,
  type Viewport,
} from '../../src/domain/mapDraw'
import { buildMarker } from '../support/mapBuilders'

function scatter(n: number): Marker[] {
  let s = 7
  const r = () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32
  const points = Array.from({ length: n }, (_, i) => buildMarker({ id: i + 1, type: 0, points: `${(116 + r() * 0.8).toFixed(6)},${(39.6 + r() * 0.6).toFixed(6)}` }))
  const lines = Array.from({ length: 30 }, (_, i) => buildMarker({ id: n + i + 1, type: 1, points: `116.${i + 10},39.9|116.${i + 11},40.0` }))
  return [...points, ...lines, buildMarker({ id: n + 99, type: 0, points: 'broken' })]
}

/** The worker's way: read in slices, clusters built apart and sent back through a structured clone. */
function viaWorker(markers: Marker[]): MarkerIndex {
  const draft = startIndex(markers)
  while (!readMarkers(draft, 997));
  const { lng, lat, ids } = draftPoints(draft)
  const sent = structuredClone({ lng, lat, ids })
  const built = buildClusters(sent.lng, sent.lat, sent.ids)
  const received = structuredClone(built, { transfer: transferablesOf(built) })
  const features = new Array(lng.length)
  for (let i = 0; i < lng.length; i += 1000) pointFeatures(lng, lat, i, Math.min(lng.length, i + 1000), features)
  return indexFromBuilt(draft, lng, lat, received, features)
}

const views: Viewport[] = [
  { west: 115.5, south: 39.3, east: 117.3, north: 40.5, zoom: 8 },
  { west: 116.2, south: 39.8, east: 116.4, north: 40.0, zoom: 11 },
  { west: 116.3, south: 39.9, east: 116.34, north: 39.93, zoom: 14 },
  { west: 116.3, south: 39.9, east: 116.31, north: 39.91, zoom: 16 },
  { west: 116.3, south: 39.9, east: 116.302, north: 39.902, zoom: 19 },
]

describe('the draw index with clusters built in the worker', () => {
  const markers = scatter(20000)
  const atOnce = buildMarkerIndex(markers)
  const worker = viaWorker(markers)

  it('draws the same clusters, points, lines and counts in every view, from country to street level', () => {
    for (const view of views) {
      const a = computeDrawList(atOnce, view)
      const b = computeDrawList(worker, view)
      expect(b.clusters).toEqual(a.clusters)
      expect(b.points.map((m) => m.id)).toEqual(a.points.map((m) => m.id))
      expect(b.shapes.map((s) => s.marker.id)).toEqual(a.shapes.map((s) => s.marker.id))
      expect(b.pointsInView).toBe(a.pointsInView)
    }
    expect(computeDrawList(atOnce, views[0]).clusters.length).toBeGreaterThan(0)
  })

  it('keeps the sampling order and skips the same broken markers', () => {
    expect(Array.from(worker.order)).toEqual(Array.from(atOnce.order))
    expect(worker.points.map((m) => m.id)).toEqual(atOnce.points.map((m) => m.id))
  })

  it('zooms into a tapped cluster as far as the index built at once does', () => {
    for (const c of computeDrawList(atOnce, views[1]).clusters.slice(0, 20)) expect(clusterZoom(worker, c)).toBe(clusterZoom(atOnce, c))
  })
})
