/**
 * Live team map: revisions, the group's change log and the push socket. The contract between the
 * server's sync area (server/src/services/sync.ts, routes/sync.ts) and the app's SyncStore.
 *
 * Every editable entity the map shows (layer, marker, note, custom field definition, title style)
 * carries `rev`: 1 when created, one more on every change (update, delete, restore). A save or a
 * delete that sends `rev` is refused with ErrCode.CONFLICT when the stored rev differs, and the
 * error envelope's `data` holds the current version (the presented entity, or null when it has
 * been deleted); nothing is written. A save or delete without `rev` behaves as before.
 */

/** What a change log entry is about. */
export type SyncKind = 'layer' | 'marker' | 'note' | 'field' | 'title_style'

export interface SyncChange {
  /** The group's change sequence number: strictly increasing, one per entry. */
  seq: number
  kind: SyncKind
  id: number
  op: 'upsert' | 'delete'
  /** The entity's rev after the change. */
  rev: number
  /** The layer the entity lies in (a layer's own id for kind 'layer'); 0 for a title style that is not a layer's. */
  layer_id: number
  /** For kind 'note': the marker the note belongs to. */
  marker_id?: number
}

export interface SyncChangesReq {
  /** The last seq the client has applied; 0 on a first start (answers the current seq and no changes). */
  since: number
  /** At most this many changes (default and maximum 1000). */
  limit?: number
}

export interface SyncChangesRes {
  /** Send as `since` next: the seq of the last change listed, or the group's current seq. */
  seq: number
  /** Only what the caller may read (layer grants, departments, hidden markers). */
  changes: SyncChange[]
  /** More changes follow: ask again at once with since = seq. */
  more: boolean
  /** `since` is older than the retained log (or unknown to it): reload layers and markers fully, then continue from seq. */
  reload: boolean
}

/**
 * The push socket, GET /api/sync/socket (a WebSocket; H5 and the host WebView through the
 * browser's WebSocket, the mini-program through Taro.connectSocket). Messages are JSON text.
 * The client's first message is `hello` with the session's token and user id (a browser cannot
 * set headers on a WebSocket); a socket that does not say hello within 10 s, or says it with a
 * dead session, is closed with code 4401.
 */
export type SyncClientMessage =
  | { type: 'hello'; token: string; userid: number }
  | { type: 'ping' }
  /** The marker this client has open for editing, or null when it closes the editor. */
  | { type: 'editing'; marker_id: number | null }

export interface PresenceEntry {
  user_id: number
  nickname: string
  /** The marker this person is editing, or null when only viewing the map. */
  editing: number | null
}

export type SyncServerMessage =
  /** After hello: the group's current seq. */
  | { type: 'ready'; seq: number }
  /** The caller's group changed: pull /api/sync/changes since the last applied seq. */
  | { type: 'seq'; seq: number }
  /** Everyone else in the group with a socket open now (one entry per person). */
  | { type: 'presence'; people: PresenceEntry[] }
  | { type: 'pong' }

/** Close code for a socket whose hello is missing or whose session is not valid. */
export const SYNC_SOCKET_UNAUTHORIZED = 4401
/** The client pings this often; the server closes a socket silent for three times as long. */
export const SYNC_PING_INTERVAL_MS = 25_000
/** Without a socket the client polls /api/sync/changes this often. */
export const SYNC_POLL_INTERVAL_MS = 10_000
