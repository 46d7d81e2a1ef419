/**
 * /api/system/check/upgrade (issue 8; SPEC 7 {version}): the Android and HarmonyOS builds ask, at
 * start, whether a newer release exists. Public, because anonymous users are asked too. The answer
 * is the newest release of the caller's platform above its version code, or `has_update: false`.
 */
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import type { AppVersion, UpgradeCheck } from '../../../types/upgrade'
import { noteLines, RELEASE_PLATFORMS } from '../../../src/domain/upgrade'
import { UPGRADE_MSG } from '../../../src/domain/upgradeMessages'
import { newestReleaseAbove, type AppReleaseRow } from '../db/app-releases'
import { callDefiners, type AppDeps } from './define'

/** The largest version code a 32-bit integer column holds (PostgreSQL's integer). */
const VERSION_MAX = 2_147_483_647

const checkUpgrade = z.object({
  version: z
    .number({ required_error: UPGRADE_MSG.versionRequired, invalid_type_error: UPGRADE_MSG.versionInvalid })
    .int(UPGRADE_MSG.versionInvalid)
    .min(1, UPGRADE_MSG.versionInvalid)
    .max(VERSION_MAX, UPGRADE_MSG.versionInvalid),
  platform: z.enum(RELEASE_PLATFORMS, {
    errorMap: () => ({ message: UPGRADE_MSG.platformInvalid }),
  }),
})

export function presentAppVersion(row: AppReleaseRow): AppVersion {
  return {
    platform: row.platform,
    version: Number(row.version_code),
    version_str: row.version_name,
    upgrades: noteLines(row.notes),
    download_url: row.download_url,
    released_at: row.created_at,
  }
}

export function upgradeRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { db } = deps
  const { publicCall } = callDefiners(app, deps)

  publicCall('/api/system/check/upgrade', checkUpgrade, async ({ version, platform }): Promise<UpgradeCheck> => {
    const release = await newestReleaseAbove(db.kysely, platform, version)
    return release ? { has_update: true, latest: presentAppVersion(release) } : { has_update: false, latest: null }
  })
}
