/**
 * Marker pages asked for in columns (types/api.ts MarkerColumnsPage) reach their callers as the
 * Paged<Marker> they expect. The codec is fetched with the first such page: it is no part of /login.
 */
import type { Paged } from '../../types/api'
import { nextTask } from '../platform/tasks/nextTask'

export function decodedData(body: unknown, data: unknown): unknown {
  // A server that predates the field answers the SPEC shape, which is used as it is.
  if ((body as { format?: string }).format !== 'columns' || Array.isArray((data as Paged<unknown> | null)?.list)) return data
  // Decoded in a task of its own, not in the one that parsed the answer: a page of 5000 is tens of
  // milliseconds of each on a slow phone, and pages answered together would add up in one task.
  return Promise.all([import('../domain/markerColumns'), nextTask()]).then(([m]) => m.decodeMarkerColumns(data))
}
