/** Which queued item goes next, and what the phone shows for a queued save (pure; used by the outbox store). */
import type { Marker, Note } from '../../types/mapdata'
import { isTempId, keptRef, sendable, type MarkerSaveItem, type NoteSaveItem, type OutboxItem } from './outbox'

/** Marks a marker or note shown from the outbox (not on the server in this form yet); the map draws it pending. */
export interface PendingFlag {
  pending?: boolean
}

/**
 * The next item to send: the first sendable one, except that a note goes after the photos it shows
 * (a photo picked while editing a queued note is queued after that note).
 */
export function nextToSend(items: readonly OutboxItem[]): OutboxItem | undefined {
  const ready = sendable(items)
  const first = ready[0]
  if (first?.kind !== 'note.save') return first
  const refs = first.input.photos.map(keptRef).filter((r): r is string => !!r)
  return ready.find((it) => it.kind === 'photo' && refs.includes(it.ref)) ?? first
}

/** The marker a queued save shows until the server answers. */
export function localMarker(it: MarkerSaveItem, who: { id: number; name: string }, now: string): Marker & PendingFlag {
  const b = it.base
  const { client_id: _c, rev: _r, id: _i, ...input } = it.input
  return {
    sort: 0,
    fields: {},
    style: {},
    width: 0,
    radius: 0,
    creator_id: who.id,
    creator_name: who.name,
    created_at: now,
    updated_at: now,
    ...(b ?? {}),
    ...input,
    id: it.marker_id,
    rev: isTempId(it.marker_id) ? 0 : (b?.rev ?? it.input.rev ?? 0),
    pending: true,
  }
}

/** The note a queued save shows until the server answers. */
export function localNote(it: NoteSaveItem, who: { id: number; name: string }, now: string): Note & PendingFlag {
  const b = it.base
  return {
    user_id: who.id,
    user_name: who.name,
    created_at: now,
    ...(b ?? {}),
    id: it.note_id,
    marker_id: it.marker_id,
    content: it.input.content,
    photos: it.input.photos,
    rev: isTempId(it.note_id) ? 0 : (b?.rev ?? it.input.rev ?? 0),
    updated_at: now,
    pending: true,
  }
}
