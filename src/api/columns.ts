/**
 * Marker pages asked for in columns (types/api.ts MarkerColumnsPage) reach their callers as the
 * Paged<Marker> they expect. The codec is fetched with the first such page: it is no part of /login.
 */
import type { Paged } from '../../types/api'
import { nextTask } from '../platform/tasks/nextTask'

export function decodedData(body: unknown, data: unknown): unknown {
  // A server that predates the field answers the SPEC shape, which is used as it is.
  if ((body as { format?: string }).format !== 'columns' || Array.isArray((data as Paged<unknown> | null)?.list)) return data
  // Decoded in slices of a few milliseconds, each in a task of its own, never in the one that parsed
  // the answer: a page of 5000 is tens of milliseconds of decoding on a slow phone, over a hundred
  // the first time.
  return import('../domain/markerColumns').then((m) => m.decodeInSlices(data, nextTask))
}
