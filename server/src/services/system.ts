/** Verification codes sent by SMS, the public system config and the operator's saving of it. */
import type { FastifyBaseLogger } from 'fastify'
import { ErrCode } from '../../../types/api'
import type { SystemConfig } from '../../../types/entities'
import { MSG } from '../../../src/domain/messages'
import { inTransaction, type Database, type Executor } from '../db/connection'
import { deleteSmsCode } from '../db/sms-codes'
import { getSystemConfig, updateSystemConfig } from '../db/system-config'
import { BusinessError } from '../envelope'
import { presentSystemConfig } from '../presenters/system'
import { codeRejected, issueCode, randomCode, verifyCode } from './codes'
import { SmsRefusal, type SmsSender } from './sms'
import { codeSendSlots, type CodeCaps } from './public-limits'
import { requireRateSlots } from './rate-limit'
import { RATE_MSG } from '../../../src/domain/consentMessages'

/**
 * Sends a code: the client address's and the server's hourly caps first (SMS costs money and can be
 * pumped from many phones), then the phone's own cooldown and daily cap (codes.ts).
 */
export async function sendCode(
  db: Database,
  sms: SmsSender,
  log: FastifyBaseLogger,
  phone: string,
  now: Date,
  cooldownS: number,
  { ip, caps }: { ip: string; caps: CodeCaps },
): Promise<{ sent: true; cooldown: number }> {
  const [perAddress, all] = codeSendSlots(ip, caps)
  await requireRateSlots(db.kysely, [perAddress], RATE_MSG.codeAddressCap, now)
  await requireRateSlots(db.kysely, [all], RATE_MSG.codeGlobalCap, now)
  const code = randomCode()
  const id = await inTransaction(db, (trx) => issueCode(trx, db.dialect, phone, code, now, cooldownS))
  try {
    const receipt = await sms.send(phone, code)
    // The provider's request id traces a message that did not arrive; never the code.
    if (receipt) log.info({ sms: receipt }, 'sms sent')
  } catch (err) {
    // An unsent code must not hold the phone in its cooldown.
    await deleteSmsCode(db.kysely, id)
    if (err instanceof SmsRefusal) {
      log.warn({ sms: { provider: sms.provider, code: err.providerCode, requestId: err.requestId } }, 'sms refused')
      throw new BusinessError(err.errcode, err.message)
    }
    log.error({ err }, 'sms send failed')
    throw new BusinessError(ErrCode.INTERNAL, MSG.codeSendFailed)
  }
  return { sent: true, cooldown: cooldownS }
}

// Checks without consuming, so that login can still use the code; a wrong code counts as a try.
export async function checkCode(db: Database, phone: string, code: string, now: Date): Promise<{ valid: true }> {
  const check = await inTransaction(db, (trx) => verifyCode(trx, db.dialect, phone, code, now, false))
  if (!check.ok) throw codeRejected(check.message)
  return { valid: true }
}

export async function systemConfig(db: Executor): Promise<SystemConfig> {
  return presentSystemConfig(await getSystemConfig(db))
}

export interface SystemConfigPatch {
  logo?: string
  brand?: string
  show_phone?: boolean
  sign_radius?: number
  show_marker_cluster_count?: boolean
  service_phone?: string
  service_url?: string
}

/** Only the fields given change. */
export async function saveSystemConfig(db: Executor, patch: SystemConfigPatch): Promise<SystemConfig> {
  await updateSystemConfig(db, {
    ...(patch.logo !== undefined && { logo: patch.logo }),
    ...(patch.brand !== undefined && { brand: patch.brand }),
    ...(patch.show_phone !== undefined && { show_phone: patch.show_phone ? 1 : 0 }),
    ...(patch.sign_radius !== undefined && { sign_radius: patch.sign_radius }),
    ...(patch.show_marker_cluster_count !== undefined && { show_marker_cluster_count: patch.show_marker_cluster_count ? 1 : 0 }),
    ...(patch.service_phone !== undefined && { service_phone: patch.service_phone }),
    ...(patch.service_url !== undefined && { service_url: patch.service_url }),
  })
  return presentSystemConfig(await getSystemConfig(db))
}
