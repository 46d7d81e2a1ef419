/**
 * /api/user/distribution/* (DistributionApi in types/distribution.ts; SPEC 7
 * /api/user/distribution/register): both public, like /reg and /distribution/view (SPEC 2).
 * Registration validates every field before the SMS code is looked at, so bad input neither uses
 * the code nor stores anything.
 */
import type { FastifyInstance } from 'fastify'
import { registerDistributor, viewDistribution } from '../services/distribution'
import { callDefiners, type AppDeps } from './define'
import { register, view } from '../schemas/distribution'

export function distributionRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { db, clock } = deps
  const { publicCall } = callDefiners(app, deps)

  publicCall('/api/user/distribution/register', register, async (input) => registerDistributor(db, input, clock.now()))

  publicCall('/api/user/distribution/view', view, async ({ code }) => viewDistribution(db.kysely, code))
}
