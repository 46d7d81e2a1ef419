/** Zod of /api/user/*: sign-in, profile, pre-registration and looking a person up. */
import { z } from 'zod'
import { MSG, TEAM_MSG } from '../../../src/domain/messages'
import { NICKNAME_MAX } from '../../../src/domain/constants'
import { LOOKUP_MSG } from '../../../src/domain/systemMessages'
import { INVITE_MSG } from '../../../src/domain/consentMessages'
import { charLength, checkPhone } from '../../../src/domain/validate'
import type { PersonKey } from '../services/lookup'
import { avatarField, channelField, codeField, idField, idOrZeroField, nicknameField, phoneField } from './common'

/** The name a manager gives a person they pre-register. */
const memberNameField = z
  .string({ required_error: TEAM_MSG.memberNameRequired, invalid_type_error: TEAM_MSG.memberNameRequired })
  .trim()
  .min(1, TEAM_MSG.memberNameRequired)
  .refine((name) => charLength(name) <= NICKNAME_MAX, MSG.nicknameTooLong(NICKNAME_MAX))

/** One of phone (a mainland mobile number) or uid (the account number people see). */
export const personKey = z
  .object({
    phone: z.string({ invalid_type_error: MSG.phoneInvalid }).trim().optional(),
    uid: z.string({ invalid_type_error: LOOKUP_MSG.uidInvalid }).trim().optional(),
  })
  .superRefine(({ phone, uid }, ctx) => {
    const fail = (message: string) => ctx.addIssue({ code: z.ZodIssueCode.custom, message })
    if (phone && uid) return fail(LOOKUP_MSG.keyBoth)
    if (!phone && !uid) return fail(LOOKUP_MSG.keyRequired)
    if (phone) {
      const problem = checkPhone(phone)
      if (problem) fail(problem)
    } else if (!/^\d{1,20}$/.test(uid ?? '')) fail(LOOKUP_MSG.uidInvalid)
  })
  .transform(({ phone, uid }): PersonKey => (phone ? { phone } : { uid: uid ?? '' }))

export const preRegisterFields = z.object({
  nickname: memberNameField,
  phone: phoneField,
  department_id: idOrZeroField().default(0),
})

export const loginFields = z.object({ phone: phoneField, code: codeField, channel: channelField.optional() })

export const initFields = z.object({ nickname: nicknameField, avatar: avatarField.optional() })

export const profileFields = z.object({ nickname: nicknameField.optional(), avatar: avatarField.optional() })

export const phoneFields = z.object({ phone: phoneField })

export const preDeleteFields = z.object({ id: idField(TEAM_MSG.pendingNotFound) })

/** An invitation of the caller's phone, by id. */
export const idFields = z.object({ id: idField(INVITE_MSG.notFound) })

/** Whether the caller's position goes to their team (settings). */
export const shareLocationFields = z.object({ share: z.boolean({ required_error: MSG.badRequest, invalid_type_error: MSG.badRequest }) })
