/** Zod of /api/user/distribution/* (routes/distribution.ts); the rules are services/distribution.ts's. */
import { z } from 'zod'
import { checkDistributorCompany, checkDistributorName } from '../../../src/domain/distribution'
import { DIST_MSG } from '../../../src/domain/distributionMessages'
import { MSG } from '../../../src/domain/messages'
import { codeField, phoneField } from './common'

/** A trimmed string that must pass `check`. */
function checked(check: (value: string) => string | null, required: string) {
  return z
    .string({ required_error: required, invalid_type_error: required })
    .trim()
    .superRefine((value, ctx) => {
      const message = check(value)
      if (message) ctx.addIssue({ code: z.ZodIssueCode.custom, message })
    })
}

export const register = z.object({
  name: checked(checkDistributorName, DIST_MSG.nameRequired),
  phone: phoneField,
  code: codeField,
  company: checked(checkDistributorCompany, MSG.badRequest).optional().default(''),
})

export const view = z.object({
  code: z.string({ required_error: DIST_MSG.codeRequired, invalid_type_error: DIST_MSG.codeRequired }).trim().min(1, DIST_MSG.codeRequired).max(64, DIST_MSG.codeInvalid),
})
