/**
 * /api/sign/* (issue 8, SignApi in types/signs.ts): a ticket for a check-in at the caller's
 * position (measured on the server to a marker, a task's place or nothing), saving it once with
 * photos uploaded to the group (/api/system/upload, type 'sign'), and the check-in list, each
 * record verified again as it is read. Every member may check in; the rules are in
 * services/signs.ts.
 */
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { MSG } from '../../../src/domain/messages'
import { SIGN_ADDR_MAX, SIGN_LIST_PAGE_DEFAULT, SIGN_LIST_PAGE_MAX, SIGN_PHOTOS_MAX, SIGN_REMARK_MAX } from '../../../src/domain/sign'
import { SIGN_MSG } from '../../../src/domain/signMessages'
import { charLength } from '../../../src/domain/validate'
import { mapCaller } from '../services/permissions'
import { getSign, issueTicket, listSigns, saveSign, signSecretSource, type SignEnv } from '../services/signs'
import { callDefiners, type AppDeps } from './define'
import { idField, pageIndexField } from '../schemas/common'
import { storageOf } from '../services/storage'

const coordinateField = z.number({ required_error: SIGN_MSG.positionInvalid, invalid_type_error: SIGN_MSG.positionInvalid }).finite(SIGN_MSG.positionInvalid)

const ticketFields = z.object({
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

const saveFields = z.object({
  ticket: z.string({ required_error: SIGN_MSG.ticketRequired, invalid_type_error: SIGN_MSG.ticketInvalid }).min(1, SIGN_MSG.ticketRequired).max(8000, SIGN_MSG.ticketInvalid),
  addr: textField(SIGN_ADDR_MAX, SIGN_MSG.addrTooLong(SIGN_ADDR_MAX)).default(''),
  photos: z
    .array(z.string({ invalid_type_error: SIGN_MSG.photoNotOfGroup }).max(500, SIGN_MSG.photoNotOfGroup), { invalid_type_error: MSG.badRequest })
    .max(SIGN_PHOTOS_MAX, SIGN_MSG.photosTooMany(SIGN_PHOTOS_MAX))
    .default([]),
  remark: textField(SIGN_REMARK_MAX, SIGN_MSG.remarkTooLong(SIGN_REMARK_MAX)).optional(),
})

const dayField = z.string({ invalid_type_error: SIGN_MSG.dateInvalid }).max(10, SIGN_MSG.dateInvalid).optional()

const listFields = z.object({
  scope: z.enum(['mine', 'all'], { invalid_type_error: MSG.badRequest }).default('mine'),
  user_id: idField().optional(),
  marker_id: idField().optional(),
  task_id: idField().optional(),
  date_from: dayField,
  date_to: dayField,
  pageindex: pageIndexField(),
  pagesize: z.number().int().min(1).max(SIGN_LIST_PAGE_MAX, SIGN_MSG.pageSizeTooLarge(SIGN_LIST_PAGE_MAX)).default(SIGN_LIST_PAGE_DEFAULT),
})

/** What the check-in calls of this app work with (the task routes use the same to show a task's proof). */
export function signEnvOf(app: FastifyInstance, deps: AppDeps): SignEnv {
  return { db: deps.db, storage: storageOf(app, deps), secret: signSecretSource(deps.db.kysely, deps.shareSecret, deps.clock), clock: deps.clock }
}

export function signRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { db } = deps
  const { sessionCall } = callDefiners(app, deps)
  const env = signEnvOf(app, deps)

  sessionCall('/api/sign/ticket', ticketFields, async (input, caller) => issueTicket(env, await mapCaller(db.kysely, caller), input))

  sessionCall('/api/sign/save', saveFields, async (input, caller) => saveSign(env, await mapCaller(db.kysely, caller), input))

  sessionCall('/api/sign/getlist', listFields, async (input, caller) => listSigns(env, await mapCaller(db.kysely, caller), input))

  sessionCall('/api/sign/getbyid', z.object({ id: idField(SIGN_MSG.notFound) }), async ({ id }, caller) => getSign(env, await mapCaller(db.kysely, caller), id))
}
