/**
 * Marker pages asked for in columns (types/api.ts MarkerColumnsPage) reach their callers as the
 * Paged<Marker> they expect. The codec is fetched with the first such page: it is no part of /login.
 */
import type { Paged } from '../../types/api'
import { nextTask } from '../platform/tasks/nextTask'

/** A task of decoding gives the page back after this long: a frame's share of a slow phone's time. */
const SLICE_MS = 8

// Pages are decoded one after another, each from a task of its own: three answered together (or all
// waiting for the codec to arrive) would otherwise start in one task.
let queue: Promise<unknown> = Promise.resolve()

export function decodedData(body: unknown, data: unknown): unknown {
  // A server that predates the field answers the SPEC shape, which is used as it is.
  if ((body as { format?: string }).format !== 'columns' || Array.isArray((data as Paged<unknown> | null)?.list)) return data
  const codec = import('../domain/markerColumns')
  // Decoded in tasks of a few milliseconds, not in the one that parsed the answer: a page of 5000 is
  // tens of milliseconds of decoding on a slow phone, over a hundred the first time.
  const decoded = queue.then(async () => {
    const steps = (await codec).markerColumnsDecoding(data)
    for (;;) {
      await nextTask()
      const from = Date.now()
      for (;;) {
        const step = steps.next()
        if (step.done) return step.value
        if (Date.now() - from >= SLICE_MS) break
      }
    }
  })
  queue = decoded.catch(() => undefined)
  return decoded
}
