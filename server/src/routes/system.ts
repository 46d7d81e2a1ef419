/** /api/system/*: verification codes, the public system config and the operator's saving of it. */
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { ErrCode } from '../../../types/api'
import { SMS_RESEND_COOLDOWN_S } from '../../../src/domain/constants'
import { MSG } from '../../../src/domain/messages'
import { FILE_URL_MSG, SYSTEM_CONFIG_MSG } from '../../../src/domain/systemMessages'
import { checkBrand, checkLogo, checkServicePhone, checkServiceUrl, checkSignRadius } from '../../../src/domain/systemConfig'
import { inTransaction } from '../db/connection'
import { deleteSmsCode } from '../db/sms-codes'
import { getSystemConfig, updateSystemConfig } from '../db/system-config'
import { BusinessError, ok } from '../envelope'
import { presentSystemConfig } from '../presenters/system'
import { codeRejected, issueCode, randomCode, verifyCode } from '../services/codes'
import { OPERATOR_TOKEN_HEADER, requireOperator } from '../services/operator'
import { callDefiners, splitBody, validate, type AppDeps } from './define'
import { codeField, phoneField } from '../schemas/common'

/** A trimmed string that must pass `check`; anything but a string gets `invalid`. */
function checked(check: (value: string) => string | null, invalid: string) {
  return z
    .string({ invalid_type_error: invalid })
    .trim()
    .superRefine((value, ctx) => {
      const message = check(value)
      if (message) ctx.addIssue({ code: z.ZodIssueCode.custom, message })
    })
}

const switchField = (name: string) => z.boolean({ invalid_type_error: SYSTEM_CONFIG_MSG.switchInvalid(name) })

/** What the operator may change; every field optional, only those given change (`id` is ignored). */
const configSave = z
  .object({
    id: z.unknown().optional(),
    logo: checked(checkLogo, FILE_URL_MSG.logo).optional(),
    brand: checked(checkBrand, SYSTEM_CONFIG_MSG.brandRequired).optional(),
    show_phone: switchField('显示手机号').optional(),
    sign_radius: z
      .unknown()
      .superRefine((value, ctx) => {
        const message = checkSignRadius(value)
        if (message) ctx.addIssue({ code: z.ZodIssueCode.custom, message })
      })
      .transform((value) => value as number | undefined)
      .optional(),
    show_marker_cluster_count: switchField('显示聚合数量').optional(),
    service_phone: checked(checkServicePhone, SYSTEM_CONFIG_MSG.servicePhoneInvalid).optional(),
    service_url: checked(checkServiceUrl, SYSTEM_CONFIG_MSG.serviceUrlInvalid).optional(),
  })
  .transform(({ id: _id, ...patch }) => patch)
  .refine((patch) => Object.values(patch).some((v) => v !== undefined), SYSTEM_CONFIG_MSG.nothingToSave)

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

  // The operator's call (services/operator.ts): no session, the x-admin-token header instead. The
  // credential is checked before the fields, so that nobody else learns anything from the answers.
  app.post('/api/system/save/config', async (request) => {
    const { fields } = splitBody(request.body)
    await requireOperator(db.kysely, deps.adminToken, request.headers[OPERATOR_TOKEN_HEADER], request.ip, clock.now())
    const patch = validate(configSave, fields)
    await updateSystemConfig(db.kysely, {
      ...(patch.logo !== undefined && { logo: patch.logo }),
      ...(patch.brand !== undefined && { brand: patch.brand }),
      ...(patch.show_phone !== undefined && { show_phone: patch.show_phone ? 1 : 0 }),
      ...(patch.sign_radius !== undefined && { sign_radius: patch.sign_radius }),
      ...(patch.show_marker_cluster_count !== undefined && { show_marker_cluster_count: patch.show_marker_cluster_count ? 1 : 0 }),
      ...(patch.service_phone !== undefined && { service_phone: patch.service_phone }),
      ...(patch.service_url !== undefined && { service_url: patch.service_url }),
    })
    return ok(presentSystemConfig(await getSystemConfig(db.kysely)))
  })
}
