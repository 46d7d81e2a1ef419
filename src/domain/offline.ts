/**
 * Rules of the map data kept on the phone for working without signal: the keys of a snapshot, the
 * local search over it, and which layers make room when the storage is full. Pure; the cache store
 * (src/stores/OfflineCacheStore.ts) does the reading and writing.
 */
import type { FieldValue, Layer, LayerField, Marker, Note } from '../../types/mapdata'
import { offlineUserPrefix } from './offlineKeys'

/** One layer's markers as saved, with the live-sync seq they were current at (the single-record form of earlier versions, still read). */
export interface SavedMarkers {
  seq: number
  list: Marker[]
}

/**
 * Markers per saved chunk: one chunk is encoded (in the marker page's columns, src/domain/markerColumns.ts;
 * copies written before held the markers' own arrays) and stored in one step of the write, so at 4x
 * CPU throttling (a slow phone) each step stays a few milliseconds and the map keeps its frames
 * while 100,000 markers are saved. At 1000 a step took about 35 ms there, long enough to drop
 * frames of a pan that the first load's copy was still being written under.
 */
export const OFFLINE_CHUNK_MARKERS = 250

/**
 * The record under `markers:<layerId>` in the chunked form: written after every chunk of its copy,
 * so a copy the app was closed in the middle of writing is never read as whole (its manifest still
 * names the previous copy's chunks, or there is none).
 */
export interface MarkersManifest {
  seq: number
  /** Names this copy's chunks (`markers:<layerId>@<stamp>.<n>`), apart from any earlier copy's. */
  stamp: string
  /** Markers in all, and per chunk (the last chunk holds the rest). */
  count: number
  size: number
}

export type SavedMarkersRecord = SavedMarkers | MarkersManifest

export function isManifest(v: SavedMarkersRecord | undefined): v is MarkersManifest {
  return !!v && typeof (v as MarkersManifest).stamp === 'string' && !Array.isArray((v as SavedMarkers).list)
}

/** How many chunks a copy of `count` markers takes. */
export function chunkCount(m: Pick<MarkersManifest, 'count' | 'size'>): number {
  return m.size > 0 ? Math.ceil(m.count / m.size) : 0
}

/** The chunks of one copy of a layer's markers, in order. */
export function chunkKeys(k: SnapshotKeys, layerId: number, m: Pick<MarkersManifest, 'stamp' | 'count' | 'size'>): string[] {
  return Array.from({ length: chunkCount(m) }, (_, n) => `${k.markers(layerId)}@${m.stamp}.${n}`)
}

/** Chunk keys held for a layer that are not the copy `keepStamp` names: left by an earlier copy or by a write cut short. */
export function staleChunkKeys(keys: string[], k: SnapshotKeys, layerId: number, keepStamp: string | null): string[] {
  const head = `${k.markers(layerId)}@`
  const keep = keepStamp === null ? null : `${head}${keepStamp}.`
  return keys.filter((key) => key.startsWith(head) && (keep === null || !key.startsWith(keep)))
}

/** One read of a chunk for a page: markers [from, to) of chunk `chunk` of the layer at `layer` in the list asked for. */
export interface ChunkSlice {
  layer: number
  chunk: number
  from: number
  to: number
}

/**
 * Which saved chunks hold one page of the markers of these layers (in the order asked, as the
 * server pages them), so an offline start reads each chunk once over its pages, not the whole
 * layer for every page.
 */
export function pageSlices(copies: Pick<MarkersManifest, 'count' | 'size'>[], pageindex: number, pagesize: number): { slices: ChunkSlice[]; total: number } {
  const total = copies.reduce((n, c) => n + c.count, 0)
  let start = Math.max(0, (pageindex - 1) * pagesize)
  const end = Math.min(total, start + pagesize)
  const slices: ChunkSlice[] = []
  let base = 0
  copies.forEach((c, layer) => {
    for (let chunk = 0; chunk < chunkCount(c) && start < end; chunk++) {
      const from = base + chunk * c.size
      const to = Math.min(base + c.count, from + c.size)
      if (to <= start || from >= end) continue
      slices.push({ layer, chunk, from: start - from, to: Math.min(end, to) - from })
      start = Math.min(end, to)
    }
    base += c.count
  })
  return { slices, total }
}

/** What the snapshot keeps besides the data: when it was saved, when each layer was last shown, the pinned layers. */
export interface SavedMeta {
  /** ISO time of the last write of data fetched from the server. */
  savedAt: string
  /** Layer id → when its markers were last shown (ms), for dropping the least recently shown first. */
  shown: Record<string, number>
  /** Layers kept for offline use whatever the room (离线保留). */
  pinned: number[]
}

export const EMPTY_META: SavedMeta = { savedAt: '', shown: {}, pinned: [] }

/** The keys of one user in one group (map). */
export function offlineGroupPrefix(userId: number, groupId: number): string {
  return `${offlineUserPrefix(userId)}${groupId}:`
}

/** The keys of one user's map in one group. */
export function snapshotKeys(userId: number, groupId: number) {
  const p = offlineGroupPrefix(userId, groupId)
  return {
    prefix: p,
    layers: `${p}layers`,
    meta: `${p}meta`,
    since: `${p}since`,
    /** The title styles of the group and its layers. */
    styles: `${p}styles`,
    markers: (layerId: number) => `${p}markers:${layerId}`,
    fields: (layerId: number) => `${p}fields:${layerId}`,
    /** Notes of the markers of a layer whose notes were opened, by marker id. */
    notes: (layerId: number) => `${p}notes:${layerId}`,
  }
}

export type SnapshotKeys = ReturnType<typeof snapshotKeys>

/** The layer ids whose markers a snapshot holds, from its keys (the record of each layer, not its chunks). */
export function savedLayerIds(keys: string[], k: SnapshotKeys): number[] {
  const head = `${k.prefix}markers:`
  return keys.filter((key) => key.startsWith(head) && /^\d+$/.test(key.slice(head.length))).map((key) => Number(key.slice(head.length)))
}

function valueText(v: FieldValue): string {
  if (v === null || v === undefined) return ''
  return Array.isArray(v) ? v.join(' ') : String(v)
}

/**
 * The server's search done on the saved copy: markers whose name, notes or field values contain the
 * keyword (case-insensitive), in the order of the saved layers, one page of `pagesize`.
 */
export function searchSaved(markers: Marker[], notesByMarker: ReadonlyMap<number, Note[]>, kw: string, pageindex: number, pagesize: number): { list: Marker[]; total: number } {
  const q = kw.trim().toLowerCase()
  if (!q) return { list: [], total: 0 }
  const hits = markers.filter(
    (m) =>
      m.name.toLowerCase().includes(q) ||
      Object.values(m.fields ?? {}).some((v) => valueText(v).toLowerCase().includes(q)) ||
      (notesByMarker.get(m.id) ?? []).some((n) => n.content.toLowerCase().includes(q)),
  )
  const start = Math.max(0, (pageindex - 1) * pagesize)
  return { list: hits.slice(start, start + pagesize), total: hits.length }
}

/** One page of the saved markers of these layers, as /api/marker/getlist pages them. */
export function pageOf(list: Marker[], pageindex: number, pagesize: number): { list: Marker[]; total: number } {
  const start = Math.max(0, (pageindex - 1) * pagesize)
  return { list: list.slice(start, start + pagesize), total: list.length }
}

/**
 * The saved layers that may go to make room, least recently shown first: never a pinned one, never
 * `keep` (the layer being written).
 */
export function dropOrder(saved: number[], meta: SavedMeta, keep: number | null): number[] {
  const pinned = new Set(meta.pinned)
  return saved.filter((id) => id !== keep && !pinned.has(id)).sort((a, b) => (meta.shown[String(a)] ?? 0) - (meta.shown[String(b)] ?? 0) || a - b)
}

/** The name a message gives a layer (its id when the list no longer has it). */
export function layerName(layers: Layer[], id: number): string {
  return layers.find((l) => l.id === id)?.name ?? `#${id}`
}

/** Notes saved per layer: one layer's entry with a marker's notes replaced. */
export function withNotes(saved: Record<string, Note[]> | undefined, markerId: number, notes: Note[]): Record<string, Note[]> {
  return { ...(saved ?? {}), [String(markerId)]: notes }
}

export type { Layer, LayerField, Marker, Note }
