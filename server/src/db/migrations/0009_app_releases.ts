/**
 * App releases for the upgrade prompt: one row per installable release of the Android or
 * HarmonyOS app. /api/system/check/upgrade answers with the newest release of the client's platform
 * above the client's version code. Operators add releases with an INSERT (server/src/db/app-releases.ts
 * insertAppRelease does the same); nothing seeds them.
 */
import type { Kysely, Migration } from 'kysely'
import type { DialectName } from '../connection'
import { withId } from './columns'

export function appReleases(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      await withId(db.schema.createTable('app_releases'), dialect)
        // 'android' or 'harmony'.
        .addColumn('platform', 'text', (c) => c.notNull())
        // The integer version code the client compares with (SPEC 9: the client's is 70).
        .addColumn('version_code', 'integer', (c) => c.notNull())
        // Shown to people, e.g. '1.0.40'.
        .addColumn('version_name', 'text', (c) => c.notNull())
        // Update notes, one per line.
        .addColumn('notes', 'text', (c) => c.notNull().defaultTo(''))
        // http(s) address of the installer.
        .addColumn('download_url', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('app_releases_platform_version_unique', ['platform', 'version_code'])
        .execute()
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('app_releases').execute()
    },
  }
}
