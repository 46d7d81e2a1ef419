/** Repository of the app_releases table: installable releases per platform (upgrade prompt). */
import type { Generated, Insertable, Selectable } from 'kysely'
import type { ReleasePlatform } from '../../../types/upgrade'
import type { Executor } from './connection'

export interface AppReleasesTable {
  id: Generated<number>
  platform: ReleasePlatform
  version_code: number
  version_name: string
  notes: Generated<string>
  download_url: string
  created_at: string
}

declare module './schema' {
  interface Tables {
    app_releases: AppReleasesTable
  }
}

export type AppReleaseRow = Selectable<AppReleasesTable>
export type NewAppRelease = Insertable<AppReleasesTable>

/** The newest release of the platform whose version code is above `versionCode`, if any. */
export function newestReleaseAbove(db: Executor, platform: ReleasePlatform, versionCode: number): Promise<AppReleaseRow | undefined> {
  return db.selectFrom('app_releases').selectAll().where('platform', '=', platform).where('version_code', '>', versionCode).orderBy('version_code', 'desc').limit(1).executeTakeFirst()
}

/** Adds a release (operators; tests). The (platform, version_code) pair is unique. */
export function insertAppRelease(db: Executor, release: NewAppRelease): Promise<AppReleaseRow> {
  return db.insertInto('app_releases').values(release).returningAll().executeTakeFirstOrThrow()
}

/** The newest release of the platform (the download page), if any. */
export function newestRelease(db: Executor, platform: ReleasePlatform): Promise<AppReleaseRow | undefined> {
  return db.selectFrom('app_releases').selectAll().where('platform', '=', platform).orderBy('version_code', 'desc').limit(1).executeTakeFirst()
}
