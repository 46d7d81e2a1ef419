/** Zod of /api/marker/note/*: notes on a marker. */
import { z } from 'zod'
import { NOTE_MAX } from '../../../src/domain/markers'
import { MAP_UI_MSG, MSG } from '../../../src/domain/messages'
import { idField, idListField, idOrZeroField, photoUrlsField, revField, clientIdField } from './common'

/** The photos one note may carry (the /addinfo uploader offers as many). */
export const NOTE_PHOTOS_MAX = 9

export const noteSave = z.object({
  id: idField().optional(),
  marker_id: idField(),
  content: z.string().trim().max(NOTE_MAX, MAP_UI_MSG.noteTooLong(NOTE_MAX)).default(''),
  photos: photoUrlsField(NOTE_PHOTOS_MAX).default([]),
  rev: revField(),
  client_id: clientIdField(),
})

export const noteListFields = z.object({ markerid: idField() })

/** `revs`, when given, are the revisions the delete started from, one per id in the same order (types/sync.ts). */
export const noteDeleteFields = z
  .object({ ids: idListField(1000, { min: 1, keepDuplicates: true }), revs: z.array(idOrZeroField()).max(1000).optional() })
  .refine((v) => v.revs === undefined || v.revs.length === v.ids.length, MSG.badRequest)
