/**
 * /api/user/distribution/* (issue 8, DistributionApi in types/distribution.ts; SPEC 7
 * /api/user/distribution/register): both public, like /reg and /distribution/view (SPEC 2).
 * Registration validates every field before the SMS code is looked at, so bad input neither uses
 * the code nor stores anything.
 */
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { checkDistributorCompany, checkDistributorName } from '../../../src/domain/distribution'
import { DIST_MSG } from '../../../src/domain/distributionMessages'
import { MSG } from '../../../src/domain/messages'
import { registerDistributor, viewDistribution } from '../services/distribution'
import { callDefiners, type AppDeps } from './define'
import { codeField, phoneField } from '../schemas/common'

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

const register = z.object({
  name: checked(checkDistributorName, DIST_MSG.nameRequired),
  phone: phoneField,
  code: codeField,
  company: checked(checkDistributorCompany, MSG.badRequest).optional().default(''),
})

const view = z.object({
  code: z.string({ required_error: DIST_MSG.codeRequired, invalid_type_error: DIST_MSG.codeRequired }).trim().min(1, DIST_MSG.codeRequired).max(64, DIST_MSG.codeInvalid),
})

export function distributionRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { db, clock } = deps
  const { publicCall } = callDefiners(app, deps)

  publicCall('/api/user/distribution/register', register, async (input) => registerDistributor(db, input, clock.now()))

  publicCall('/api/user/distribution/view', view, async ({ code }) => viewDistribution(db.kysely, code))
}
