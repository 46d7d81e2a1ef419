/**
 * /api/marker/note/*: notes (text and photos) on a marker. Reading needs note_list on the marker's
 * layer, writing note_add / note_edit / note_delete; every change is logged and restorable.
 */
import type { FastifyInstance } from 'fastify'
import { deleteNotes, notesOfMarkerFor, saveNote } from '../services/note'
import { noteDeleteFields, noteListFields, noteSave } from '../schemas/note'
import { callDefiners, type AppDeps } from './define'

export function noteRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { db, clock } = deps
  const { sessionCall } = callDefiners(app, deps)

  sessionCall('/api/marker/note/getlist', noteListFields, async ({ markerid }, caller) => notesOfMarkerFor(db.kysely, caller, markerid))

  sessionCall('/api/marker/note/save', noteSave, async (input, caller) => saveNote(db, caller, input, clock.now()))

  sessionCall('/api/marker/note/delete', noteDeleteFields, async ({ ids, revs }, caller) => {
    await deleteNotes(db, caller, ids, clock.now(), revs)
    return null
  })
}
