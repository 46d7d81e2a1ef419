/**
 * /api/system/check/upgrade (routes/upgrade.ts): the newest release of the caller's platform above
 * its version code, or `has_update: false`.
 */
import type { ReleasePlatform, UpgradeCheck } from '../../../types/upgrade'
import type { Executor } from '../db/connection'
import { newestReleaseAbove } from '../db/app-releases'
import { presentAppVersion } from '../presenters/upgrade'

export async function checkUpgrade(db: Executor, platform: ReleasePlatform, version: number): Promise<UpgradeCheck> {
  const release = await newestReleaseAbove(db, platform, version)
  return release ? { has_update: true, latest: presentAppVersion(release) } : { has_update: false, latest: null }
}
