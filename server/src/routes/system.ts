/** /api/system/*: verification codes, the public system config and the operator's saving of it. */
import type { FastifyInstance } from 'fastify'
import { SMS_RESEND_COOLDOWN_S } from '../../../src/domain/constants'
import { checkCode, saveSystemConfig, sendCode, systemConfig } from '../services/system'
import { checkCodeFields, configSave, getConfigFields, sendCodeFields } from '../schemas/system'
import { callDefiners, type AppDeps } from './define'
import { DEFAULT_CODE_CAPS } from '../services/public-limits'

export function systemRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { db, sms, clock } = deps
  const cooldownS = deps.codeCooldownS ?? SMS_RESEND_COOLDOWN_S
  const { publicCall, operatorCall } = callDefiners(app, deps)

  const caps = deps.codeCaps ?? DEFAULT_CODE_CAPS
  publicCall('/api/system/send/code', sendCodeFields, async ({ phone }, { ip }) => sendCode(db, sms, app.log, phone, clock.now(), cooldownS, { ip, caps }))

  // Checks without consuming, so that login can still use the code; a wrong code counts as a try.
  publicCall('/api/system/check/code', checkCodeFields, async ({ phone, code }) => checkCode(db, phone, code, clock.now()))

  publicCall('/api/system/get/config', getConfigFields, async () => systemConfig(db.kysely))

  // The operator's call (services/operator.ts): no session, the x-admin-token header instead.
  operatorCall('/api/system/save/config', configSave, async (patch) => saveSystemConfig(db.kysely, patch))
}
