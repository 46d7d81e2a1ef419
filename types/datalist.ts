/**
 * The data list (数据列表) of one layer: its rows, the query that finds them (search, per-field
 * filters, sort) and the bulk actions on a selection (src/domain/dataList.ts holds the rules).
 */
import type { FieldValue, MarkerStyle, MarkerType } from './mapdata'

/** A filter on one custom field, by the field's kind (a choice field: options; number and date: ranges; text: contains). */
export type DataListFilter =
  | { field_id: number; op: 'in'; values: string[] }
  | { field_id: number; op: 'range'; min?: number; max?: number }
  | { field_id: number; op: 'dates'; from?: string; to?: string }
  | { field_id: number; op: 'contains'; text: string }
  | { field_id: number; op: 'empty' }
  | { field_id: number; op: 'not_empty' }

/** A column to sort by: the name, a custom field (`field:<id>`), the notes count or the last change. */
export type DataListSortKey = 'name' | 'notes' | 'edited_at' | 'editor' | `field:${number}`

export interface DataListQuery {
  /** Matched in the name and the field values (case-insensitive). */
  kw?: string
  filters?: DataListFilter[]
  sort?: { key: DataListSortKey; dir: 'asc' | 'desc' }
}

/** One row of the list: a marker with what the list shows besides the map's fields. */
export interface DataListRow {
  id: number
  layer_id: number
  name: string
  type: MarkerType
  style: MarkerStyle
  fields: Record<string, FieldValue>
  rev: number
  notes_count: number
  /** Who changed it last (its creator when nobody has since). */
  editor_name: string
  /** When it was changed last. */
  edited_at: string
}

export interface DataListRequest {
  layer_id: number
  query?: DataListQuery
  pageindex?: number
  pagesize?: number
}

export interface DataListPage {
  list: DataListRow[]
  /** Live markers in the layer. */
  total: number
  /** Markers the query matched (what 全选 picks). */
  matched: number
  /** The server's time of the answer: a bulk action over the query reports markers changed after it as stale. */
  listed_at: string
}

export type BulkAction =
  | { action: 'set_field'; field_id: number; value: FieldValue }
  /** `size` is a point's icon size and a line's or area's stroke width; `icon` changes points only. */
  | { action: 'set_style'; style: Pick<MarkerStyle, 'color' | 'icon' | 'size'> }
  | { action: 'move'; to_layer_id: number }
  | { action: 'delete' }

/**
 * Which markers of the list's layer a bulk action works on: the rows picked (with the rev each
 * showed), or everything the layer's query matched but some (全选 over more rows than one call names).
 */
export type BulkTarget = { layer_id: number } & ({ items: { id: number; rev: number }[] } | { query: DataListQuery; except_ids?: number[]; listed_at: string })

export type BulkRequest = BulkAction & BulkTarget

export type BulkRefusalReason = 'forbidden' | 'not_found' | 'conflict' | 'invalid' | 'limit'

export interface BulkRefusal {
  id: number
  reason: BulkRefusalReason
  /** What the app shows for it (Chinese). */
  message: string
}

export interface BulkResult {
  /** Markers changed (restored, for a restore). */
  done: number
  refused: BulkRefusal[]
  /** Names the op-log entries of this action: /api/oplog/restore/batch brings it back as one. */
  batch_id: string
}

export interface DataListApi {
  '/api/marker/datalist': { req: DataListRequest; res: DataListPage }
  '/api/marker/bulk': { req: BulkRequest; res: BulkResult }
  /** Undoes every change of one bulk action that is still its marker's current state; the rest are reported. */
  '/api/oplog/restore/batch': { req: { batch_id: string }; res: BulkResult }
}
