/** Zod of /api/system/check/upgrade (routes/upgrade.ts). */
import { z } from 'zod'
import { RELEASE_PLATFORMS } from '../../../src/domain/upgrade'
import { UPGRADE_MSG } from '../../../src/domain/upgradeMessages'

/** The largest version code a 32-bit integer column holds (PostgreSQL's integer). */
const VERSION_MAX = 2_147_483_647

export const checkUpgradeFields = z.object({
  version: z
    .number({ required_error: UPGRADE_MSG.versionRequired, invalid_type_error: UPGRADE_MSG.versionInvalid })
    .int(UPGRADE_MSG.versionInvalid)
    .min(1, UPGRADE_MSG.versionInvalid)
    .max(VERSION_MAX, UPGRADE_MSG.versionInvalid),
  platform: z.enum(RELEASE_PLATFORMS, {
    errorMap: () => ({ message: UPGRADE_MSG.platformInvalid }),
  }),
})
