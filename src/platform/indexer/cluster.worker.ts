/**
 * H5's cluster worker: builds the sampling order and every zoom level's clusters of the points the
 * map store sends (see index.h5.ts), and sends them back as transferable buffers, so that the
 * page's thread never runs supercluster's load of 100,000 points (about 0.5 s at a phone's speed).
 */
import { buildClusters, transferablesOf } from '../../domain/mapDraw'

interface Job {
  id: number
  lng: Float64Array
  lat: Float64Array
  ids: Float64Array
}

const scope = self as unknown as { onmessage: ((e: MessageEvent<Job>) => void) | null; postMessage(message: unknown, transfer: Transferable[]): void }

scope.onmessage = (e) => {
  const { id, lng, lat, ids } = e.data
  try {
    const built = buildClusters(lng, lat, ids)
    scope.postMessage({ id, built }, transferablesOf(built))
  } catch {
    // The page builds this index itself.
    scope.postMessage({ id, built: null }, [])
  }
}
