/** Wire shapes of map data (types/mapdata.ts); pure functions of loaded rows. */
import type { MarkerColumnsPage } from '../../../types/api'
import type { FieldValue, Layer, LayerType, Marker, MarkerStyle, MarkerType, OpAction, OpEntity, OpLog } from '../../../types/mapdata'
import { encodeMarkerColumns } from '../../../src/domain/markerColumns'
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
  const parseShared = <T>(text: string): T => {
    let value = parsed.get(text)
    if (value === undefined) {
      value = parseObject<object>(text)
      parsed.set(text, value)
    }
    return value as T
  }
  const out = new Array<Marker>(rows.length)
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]
    out[i] = {
      id: row.id,
      layer_id: row.layer_id,
      name: row.name,
      type: row.type as MarkerType,
      points: row.points,
      style: parseShared<MarkerStyle>(row.style),
      width: row.width,
      radius: row.radius,
      sort: row.sort,
      fields: parseShared<Record<string, FieldValue>>(row.fields),
      creator_id: row.creator_id,
      creator_name: creatorNames.get(row.creator_id) ?? '',
      rev: row.rev,
      created_at: row.created_at,
      updated_at: row.updated_at,
    }
    // Absent rather than null: most markers have none, and a page of 5000 stays as small as before.
    if (row.client_id !== null) out[i].client_id = row.client_id
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
    for (const m of list) {
      m.creator_id = 0
      m.creator_name = ''
      delete m.client_id
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
