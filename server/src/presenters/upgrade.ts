/** App release rows -> AppVersion (types/upgrade.ts). */
import type { AppVersion } from '../../../types/upgrade'
import { noteLines } from '../../../src/domain/upgrade'
import type { AppReleaseRow } from '../db/app-releases'

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
