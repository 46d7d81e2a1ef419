/** Repository of the notes table: text and photos on a marker. Rows are soft-deleted. */
import type { Generated, Selectable } from 'kysely'
import type { Executor } from './connection'
import { bumpRev } from './revisions'

export interface NotesTable {
  id: Generated<number>
  group_id: number
  marker_id: number
  content: string
  /** JSON array of upload URLs. */
  photos: string
  /** Revision (types/sync.ts): 1 when created, one more on every change. */
  rev: Generated<number>
  user_id: number
  created_at: string
  updated_at: string
  deleted_at: string | null
  /** The id the creating phone gave it (src/domain/clientId.ts): unique per group and author. */
  client_id: string | null
}

declare module './schema' {
  interface Tables {
    notes: NotesTable
  }
}

export type NoteRow = Selectable<NotesTable>

export function photosOf(row: Pick<NoteRow, 'photos'>): string[] {
  try {
    const value: unknown = JSON.parse(row.photos)
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []
  } catch {
    return []
  }
}

/** The live notes of a marker, oldest first. */
export function notesOfMarker(db: Executor, groupId: number, markerId: number): Promise<NoteRow[]> {
  return db.selectFrom('notes').selectAll().where('group_id', '=', groupId).where('marker_id', '=', markerId).where('deleted_at', 'is', null).orderBy('id').execute()
}

/** Live notes of the group with these ids. */
export function notesByIds(db: Executor, groupId: number, ids: number[]): Promise<NoteRow[]> {
  if (ids.length === 0) return Promise.resolve([])
  return db.selectFrom('notes').selectAll().where('group_id', '=', groupId).where('id', 'in', ids).where('deleted_at', 'is', null).orderBy('id').execute()
}

export function findNoteEvenDeleted(db: Executor, groupId: number, id: number): Promise<NoteRow | undefined> {
  return db.selectFrom('notes').selectAll().where('group_id', '=', groupId).where('id', '=', id).executeTakeFirst()
}

/** The note (live or deleted) this member of the group created with this client id. */
export function findNoteByClientId(db: Executor, groupId: number, userId: number, clientId: string): Promise<NoteRow | undefined> {
  return db.selectFrom('notes').selectAll().where('group_id', '=', groupId).where('user_id', '=', userId).where('client_id', '=', clientId).executeTakeFirst()
}

export function insertNote(db: Executor, note: { group_id: number; marker_id: number; content: string; photos: string[]; user_id: number; at: string; client_id?: string }): Promise<NoteRow> {
  return db
    .insertInto('notes')
    .values({
      group_id: note.group_id,
      marker_id: note.marker_id,
      content: note.content,
      photos: JSON.stringify(note.photos),
      user_id: note.user_id,
      created_at: note.at,
      updated_at: note.at,
      deleted_at: null,
      client_id: note.client_id ?? null,
    })
    .returningAll()
    .executeTakeFirstOrThrow()
}

export function updateNote(db: Executor, id: number, patch: { content: string; photos: string[]; at: string }): Promise<NoteRow> {
  return db
    .updateTable('notes')
    .set({ content: patch.content, photos: JSON.stringify(patch.photos), updated_at: patch.at, rev: bumpRev() })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow()
}

export async function softDeleteNotes(db: Executor, ids: number[], at: string): Promise<void> {
  if (ids.length === 0) return
  await db.updateTable('notes').set({ deleted_at: at, updated_at: at, rev: bumpRev() }).where('id', 'in', ids).where('deleted_at', 'is', null).execute()
}

export async function restoreNote(db: Executor, id: number, at: string): Promise<NoteRow> {
  return db.updateTable('notes').set({ deleted_at: null, updated_at: at, rev: bumpRev() }).where('id', '=', id).returningAll().executeTakeFirstOrThrow()
}

export async function deleteNotesOfGroups(db: Executor, groupIds: number[]): Promise<void> {
  if (groupIds.length === 0) return
  await db.deleteFrom('notes').where('group_id', 'in', groupIds).execute()
}
