/** /api/system/*: verification codes and the public system config. */
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { ErrCode } from '../../../types/api'
import { SMS_RESEND_COOLDOWN_S } from '../../../src/domain/constants'
import { MSG } from '../../../src/domain/messages'
import { inTransaction } from '../db/connection'
import { deleteSmsCode } from '../db/sms-codes'
import { getSystemConfig } from '../db/system-config'
import { BusinessError } from '../envelope'
import { presentSystemConfig } from '../presenters/system'
import { codeRejected, issueCode, randomCode, verifyCode } from '../services/codes'
import { callDefiners, type AppDeps } from './define'
import { codeField, phoneField } from './fields'

export function systemRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { db, sms, clock } = deps
  const cooldownS = deps.codeCooldownS ?? SMS_RESEND_COOLDOWN_S
  const { publicCall } = callDefiners(app, deps)

  publicCall('/api/system/send/code', z.object({ phone: phoneField }), async ({ phone }) => {
    const code = randomCode()
    const id = await inTransaction(db, (trx) => issueCode(trx, db.dialect, phone, code, clock.now(), cooldownS))
    try {
      await sms.send(phone, code)
    } catch (err) {
      // An unsent code must not hold the phone in its cooldown.
      await deleteSmsCode(db.kysely, id)
      app.log.error({ err }, 'sms send failed')
      throw new BusinessError(ErrCode.INTERNAL, MSG.codeSendFailed)
    }
    return { sent: true, cooldown: cooldownS }
  })

  // Checks without consuming, so that login can still use the code; a wrong code counts as a try.
  publicCall('/api/system/check/code', z.object({ phone: phoneField, code: codeField }), async ({ phone, code }) => {
    const check = await inTransaction(db, (trx) => verifyCode(trx, db.dialect, phone, code, clock.now(), false))
    if (!check.ok) throw codeRejected(check.message)
    return { valid: true }
  })

  publicCall('/api/system/get/config', z.object({ no_check_permission: z.boolean().optional() }), async () =>
    presentSystemConfig(await getSystemConfig(db.kysely)),
  )
}
