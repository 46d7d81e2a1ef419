/**
 * /api/system/check/upgrade (SPEC 7 {version}): the Android and HarmonyOS builds ask, at
 * start, whether a newer release exists. Public, because anonymous users are asked too. The answer
 * is the newest release of the caller's platform above its version code, or `has_update: false`.
 */
import type { FastifyInstance } from 'fastify'
import type { UpgradeCheck } from '../../../types/upgrade'
import { checkUpgradeFields } from '../schemas/upgrade'
import { checkUpgrade } from '../services/upgrade'
import { callDefiners, type AppDeps } from './define'

export function upgradeRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { db } = deps
  const { publicCall } = callDefiners(app, deps)

  publicCall('/api/system/check/upgrade', checkUpgradeFields, async ({ version, platform }): Promise<UpgradeCheck> => checkUpgrade(db.kysely, platform, version))
}
