/**
 * The outbox: saves made without network, kept on the phone and sent in order when it returns.
 * Pure rules only (the store sends and persists): the kinds of queued items, temp ids of queued
 * creates and their rewrite once the server answers, folding a later change into a queued one, what
 * a failure means for the replay, and which items wait on one the server refused.
 */
import type { Marker, MarkerInput, Note } from '../../types/mapdata'
import type { ApiReq } from '../../types/api'

/** pending: waits for its turn; refused: the server said no (message kept); conflict: the conflict sheet has it. */
export type OutboxStatus = 'pending' | 'refused' | 'conflict'

/** What a note save sends (NoteStore's body); photos may still be kept files (`KEPT_PREFIX` + ref). */
export type NoteBody = ApiReq<'/api/marker/note/save'> & { photos: string[] }

interface ItemBase {
  /** The item's identity, sent as `client_id` by creates and uploads so a repeat makes nothing new. */
  client_id: string
  status: OutboxStatus
  /** The server's words for a refusal, shown with the item. */
  error?: string
}

export interface MarkerSaveItem extends ItemBase {
  kind: 'marker.save'
  /** Negative (a temp id) for a create. */
  marker_id: number
  input: MarkerInput
  /** The marker as the edit started (the conflict sheet tells my changes from theirs). */
  base?: Marker
}

export interface MarkerDeleteItem extends ItemBase {
  kind: 'marker.delete'
  marker_id: number
  layer_id: number
  name: string
  rev?: number
}

export interface NoteSaveItem extends ItemBase {
  kind: 'note.save'
  /** Negative for a create. */
  note_id: number
  marker_id: number
  input: NoteBody
  base?: Note
}

export interface NoteDeleteItem extends ItemBase {
  kind: 'note.delete'
  note_id: number
  marker_id: number
  rev?: number
}

/** A photo picked without network, uploaded before the note (or the marker's photo field) that shows it. */
export interface PhotoItem extends ItemBase {
  kind: 'photo'
  /** The kept file (OfflineStorage.keepFile). */
  ref: string
  /** The note's marker; 0 for a photo field's, which goes before its marker's save (even a queued create's). */
  marker_id: number
  /** The upload's type: a note's photo (the default) or a custom field's. */
  for?: 'note' | 'field'
}

export type OutboxItem = MarkerSaveItem | MarkerDeleteItem | NoteSaveItem | NoteDeleteItem | PhotoItem

/** How a note's photo list names a photo not uploaded yet. */
export const KEPT_PREFIX = 'kept:'

export function keptPhoto(ref: string): string {
  return KEPT_PREFIX + ref
}

export function keptRef(photo: string): string | null {
  return photo.startsWith(KEPT_PREFIX) ? photo.slice(KEPT_PREFIX.length) : null
}

/** The kept photos a marker's photo fields name (not uploaded yet). */
export function keptInFields(fields: MarkerInput['fields']): string[] {
  const out: string[] = []
  for (const v of Object.values(fields ?? {})) if (Array.isArray(v)) for (const u of v) if (keptRef(u)) out.push(u)
  return out
}

export function isTempId(id: number | undefined): boolean {
  return typeof id === 'number' && id < 0
}

/** A temp id below every one in use (by the queue or by what the stores show). */
export function nextTempId(items: readonly OutboxItem[], inUse: readonly number[] = []): number {
  let min = 0
  for (const id of inUse) if (id < min) min = id
  for (const it of items) {
    if (it.marker_id < min) min = it.marker_id
    if ((it.kind === 'note.save' || it.kind === 'note.delete') && it.note_id < min) min = it.note_id
  }
  return min - 1
}

/** A queued create whose entity does not exist on the server yet. */
export function isCreate(it: OutboxItem): boolean {
  return (it.kind === 'marker.save' && isTempId(it.marker_id)) || (it.kind === 'note.save' && isTempId(it.note_id))
}

/** The temp ids a create makes, and the kept file a photo upload turns into a URL. */
function madeBy(it: OutboxItem): { marker?: number; note?: number; ref?: string } {
  if (it.kind === 'marker.save' && isTempId(it.marker_id)) return { marker: it.marker_id }
  if (it.kind === 'note.save' && isTempId(it.note_id)) return { note: it.note_id }
  if (it.kind === 'photo') return { ref: it.ref }
  return {}
}

/** True when `it` cannot be sent before `held` is: it refers to the marker, note or photo `held` makes. */
export function dependsOn(it: OutboxItem, held: OutboxItem): boolean {
  if (it === held) return false
  const made = madeBy(held)
  if (made.marker !== undefined && it.kind !== 'photo' && it.marker_id === made.marker) return true
  if (made.marker !== undefined && it.kind === 'photo' && it.marker_id === made.marker) return true
  if (made.note !== undefined && (it.kind === 'note.save' || it.kind === 'note.delete') && it.note_id === made.note) return true
  if (made.ref !== undefined && it.kind === 'note.save') return it.input.photos.includes(keptPhoto(made.ref))
  if (made.ref !== undefined && it.kind === 'marker.save') return keptInFields(it.input.fields).includes(keptPhoto(made.ref))
  return false
}

/** Items that wait on one the server refused (or that the conflict sheet holds), directly or through another. */
export function blockedBy(items: readonly OutboxItem[], held: readonly OutboxItem[]): Set<string> {
  const blocked = new Set<string>()
  const queue = [...held]
  while (queue.length) {
    const h = queue.shift()!
    for (const it of items) {
      if (blocked.has(it.client_id) || held.includes(it) || !dependsOn(it, h)) continue
      blocked.add(it.client_id)
      queue.push(it)
    }
  }
  return blocked
}

/**
 * Adds a change to the queue. A change to something already queued folds into it: an edit of a
 * queued create becomes part of the create, an edit of a queued edit keeps the rev the first edit
 * started from, a delete of a queued create drops the create and everything that hangs on it (its
 * notes and their photos), and a delete drops the queued edits it makes pointless. `sending` is the
 * item on the wire, which must not change under the request.
 */
export function enqueue(items: readonly OutboxItem[], item: OutboxItem, sending?: string): OutboxItem[] {
  const foldable = (it: OutboxItem) => it.client_id !== sending && it.status !== 'conflict'
  switch (item.kind) {
    case 'marker.save': {
      const i = items.findIndex((it) => it.kind === 'marker.save' && it.marker_id === item.marker_id && foldable(it))
      if (i < 0) return [...items, item]
      const prev = items[i] as MarkerSaveItem
      const input: MarkerInput = { ...item.input, rev: prev.input.rev }
      if (isTempId(prev.marker_id)) delete input.id
      return replaceAt(items, i, { ...prev, input, status: 'pending', error: undefined })
    }
    case 'note.save': {
      const i = items.findIndex((it) => it.kind === 'note.save' && it.note_id === item.note_id && foldable(it))
      if (i < 0) return [...items, item]
      const prev = items[i] as NoteSaveItem
      const input: NoteBody = { ...item.input, rev: prev.input.rev }
      if (isTempId(prev.note_id)) delete input.id
      return replaceAt(items, i, { ...prev, input, status: 'pending', error: undefined })
    }
    case 'marker.delete': {
      const create = items.find((it) => it.kind === 'marker.save' && it.marker_id === item.marker_id && isTempId(it.marker_id) && foldable(it))
      if (create) return dropWithDependents(items, create)
      const edit = items.find((it): it is MarkerSaveItem => it.kind === 'marker.save' && it.marker_id === item.marker_id && foldable(it))
      // Notes queued on a marker being deleted go with it on the server: sending them would only be refused.
      const rest = items.filter((it) => !(it.marker_id === item.marker_id && it.kind !== 'marker.delete' && foldable(it)))
      return [...rest, { ...item, rev: edit?.input.rev ?? item.rev }]
    }
    case 'note.delete': {
      const create = items.find((it) => it.kind === 'note.save' && it.note_id === item.note_id && isTempId(it.note_id) && foldable(it))
      if (create) return dropWithDependents(items, create)
      const edit = items.find((it): it is NoteSaveItem => it.kind === 'note.save' && it.note_id === item.note_id && foldable(it))
      const rest = edit ? items.filter((it) => it !== edit) : [...items]
      return [...rest, { ...item, rev: edit?.input.rev ?? item.rev }]
    }
    case 'photo':
      return items.some((it) => it.kind === 'photo' && it.ref === item.ref) ? [...items] : [...items, item]
  }
}

/** Removes an item and everything that waits on it (discarding a queued create removes its notes and photos too). */
export function dropWithDependents(items: readonly OutboxItem[], item: OutboxItem): OutboxItem[] {
  const gone = blockedBy(items, [item])
  gone.add(item.client_id)
  return items.filter((it) => !gone.has(it.client_id))
}

/** Photos kept only for notes (or marker saves) that are gone: their files can be dropped. */
export function orphanPhotos(items: readonly OutboxItem[]): PhotoItem[] {
  return items.filter((it): it is PhotoItem => it.kind === 'photo' && !items.some((n) => dependsOn(n, it)))
}

/** A queued marker create answered: later items refer to the real marker (and an edit queued meanwhile starts from its rev). */
export function rewriteMarkerId(items: readonly OutboxItem[], temp: number, real: number, rev?: number): OutboxItem[] {
  return items.map((it) => {
    if (it.marker_id !== temp) return it
    switch (it.kind) {
      case 'marker.save':
        return { ...it, marker_id: real, input: { ...it.input, id: real, rev: rev ?? it.input.rev } }
      case 'marker.delete':
        return { ...it, marker_id: real, rev: rev ?? it.rev }
      case 'note.save':
        return { ...it, marker_id: real, input: { ...it.input, marker_id: real } }
      default:
        return { ...it, marker_id: real }
    }
  })
}

/** A queued note create answered. */
export function rewriteNoteId(items: readonly OutboxItem[], temp: number, real: number, rev?: number): OutboxItem[] {
  return items.map((it) => {
    if (it.kind === 'note.save' && it.note_id === temp) return { ...it, note_id: real, input: { ...it.input, id: real, rev: rev ?? it.input.rev } }
    if (it.kind === 'note.delete' && it.note_id === temp) return { ...it, note_id: real, rev: rev ?? it.rev }
    return it
  })
}

/** A kept photo uploaded: the notes and photo fields waiting for it name its URL. */
export function rewritePhoto(items: readonly OutboxItem[], ref: string, url: string): OutboxItem[] {
  const kept = keptPhoto(ref)
  const swap = (list: string[]) => list.map((p) => (p === kept ? url : p))
  return items.map((it) => {
    if (it.kind === 'note.save' && it.input.photos.includes(kept)) return { ...it, input: { ...it.input, photos: swap(it.input.photos) } }
    if (it.kind === 'marker.save' && keptInFields(it.input.fields).includes(kept)) {
      const fields = Object.fromEntries(Object.entries(it.input.fields ?? {}).map(([k, v]) => [k, Array.isArray(v) ? swap(v) : v]))
      return { ...it, input: { ...it.input, fields } }
    }
    return it
  })
}

/** What a failed send means for the replay. */
export type FailureClass = 'network' | 'conflict' | 'refused' | 'unauthorized'

/** The ApiError fields the rule reads. */
export interface FailureLike {
  kind: 'business' | 'unauthorized' | 'http' | 'network'
  errcode?: number
  status?: number
}

/**
 * network: stop and try again later (a server error of 5xx is as passing as a dropped signal);
 * conflict: the sheet takes that item, the rest goes on; refused: kept with the server's message,
 * the rest goes on; unauthorized: stop (the session is over; the outbox waits for the next login).
 */
export function classifyFailure(e: FailureLike, conflictCode: number): FailureClass {
  if (e.kind === 'network') return 'network'
  if (e.kind === 'unauthorized') return 'unauthorized'
  if (e.kind === 'http') return (e.status ?? 0) >= 500 || !e.status ? 'network' : 'refused'
  return e.errcode === conflictCode ? 'conflict' : 'refused'
}

/** Waits between replays that found no network: 5 s doubling to 5 minutes. */
export function retryDelay(attempt: number): number {
  return Math.min(5000 * 2 ** Math.max(0, attempt), 5 * 60 * 1000)
}

/** Items the next replay may send, in order: pending ones that do not wait on a held one. */
export function sendable(items: readonly OutboxItem[]): OutboxItem[] {
  const held = items.filter((it) => it.status !== 'pending')
  const blocked = blockedBy(items, held)
  return items.filter((it) => it.status === 'pending' && !blocked.has(it.client_id))
}

/** What a restart finds: a sheet left open is gone, so its item is sent again (and opens the sheet again if still stale). */
export function restored(items: unknown): OutboxItem[] {
  if (!Array.isArray(items)) return []
  return (items as OutboxItem[]).filter((it) => it && typeof it.client_id === 'string' && typeof it.kind === 'string').map((it) => (it.status === 'conflict' ? { ...it, status: 'pending' } : it))
}

/** The storage key of a user's outbox in a group (the read cache never drops `outbox:` keys). */
export function outboxKey(userId: number, groupId: number): string {
  return `outbox:${userId}:${groupId}`
}

/** Items the user counts: photos travel with their note and are not counted on their own. */
export function visibleItems(items: readonly OutboxItem[]): OutboxItem[] {
  return items.filter((it) => it.kind !== 'photo')
}

function replaceAt<T>(list: readonly T[], i: number, value: T): T[] {
  const next = [...list]
  next[i] = value
  return next
}
