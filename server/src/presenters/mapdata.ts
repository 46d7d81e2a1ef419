/** Wire shapes of map data (types/mapdata.ts); pure functions of loaded rows. A marker's columns are src/domain/markerWire.ts's. */
import type { MarkerColumnsPage } from '../../../types/api'
import type { Layer, LayerType, Marker, OpAction, OpEntity, OpLog } from '../../../types/mapdata'
import { encodeMarkerColumns } from '../../../src/domain/markerColumns'
import { MARKER_WIRE, type WireColumn } from '../../../src/domain/markerWire'
import type { LayerRow } from '../db/layers'
import type { MarkerRecord } from '../db/markers'
import type { OplogRow } from '../db/oplog'

function parseObject<T>(text: string | null): T {
  if (!text) return {} as T
  try {
    const value: unknown = JSON.parse(text)
    return (value && typeof value === 'object' && !Array.isArray(value) ? value : {}) as T
  } catch {
    return {} as T
  }
}

// How presentMarkers reads each of MARKER_WIRE's columns from a row, worked out once.
const AS_IS = 0
const PARSED = 1
const CREATOR = 2
const UNLESS_NULL = 3
const KEYS = MARKER_WIRE.map((c) => c.key)
const HOW = (MARKER_WIRE as readonly WireColumn[]).map((c) => (c.stored === 'creator' ? CREATOR : c.stored === 'json' ? PARSED : c.optional ? UNLESS_NULL : AS_IS))

export type PresentableMarker = MarkerRecord & { creator_name?: string }

export function presentMarker(row: PresentableMarker): Marker {
  return presentMarkers([row], new Map([[row.creator_id, row.creator_name ?? '']]))[0]
}

/**
 * Many markers at once (pages of 5000): markers mostly share a few styles and empty field sets, so
 * each distinct JSON text is parsed once. The objects may be shared between markers of the result,
 * which is serialised at once and never changed.
 */
export function presentMarkers(rows: readonly MarkerRecord[], creatorNames: ReadonlyMap<number, string>): Marker[] {
  const parsed = new Map<string, object>()
  const parseShared = (text: string): object => {
    let value = parsed.get(text)
    if (value === undefined) {
      value = parseObject<object>(text)
      parsed.set(text, value)
    }
    return value
  }
  const out = new Array<Marker>(rows.length)
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i] as unknown as Record<string, unknown>
    const m: Record<string, unknown> = {}
    for (let c = 0; c < HOW.length; c++) {
      const key = KEYS[c]
      const how = HOW[c]
      if (how === AS_IS) m[key] = row[key]
      else if (how === PARSED) m[key] = parseShared(row[key] as string)
      else if (how === CREATOR) m[key] = creatorNames.get(row.creator_id as number) ?? ''
      // Absent rather than null: most markers have none, and a page of 5000 stays as small as before.
      else if (row[key] !== null) m[key] = row[key]
    }
    out[i] = m as unknown as Marker
  }
  return out
}

/**
 * A page of markers in columns (types/api.ts MarkerColumnsPage), the same markers presentMarkers
 * gives. `hideCreator`: a public share's page, which does not tell strangers who in the team made
 * each marker nor the creating phone's id, as its SPEC page does not.
 */
export function presentMarkerColumns(rows: readonly MarkerRecord[], creatorNames: ReadonlyMap<number, string>, total: number, opts: { hideCreator?: boolean } = {}): MarkerColumnsPage {
  const list = presentMarkers(rows, creatorNames)
  if (opts.hideCreator) {
    for (const m of list as unknown as Record<string, unknown>[]) {
      for (const column of MARKER_WIRE as readonly WireColumn[]) {
        if (column.onShare === 'absent') delete m[column.key]
        else if (column.onShare !== undefined) m[column.key] = column.onShare
      }
    }
  }
  return encodeMarkerColumns(list, total)
}

/** What the caller's view adds to a layer row. */
export interface LayerView {
  marker_count: number
  show: boolean
  manager: boolean
  layer_opts: string[]
}

export function presentLayer(row: LayerRow, view: LayerView): Layer {
  return {
    id: row.id,
    name: row.name,
    parent_id: row.parent_id,
    type: row.type as LayerType,
    marker_count: view.marker_count,
    show: view.show,
    manager: view.manager,
    layer_opts: view.layer_opts,
    sort: row.sort,
    is_default: row.is_default === 1,
    rev: row.rev,
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}

/** A layer as the operation log keeps it (independent of who looks). */
export type LayerRecord = Omit<Layer, 'show' | 'manager' | 'layer_opts'>

export function presentLayerRecord(row: LayerRow, markerCount: number): LayerRecord {
  return {
    id: row.id,
    name: row.name,
    parent_id: row.parent_id,
    type: row.type as LayerType,
    marker_count: markerCount,
    sort: row.sort,
    is_default: row.is_default === 1,
    rev: row.rev,
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}

function parseJson(text: string | null): unknown {
  if (text === null) return null
  try {
    return JSON.parse(text)
  } catch {
    return null
  }
}

export function presentOp(row: OplogRow, userName: string, restorable: boolean): OpLog {
  return {
    id: row.id,
    at: row.at,
    user_id: row.user_id,
    user_name: userName,
    entity: row.entity as OpEntity,
    entity_id: row.entity_id,
    action: row.action as OpAction,
    name: row.name,
    before: parseJson(row.before),
    after: parseJson(row.after),
    restorable,
    ...(row.batch_id ? { batch_id: row.batch_id } : {}),
  }
}
