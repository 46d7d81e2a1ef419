/** Zod of /api/sign/* (routes/sign.ts); the rules are services/signs.ts's. */
import { z } from 'zod'
import { MSG } from '../../../src/domain/messages'
import { SIGN_ADDR_MAX, SIGN_LIST_PAGE_DEFAULT, SIGN_LIST_PAGE_MAX, SIGN_PHOTOS_MAX, SIGN_REMARK_MAX } from '../../../src/domain/sign'
import { SIGN_MSG } from '../../../src/domain/signMessages'
import { charLength } from '../../../src/domain/validate'
import { idField, pageIndexField } from './common'

const coordinateField = z.number({ required_error: SIGN_MSG.positionInvalid, invalid_type_error: SIGN_MSG.positionInvalid }).finite(SIGN_MSG.positionInvalid)

export const ticketFields = z.object({
  lng: coordinateField,
  lat: coordinateField,
  marker_id: idField(SIGN_MSG.markerNotFound).optional(),
  task_id: idField(SIGN_MSG.taskNotFound).optional(),
})

/** Trimmed text of at most `max` characters. */
function textField(max: number, tooLong: string) {
  return z
    .string({ invalid_type_error: MSG.badRequest })
    .max(max * 4, tooLong)
    .transform((s) => s.trim())
    .refine((s) => charLength(s) <= max, tooLong)
}

export const saveFields = z.object({
  ticket: z.string({ required_error: SIGN_MSG.ticketRequired, invalid_type_error: SIGN_MSG.ticketInvalid }).min(1, SIGN_MSG.ticketRequired).max(8000, SIGN_MSG.ticketInvalid),
  addr: textField(SIGN_ADDR_MAX, SIGN_MSG.addrTooLong(SIGN_ADDR_MAX)).default(''),
  photos: z
    .array(z.string({ invalid_type_error: SIGN_MSG.photoNotOfGroup }).max(500, SIGN_MSG.photoNotOfGroup), { invalid_type_error: MSG.badRequest })
    .max(SIGN_PHOTOS_MAX, SIGN_MSG.photosTooMany(SIGN_PHOTOS_MAX))
    .default([]),
  remark: textField(SIGN_REMARK_MAX, SIGN_MSG.remarkTooLong(SIGN_REMARK_MAX)).optional(),
})

const dayField = z.string({ invalid_type_error: SIGN_MSG.dateInvalid }).max(10, SIGN_MSG.dateInvalid).optional()

export const listFields = z.object({
  scope: z.enum(['mine', 'all'], { invalid_type_error: MSG.badRequest }).default('mine'),
  user_id: idField().optional(),
  marker_id: idField().optional(),
  task_id: idField().optional(),
  date_from: dayField,
  date_to: dayField,
  pageindex: pageIndexField(),
  pagesize: z.number().int().min(1).max(SIGN_LIST_PAGE_MAX, SIGN_MSG.pageSizeTooLarge(SIGN_LIST_PAGE_MAX)).default(SIGN_LIST_PAGE_DEFAULT),
})

export const idFields = z.object({ id: idField(SIGN_MSG.notFound) })
