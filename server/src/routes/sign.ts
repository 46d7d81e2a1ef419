/**
 * /api/sign/* (SignApi in types/signs.ts): a ticket for a check-in at the caller's
 * position (measured on the server to a marker, a task's place or nothing), saving it once with
 * photos uploaded to the group (/api/system/upload, type 'sign'), and the check-in list, each
 * record verified again as it is read. Every member may check in; the rules are in
 * services/signs.ts.
 */
import type { FastifyInstance } from 'fastify'
import { getSign, issueTicket, listSigns, saveSign, signEnvOf } from '../services/signs'
import { callDefiners, type AppDeps } from './define'
import { idFields, listFields, saveFields, ticketFields } from '../schemas/sign'
import { storageOf } from '../services/storage'

export function signRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { sessionCall } = callDefiners(app, deps)
  const env = signEnvOf(deps, storageOf(app, deps))

  sessionCall('/api/sign/ticket', ticketFields, async (input, caller) => issueTicket(env, caller, input))

  sessionCall('/api/sign/save', saveFields, async (input, caller) => saveSign(env, caller, input))

  sessionCall('/api/sign/getlist', listFields, async (input, caller) => listSigns(env, caller, input))

  sessionCall('/api/sign/getbyid', idFields, async ({ id }, caller) => getSign(env, caller, id))
}
