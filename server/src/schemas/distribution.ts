/** Zod of /api/user/distribution/* (routes/distribution.ts); the rules are services/distribution.ts's. */
import { z } from 'zod'
import { checkDistributorCompany, checkDistributorName } from '../../../src/domain/distribution'
import { DIST_MSG } from '../../../src/domain/distributionMessages'
import { MSG } from '../../../src/domain/messages'
import { checkedString, codeField, phoneField } from './common'

export const register = z.object({
  name: checkedString(checkDistributorName, DIST_MSG.nameRequired, DIST_MSG.nameRequired),
  phone: phoneField,
  code: codeField,
  company: checkedString(checkDistributorCompany, MSG.badRequest, MSG.badRequest).optional().default(''),
})

export const view = z.object({
  code: z.string({ required_error: DIST_MSG.codeRequired, invalid_type_error: DIST_MSG.codeRequired }).trim().min(1, DIST_MSG.codeRequired).max(64, DIST_MSG.codeInvalid),
})
