/** Zod of /api/layer/field/*: a layer's custom fields. */
import { z } from 'zod'
import { FIELD_KINDS, FIELD_NAME_MAX } from '../../../src/domain/fields'
import { MAP_IO_MSG, MAP_MSG, MAP_UI_MSG } from '../../../src/domain/messages'
import { idField, idListField, revField } from './common'

export const FIELD_OPTION_MAX_LENGTH = 50

export const fieldSave = z.object({
  id: idField().optional(),
  layer_id: idField(),
  name: z.string({ required_error: MAP_MSG.fieldNameRequired }).trim().min(1, MAP_MSG.fieldNameRequired).max(FIELD_NAME_MAX, MAP_UI_MSG.fieldNameTooLong(FIELD_NAME_MAX)),
  kind: z.enum(FIELD_KINDS, { errorMap: () => ({ message: MAP_IO_MSG.fieldKindInvalid }) }),
  options: z.array(z.string().trim().max(FIELD_OPTION_MAX_LENGTH)).optional(),
  required: z.boolean().optional(),
  rev: revField(),
})

export const fieldListFields = z.object({ layer_id: idField() })

export const fieldDeleteFields = z.object({ id: idField(), rev: revField() })

export const fieldSortFields = z.object({ layer_id: idField(), ids: idListField(1000, { min: 1, keepDuplicates: true }) })
