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

/** Maps up to this size are indexed at once: a few milliseconds at 4x CPU throttling. */
const AT_ONCE = 5000

/**
 * How long one task of the build may run before the page gets its turn: well inside the 50 ms a
 * task may take before a tap or a frame waits, with room for what else the task's turn runs (a
 * marker page's answer, the frame after it). A count per task would not do: lines and areas take
 * many times what a point takes to read, and a phone may be many times slower than another.
 */
const TASK_MS = 8

/** Markers read, or point features made, between looks at the clock. */
const STEP = 500

/** Runs `step` until it says it is done, in tasks of about TASK_MS. */
async function inTasks(step: () => boolean): Promise<void> {
  for (;;) {
    const start = performance.now()
    do if (step()) return
    while (performance.now() - start < TASK_MS)
    await nextTask()
  }
}

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
    if (markers.length <= AT_ONCE) return engine.buildMarkerIndex(markers)
    if (worker === undefined) worker = start()
    if (!worker) return engine.buildMarkerIndex(markers)
    const draft = engine.startIndex(markers)
    await inTasks(() => engine.readMarkers(draft, STEP))
    await nextTask()
    const { lng, lat, ids } = engine.draftPoints(draft)
    const id = ++seq
    const reply = new Promise<BuiltClusters | null>((resolve) => waiting.set(id, resolve))
    // The index reads lng and lat here too: the worker is given copies, moved rather than cloned
    // (a clone of 100,000 points' arrays is a long task of its own on a slow phone).
    const sent = { id, lng: lng.slice(), lat: lat.slice(), ids: ids.slice() }
    if (worker) worker.postMessage(sent, [sent.lng.buffer, sent.lat.buffer, sent.ids.buffer])
    else waiting.get(id)?.(null)
    await nextTask()
    const n = lng.length
    const features = new Array<Parameters<typeof engine.indexFromBuilt>[4][number]>(n)
    let made = 0
    await inTasks(() => {
      const to = Math.min(n, made + STEP)
      engine.pointFeatures(lng, lat, made, to, features)
      made = to
      return made >= n
    })
    const built = await reply
    if (!built) return engine.buildMarkerIndex(markers)
    const index = engine.indexFromBuilt(draft, lng, lat, built, features)
    // The index goes into the store, and the first view of it is computed and rendered, in a task of its own.
    await nextTask()
    return index
  }
}
