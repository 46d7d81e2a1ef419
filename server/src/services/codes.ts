/**
 * Verification-code rules: 6 random digits, valid 5 minutes, single use, stored hashed; one send
 * per phone per 60 s and SMS_DAILY_CAP per Asia/Shanghai day; dead after 5 wrong tries.
 */
import { createHash, randomInt, timingSafeEqual } from 'node:crypto'
import { ErrCode } from '../../../types/api'
import { SMS_CODE_LENGTH, SMS_CODE_TTL_MS, SMS_DAILY_CAP, SMS_MAX_WRONG_TRIES, SMS_RESEND_COOLDOWN_S } from '../../../src/domain/constants'
import { MSG } from '../../../src/domain/messages'
import { shanghaiDayStart } from '../clock'
import type { DialectName, Executor } from '../db/connection'
import { addWrongTry, consumeSmsCode, countSmsCodesSince, insertSmsCode, latestSmsCode, lockPhone } from '../db/sms-codes'
import { BusinessError } from '../envelope'

export function randomCode(): string {
  return String(randomInt(0, 10 ** SMS_CODE_LENGTH)).padStart(SMS_CODE_LENGTH, '0')
}

function hashCode(phone: string, code: string): string {
  return createHash('sha256').update(`${phone}:${code}`).digest('hex')
}

/** Stores a new code for the phone after checking the daily cap and the cooldown; returns its id. */
export async function issueCode(trx: Executor, dialect: DialectName, phone: string, code: string, now: Date, cooldownS: number = SMS_RESEND_COOLDOWN_S): Promise<number> {
  await lockPhone(trx, dialect, phone)
  const sentToday = await countSmsCodesSince(trx, phone, shanghaiDayStart(now).toISOString())
  if (sentToday >= SMS_DAILY_CAP) throw new BusinessError(ErrCode.RATE_LIMITED, MSG.codeDailyCap)
  const last = await latestSmsCode(trx, phone)
  if (last) {
    const waitMs = Date.parse(last.created_at) + cooldownS * 1000 - now.getTime()
    if (waitMs > 0) throw new BusinessError(ErrCode.RATE_LIMITED, MSG.codeSendTooFrequent(Math.ceil(waitMs / 1000)))
  }
  return insertSmsCode(trx, {
    phone,
    code_hash: hashCode(phone, code),
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + SMS_CODE_TTL_MS).toISOString(),
  })
}

export type CodeCheck = { ok: true } | { ok: false; message: string }

/**
 * Checks a code against the phone's latest one, counting a wrong try; consumes it on success when
 * asked. Returns instead of throwing so that the caller's transaction commits the wrong try.
 */
export async function verifyCode(trx: Executor, dialect: DialectName, phone: string, code: string, now: Date, consume: boolean): Promise<CodeCheck> {
  await lockPhone(trx, dialect, phone)
  const latest = await latestSmsCode(trx, phone)
  if (!latest || latest.used_at) return { ok: false, message: MSG.codeWrong }
  if (latest.wrong_tries >= SMS_MAX_WRONG_TRIES) return { ok: false, message: MSG.codeTooManyTries }
  if (Date.parse(latest.expires_at) <= now.getTime()) return { ok: false, message: MSG.codeExpired }
  if (!sameHash(latest.code_hash, hashCode(phone, code))) {
    await addWrongTry(trx, latest.id)
    return { ok: false, message: MSG.codeWrong }
  }
  if (consume && !(await consumeSmsCode(trx, latest.id, now.toISOString()))) return { ok: false, message: MSG.codeWrong }
  return { ok: true }
}

/** Every verification-code failure answers CODE_INVALID with the reason as errmsg. */
export function codeRejected(message: string): BusinessError {
  return new BusinessError(ErrCode.CODE_INVALID, message)
}

function sameHash(a: string, b: string): boolean {
  return a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b))
}
