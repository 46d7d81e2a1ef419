/**
 * Notes (text and photos) on a marker. Reading needs note_list on the marker's layer, writing
 * note_add / note_edit / note_delete; every change is logged and restorable.
 */
import { ErrCode } from '../../../types/api'
import type { Note } from '../../../types/mapdata'
import { MAP_MSG } from '../../../src/domain/messages'
import { SYNC_CONFLICT_MSG } from '../../../src/domain/syncMessages'
import { PERM, type PermissionId } from '../../../src/domain/permissions'
import type { Caller } from '../auth'
import { inTransaction, type Database, type Executor } from '../db/connection'
import { findMarker, findMarkerEvenDeleted, nicknamesOf } from '../db/markers'
import { findNoteByClientId, insertNote, notesByIds, notesOfMarker, softDeleteNotes, updateNote, type NoteRow } from '../db/notes'
import { recordOp } from '../db/oplog'
import { BusinessError } from '../envelope'
import { noteLogName, presentNote } from '../presenters/map-extras'
import { createOnce } from './client-ids'
import { requireRev } from './revisions'
import { logChanges } from './sync'
import { mapCaller, notFound, requireOnLayer, type MapCaller } from './permissions'

export interface NoteInput {
  id?: number
  marker_id: number
  content: string
  photos: string[]
  /** The revision the edit started from (types/sync.ts). */
  rev?: number
  /** Makes a create idempotent (services/client-ids.ts); ignored on an update. */
  client_id?: string
}

const NOTE_CONFLICT = { changed: SYNC_CONFLICT_MSG.noteChanged, deleted: SYNC_CONFLICT_MSG.noteDeleted }

/** The live marker in the caller's group, and the caller may `perm` on its layer. */
async function requireOnMarker(trx: Executor, who: MapCaller, markerId: number, perm: PermissionId) {
  const marker = await findMarker(trx, who.groupId, markerId)
  if (!marker) throw notFound()
  await requireOnLayer(trx, who, marker.layer_id, perm)
  return marker
}

async function present(trx: Executor, rows: NoteRow[]): Promise<Note[]> {
  const names = await nicknamesOf(
    trx,
    rows.map((r) => r.user_id),
  )
  return rows.map((r) => presentNote(r, names.get(r.user_id) ?? ''))
}

/** A stale `rev` is refused with the note as the caller reads it now (services/revisions.ts). */
function requireNoteRev(trx: Executor, who: MapCaller, id: number, rev: number | undefined): Promise<void> {
  return requireRev(trx, 'notes', who.groupId, id, rev, NOTE_CONFLICT, async () => {
    const [current] = await notesByIds(trx, who.groupId, [id])
    if (!current) return null
    await requireOnMarker(trx, who, current.marker_id, PERM.NOTE_LIST)
    return (await present(trx, [current]))[0]
  })
}

export async function notesOfMarkerFor(db: Executor, caller: Caller, markerid: number): Promise<Note[]> {
  const who = await mapCaller(db, caller)
  await requireOnMarker(db, who, markerid, PERM.NOTE_LIST)
  return present(db, await notesOfMarker(db, who.groupId, markerid))
}

/**
 * The note an earlier create with this client id made (services/client-ids.ts), as it is now:
 * CONFLICT when deleted since, and only while the caller still reads its marker. Undefined when none.
 */
async function earlierNote(db: Executor, who: MapCaller, clientId: string): Promise<NoteRow | undefined> {
  const row = await findNoteByClientId(db, who.groupId, who.userId, clientId)
  if (!row) return undefined
  if (row.deleted_at !== null) throw new BusinessError(ErrCode.CONFLICT, NOTE_CONFLICT.deleted, null)
  await requireOnMarker(db, who, row.marker_id, PERM.NOTE_LIST)
  return row
}

export async function saveNote(db: Database, caller: Caller, input: NoteInput, now: Date): Promise<Note> {
  if (!input.content && input.photos.length === 0) throw new BusinessError(ErrCode.VALIDATION, MAP_MSG.noteEmpty)
  const clientId = input.id ? undefined : input.client_id
  if (!clientId) return saveNoteIn(db, caller, input, now)
  return createOnce(
    () => saveNoteIn(db, caller, input, now),
    async () => {
      const won = await earlierNote(db.kysely, await mapCaller(db.kysely, caller), clientId)
      return won && (await present(db.kysely, [won]))[0]
    },
  )
}

async function saveNoteIn(db: Database, caller: Caller, input: NoteInput, now: Date): Promise<Note> {
  const at = now.toISOString()
  const saved = await inTransaction(db, async (trx) => {
    const who = await mapCaller(trx, caller)
    if (!input.id) {
      if (input.client_id) {
        const earlier = await earlierNote(trx, who, input.client_id)
        if (earlier) return earlier
      }
      await requireOnMarker(trx, who, input.marker_id, PERM.NOTE_ADD)
      const row = await insertNote(trx, { group_id: who.groupId, marker_id: input.marker_id, content: input.content, photos: input.photos, user_id: who.userId, at, client_id: input.client_id })
      await logNote(trx, who, 'create', null, row, at)
      return row
    }
    await requireNoteRev(trx, who, input.id, input.rev)
    const [existing] = await notesByIds(trx, who.groupId, [input.id])
    if (!existing || existing.marker_id !== input.marker_id) throw notFound()
    await requireOnMarker(trx, who, existing.marker_id, PERM.NOTE_EDIT)
    const row = await updateNote(trx, existing.id, { content: input.content, photos: input.photos, at })
    await logNote(trx, who, 'update', existing, row, at)
    return row
  })
  return (await present(db.kysely, [saved]))[0]
}

// All or nothing: an unknown id or one the caller may not delete refuses the whole call.
export async function deleteNotes(db: Database, caller: Caller, ids: number[], now: Date, revs?: number[]): Promise<void> {
  const at = now.toISOString()
  await inTransaction(db, async (trx) => {
    const who = await mapCaller(trx, caller)
    const unique = [...new Set(ids)]
    // One stale note refuses the whole delete, answering that note as it is now.
    if (revs) for (const id of unique) await requireNoteRev(trx, who, id, revs[ids.indexOf(id)])
    const notes = await notesByIds(trx, who.groupId, unique)
    if (notes.length !== unique.length) throw notFound()
    for (const markerId of new Set(notes.map((n) => n.marker_id))) await requireOnMarker(trx, who, markerId, PERM.NOTE_DELETE)
    await softDeleteNotes(trx, unique, at)
    for (const note of notes) await logNote(trx, who, 'delete', note, null, at)
  })
}

/** A note's change log entry (services/sync.ts), in its marker's layer. */
export async function logNoteChange(trx: Executor, groupId: number, note: Pick<NoteRow, 'id' | 'rev' | 'marker_id'>, op: 'upsert' | 'delete', at: string): Promise<void> {
  const marker = await findMarkerEvenDeleted(trx, groupId, note.marker_id)
  await logChanges(trx, groupId, [{ kind: 'note', id: note.id, op, rev: note.rev, layer_id: marker?.layer_id ?? 0, marker_id: note.marker_id }], at)
}

async function logNote(trx: Executor, who: MapCaller, action: 'create' | 'update' | 'delete', before: NoteRow | null, after: NoteRow | null, at: string) {
  const subject = (after ?? before)!
  await logNoteChange(trx, who.groupId, after ?? { ...before!, rev: before!.rev + 1 }, after ? 'upsert' : 'delete', at)
  const name = (await nicknamesOf(trx, [subject.user_id])).get(subject.user_id) ?? ''
  await recordOp(trx, {
    group_id: who.groupId,
    user_id: who.userId,
    entity: 'note',
    entity_id: subject.id,
    action,
    name: noteLogName(subject),
    before: before && presentNote(before, name),
    after: after && presentNote(after, name),
    at,
  })
}
