/**
 * Marker pages asked for in columns (types/api.ts MarkerColumnsPage) reach their callers as the
 * Paged<Marker> they expect. The codec is fetched with the first such page: it is no part of /login.
 */
import type { Paged } from '../../types/api'

export function decodedData(body: unknown, data: unknown): unknown {
  // A server that predates the field answers the SPEC shape, which is used as it is.
  if ((body as { format?: string }).format !== 'columns' || Array.isArray((data as Paged<unknown> | null)?.list)) return data
  return import('../domain/markerColumns').then((m) => m.decodeMarkerColumns(data))
}
