/** Input rules shared by the pages and the server. Each returns an error message or null. */
import { GROUP_NAME_MAX, NICKNAME_MAX, SMS_CODE_LENGTH } from './constants'
import { MSG } from './messages'

/** Mainland mobile numbers: 11 digits, 1[3-9] then 9 digits (DESIGN 9). */
export const PHONE_RE = /^1[3-9]\d{9}$/
export const CODE_RE = new RegExp(`^\\d{${SMS_CODE_LENGTH}}$`)

export function checkPhone(phone: string | undefined | null): string | null {
  const p = (phone ?? '').trim()
  if (!p) return MSG.phoneRequired
  if (!PHONE_RE.test(p)) return MSG.phoneInvalid
  return null
}

export function checkCode(code: string | undefined | null): string | null {
  const c = (code ?? '').trim()
  if (!c) return MSG.codeRequired
  if (!CODE_RE.test(c)) return MSG.codeInvalidFormat
  return null
}

/** Length in user-perceived characters (so that emoji count once). */
export function charLength(s: string): number {
  return Array.from(s).length
}

export function checkNickname(nickname: string | undefined | null): string | null {
  const n = (nickname ?? '').trim()
  if (!n) return MSG.nicknameRequired
  if (charLength(n) > NICKNAME_MAX) return MSG.nicknameTooLong(NICKNAME_MAX)
  return null
}

export function checkGroupName(name: string | undefined | null): string | null {
  const n = (name ?? '').trim()
  if (!n) return MSG.groupNameRequired
  if (charLength(n) > GROUP_NAME_MAX) return MSG.groupNameTooLong(GROUP_NAME_MAX)
  return null
}

/** Masks a phone number for display: 138****0000. */
export function maskPhone(phone: string): string {
  return PHONE_RE.test(phone) ? `${phone.slice(0, 3)}****${phone.slice(7)}` : phone
}
