import type { ClusterItem, MarkerIndex } from './mapDraw'

/** Where to put the map to show a bounding box [west, south, east, north] (GCJ-02 degrees). */
export function fitTarget(b: readonly [number, number, number, number]): FitTarget {
  const span = Math.max(b[2] - b[0], b[3] - b[1], 0.002)
  const zoom = Math.max(2, Math.min(18, Math.floor(Math.log2(360 / span))))
  return { lng: (b[0] + b[2]) / 2, lat: (b[1] + b[3]) / 2, zoom }
}

/** Where a map goes: its centre and zoom. */
export interface FitTarget {
  lng: number
  lat: number
  zoom: number
}

/** What the two targets below need of the draw pipeline (mapDraw.ts, which the map's stores load on demand). */
type ClusterEngine = Pick<typeof import('./mapDraw'), 'clusterZoom' | 'dataBounds'>

/** A tap on a cluster: the map centred on it, at the zoom where it breaks apart; null before the index is built. */
export function clusterTarget(engine: ClusterEngine | null, index: MarkerIndex | null, cluster: ClusterItem): FitTarget | null {
  return engine && index ? { lng: cluster.lng, lat: cluster.lat, zoom: engine.clusterZoom(index, cluster) } : null
}

/** The map showing everything the index holds (zero coordinates ignored); null when there is nothing to show. */
export function dataTarget(engine: ClusterEngine | null, index: MarkerIndex | null): FitTarget | null {
  const b = engine && index ? engine.dataBounds(index) : null
  return b ? fitTarget(b) : null
}
