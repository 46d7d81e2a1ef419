/**
 * The draw index on H5: the markers are read on the page in slices of a few milliseconds, the
 * clusters and the sampling order are built in a worker (cluster.worker.ts) meanwhile, and the
 * page wraps them back into the index, so no task of the load runs supercluster over 100,000
 * points. Where no worker starts (or it fails), the page builds the index itself.
 */
import type { BuiltClusters } from '../../domain/mapDraw'
import type { MarkerIndexer } from './types'
import { nextTask } from '../tasks/nextTask'

export type { DrawEngine, MarkerIndexer } from './types'

/** Markers read, or point features made, per slice: a few milliseconds at 4x CPU throttling. */
const SLICE = 5000

export function markerIndexer(): MarkerIndexer {
  let worker: Worker | null | undefined
  let seq = 0
  const waiting = new Map<number, (built: BuiltClusters | null) => void>()
  const fail = () => {
    for (const resolve of waiting.values()) resolve(null)
    waiting.clear()
    worker?.terminate()
    worker = null
  }
  const start = (): Worker | null => {
    try {
      const w = new Worker(new URL('./cluster.worker.ts', import.meta.url))
      w.onmessage = (e: MessageEvent<{ id: number; built: BuiltClusters | null }>) => {
        waiting.get(e.data.id)?.(e.data.built)
        waiting.delete(e.data.id)
      }
      w.onerror = fail
      return w
    } catch {
      return null
    }
  }
  return async (engine, markers) => {
    // A few thousand markers take a few milliseconds at once: the worker is started for large maps only.
    if (markers.length <= SLICE) return engine.buildMarkerIndex(markers)
    if (worker === undefined) worker = start()
    if (!worker) return engine.buildMarkerIndex(markers)
    const draft = engine.startIndex(markers)
    while (!engine.readMarkers(draft, SLICE)) await nextTask()
    const { lng, lat, ids } = engine.draftPoints(draft)
    const id = ++seq
    const reply = new Promise<BuiltClusters | null>((resolve) => waiting.set(id, resolve))
    // lng and lat stay here too (the index reads them): copied, not transferred.
    if (worker) worker.postMessage({ id, lng, lat, ids })
    else waiting.get(id)?.(null)
    const n = lng.length
    const features = new Array<Parameters<typeof engine.indexFromBuilt>[4][number]>(n)
    for (let i = 0; i < n; i += SLICE) {
      engine.pointFeatures(lng, lat, i, Math.min(n, i + SLICE), features)
      await nextTask()
    }
    const built = await reply
    return built ? engine.indexFromBuilt(draft, lng, lat, built, features) : engine.buildMarkerIndex(markers)
  }
}
