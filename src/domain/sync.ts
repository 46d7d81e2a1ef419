/**
 * Live team sync, the pure part: the reconnect schedule, which pulled changes to act on (and how),
 * applying marker upserts and deletes to the per-layer lists in place, and the field-by-field
 * comparison and merge behind the conflict sheet. No stores, no platform: tested in test/unit/sync.test.ts.
 */
import type { SyncChange, SyncKind } from '../../types/sync'
import type { FieldValue, Marker, MarkerInput } from '../../types/mapdata'

/*
 * types/ is not compiled into the app bundles (only its types are): the contract's timings are
 * restated here, and test/unit/sync.test.ts checks them against types/sync.ts.
 */
/** The client pings this often (SYNC_PING_INTERVAL_MS of types/sync.ts). */
export const SYNC_PING_INTERVAL_MS = 25_000
/** Without a socket the client polls /api/sync/changes this often (SYNC_POLL_INTERVAL_MS of types/sync.ts). */
export const SYNC_POLL_INTERVAL_MS = 10_000

/** First reconnect delay; doubled on every failed attempt. */
export const RECONNECT_BASE_MS = 1000
/** Longest wait between reconnect attempts (a phone on a weak network keeps trying, but gently). */
export const RECONNECT_MAX_MS = 30_000

/** The wait before reconnect attempt `attempt` (0 for the first after a drop): 1 s, 2 s, 4 s … capped at 30 s. */
export function reconnectDelay(attempt: number): number {
  const n = Math.max(0, Math.floor(attempt))
  return Math.min(RECONNECT_MAX_MS, RECONNECT_BASE_MS * 2 ** Math.min(n, 30))
}

/** The push socket's address: the API base with http→ws; an empty base (H5 on the same origin) stays relative for the adapter to resolve. */
export function socketUrl(apiBase: string): string {
  return `${apiBase.replace(/^http(s?):\/\//i, 'ws$1://')}/api/sync/socket`
}

/** The last change of each entity in a batch (a marker moved five times is fetched once). */
export function collapseChanges(changes: readonly SyncChange[]): SyncChange[] {
  const last = new Map<string, SyncChange>()
  for (const c of changes) {
    const key = `${c.kind}:${c.id}`
    const seen = last.get(key)
    if (!seen || seen.seq < c.seq) last.set(key, c)
  }
  return Array.from(last.values()).sort((a, b) => a.seq - b.seq)
}

/** What this phone holds, asked while planning (revs of what it has, which lists are loaded). */
export interface HeldState {
  /** The rev of an entity this phone holds, or undefined when it holds none. */
  rev(kind: SyncKind, id: number): number | undefined
  /** Markers of this layer are loaded (or being shown): a new marker there must appear. */
  markerLayerLoaded(layerId: number): boolean
  /** Notes of this marker are on screen or kept. */
  notesLoaded(markerId: number): boolean
  /** Custom fields of this layer are kept. */
  fieldsLoaded(layerId: number): boolean
}

export interface SyncPlan {
  /** Markers to fetch by id (/api/marker/getbyid) and put in place. */
  markerFetch: number[]
  /** Markers to drop from the lists, the detail and the search results. */
  markerDrop: number[]
  /** The layer list changed: fetch it again (it is small). */
  layers: boolean
  /** Layers deleted: their markers go. */
  layerDrop: number[]
  /** Markers whose notes to fetch again. */
  noteMarkers: number[]
  /** Layers whose custom fields to fetch again. */
  fieldLayers: number[]
  titleStyles: boolean
}

/**
 * Decides what a batch of changes asks of this phone. A change whose rev is not newer than the
 * copy held is skipped: it is this phone's own save coming back, or one already applied.
 */
export function planChanges(changes: readonly SyncChange[], held: HeldState): SyncPlan {
  const plan: SyncPlan = { markerFetch: [], markerDrop: [], layers: false, layerDrop: [], noteMarkers: [], fieldLayers: [], titleStyles: false }
  const notes = new Set<number>()
  const fields = new Set<number>()
  for (const c of collapseChanges(changes)) {
    const have = held.rev(c.kind, c.id)
    if (have !== undefined && c.rev <= have) continue
    switch (c.kind) {
      case 'marker':
        if (c.op === 'delete') {
          if (have !== undefined) plan.markerDrop.push(c.id)
        } else if (have !== undefined || held.markerLayerLoaded(c.layer_id)) plan.markerFetch.push(c.id)
        break
      case 'layer':
        plan.layers = true
        if (c.op === 'delete') plan.layerDrop.push(c.id)
        break
      case 'note':
        if (c.marker_id !== undefined && held.notesLoaded(c.marker_id)) notes.add(c.marker_id)
        break
      case 'field':
        if (held.fieldsLoaded(c.layer_id)) fields.add(c.layer_id)
        break
      case 'title_style':
        plan.titleStyles = true
        break
    }
  }
  plan.noteMarkers = Array.from(notes)
  plan.fieldLayers = Array.from(fields)
  return plan
}

/**
 * The per-layer marker lists after fetched markers and deletions, changing only the lists touched
 * (the others keep their identity, so a 5000-marker layer is not copied for a change elsewhere).
 * A fetched marker replaces its old copy (in whichever layer it was), unless the held copy is as new;
 * it joins a layer only when that layer is loaded or `canHold` says so (a shown layer loaded empty).
 */
export function applyMarkerChanges(
  byLayer: ReadonlyMap<number, Marker[]>,
  fetched: readonly Marker[],
  dropIds: readonly number[],
  canHold: (layerId: number) => boolean = () => false,
): ReadonlyMap<number, Marker[]> {
  const held = new Map<number, Marker>()
  for (const list of byLayer.values()) for (const m of list) held.set(m.id, m)
  const incoming = fetched.filter((m) => {
    const h = held.get(m.id)
    return !h || h.rev < m.rev
  })
  const gone = new Set<number>(dropIds)
  for (const m of incoming) gone.add(m.id)
  if (!gone.size) return byLayer
  const next = new Map(byLayer)
  for (const [layerId, list] of byLayer)
    if (list.some((m) => gone.has(m.id)))
      next.set(
        layerId,
        list.filter((m) => !gone.has(m.id)),
      )
  for (const m of incoming) {
    const list = next.get(m.layer_id)
    if (list) next.set(m.layer_id, [...list, m])
    else if (canHold(m.layer_id)) next.set(m.layer_id, [m])
  }
  return next
}

// ---- conflicts: field by field -----------------------------------------------------------------

/** An entity seen as named parts the user can pick one by one (name, position, style, each custom field …). */
export type Facets = Record<string, unknown>

export type Choice = 'theirs' | 'mine'

export interface ConflictRow {
  key: string
  theirs: unknown
  mine: unknown
  /** I changed this part in my edit (against the version the edit started from). */
  mineChanged: boolean
  /** The teammate changed this part. */
  theirsChanged: boolean
  /** What the sheet picks at first: my change where I made one, else theirs (never drops what I typed). */
  pick: Choice
}

/** Equal as data (objects compared key by key, missing and null alike, key order ignored). */
export function sameValue(a: unknown, b: unknown): boolean {
  return stable(a) === stable(b)
}

function stable(v: unknown): string {
  if (v === undefined || v === null || v === '') return 'null'
  if (Array.isArray(v)) return `[${v.map(stable).join(',')}]`
  if (typeof v === 'object') {
    const o = v as Record<string, unknown>
    return `{${Object.keys(o)
      .filter((k) => o[k] !== undefined && o[k] !== null)
      .sort()
      .map((k) => `${k}:${stable(o[k])}`)
      .join(',')}}`
  }
  return JSON.stringify(v)
}

/**
 * The parts where my version and theirs differ. With the version my edit started from (`base`),
 * each row also says who changed it; without it both count as changed.
 */
export function conflictRows(base: Facets | null, mine: Facets, theirs: Facets): ConflictRow[] {
  const keys = Array.from(new Set([...Object.keys(theirs), ...Object.keys(mine)]))
  const rows: ConflictRow[] = []
  for (const key of keys) {
    if (sameValue(mine[key], theirs[key])) continue
    const mineChanged = base ? !sameValue(base[key], mine[key]) : true
    const theirsChanged = base ? !sameValue(base[key], theirs[key]) : true
    rows.push({ key, theirs: theirs[key], mine: mine[key], mineChanged, theirsChanged, pick: mineChanged ? 'mine' : 'theirs' })
  }
  return rows
}

/** Theirs, with my value on every part picked 'mine'. */
export function mergeFacets(mine: Facets, theirs: Facets, picks: Record<string, Choice>): Facets {
  const out: Facets = { ...theirs }
  for (const [key, pick] of Object.entries(picks)) if (pick === 'mine') out[key] = mine[key]
  return out
}

const FIELD_PREFIX = 'field:'

/** A custom field's facet key, and back. */
export const fieldFacet = (fieldId: number | string): string => `${FIELD_PREFIX}${fieldId}`
export const facetFieldId = (key: string): string | null => (key.startsWith(FIELD_PREFIX) ? key.slice(FIELD_PREFIX.length) : null)

export interface MarkerGeometry {
  type: MarkerInput['type']
  points: string
  radius: number
}

/** A marker (as saved or as being saved) in parts: kind, vertices and radius travel together as 'geometry'. */
export function markerFacets(m: MarkerInput | Marker): Facets {
  const f: Facets = {
    name: m.name,
    layer_id: m.layer_id,
    geometry: { type: m.type, points: m.points, radius: m.radius ?? 0 } satisfies MarkerGeometry,
    style: { ...(m.style ?? {}), width: m.width ?? null },
  }
  for (const [id, v] of Object.entries(m.fields ?? {})) f[fieldFacet(id)] = v
  return f
}

/** The marker input the parts describe, saved over `rev` (the current version's). */
export function markerFromFacets(f: Facets, id: number | undefined, rev: number | undefined): MarkerInput {
  const g = f.geometry as MarkerGeometry
  const { width, ...style } = (f.style ?? {}) as Record<string, unknown>
  const fields: Record<string, FieldValue> = {}
  for (const [key, v] of Object.entries(f)) {
    const fid = facetFieldId(key)
    if (fid !== null && v !== undefined) fields[fid] = v as FieldValue
  }
  return {
    ...(id ? { id } : {}),
    ...(rev !== undefined ? { rev } : {}),
    layer_id: f.layer_id as number,
    name: f.name as string,
    type: g.type,
    points: g.points,
    radius: g.radius,
    style,
    ...(typeof width === 'number' ? { width } : {}),
    fields,
  }
}

/** An entity of any kind in the parts the conflict sheet compares (markers: see markerFacets). */
export function facetsOf(kind: SyncKind, e: Record<string, unknown>): Facets {
  switch (kind) {
    case 'marker':
      return markerFacets(e as unknown as MarkerInput)
    case 'note':
      return { content: e.content ?? '', photos: e.photos ?? [] }
    case 'layer':
      return { name: e.name, parent_id: e.parent_id ?? 0 }
    case 'field':
      return { name: e.name, kind: e.kind, options: e.options ?? [], required: !!e.required }
    case 'title_style': {
      const { id: _id, layer_id: _layer, rev: _rev, header: _h, ...look } = e
      return { look }
    }
  }
}

/** What to send to save the parts again: my input with the parts replaced, over `rev` (none and no id: a new entity). */
export function inputFromFacets(kind: SyncKind, f: Facets, mine: Record<string, unknown>, id: number | undefined, rev: number | undefined): Record<string, unknown> {
  if (kind === 'marker') return markerFromFacets(f, id, rev) as unknown as Record<string, unknown>
  const { id: _id, rev: _rev, ...rest } = mine
  const parts = kind === 'title_style' ? ((f.look ?? {}) as Record<string, unknown>) : f
  return { ...rest, ...parts, ...(id ? { id } : {}), ...(rev !== undefined ? { rev } : {}) }
}
