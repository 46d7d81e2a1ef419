/** App releases for the upgrade prompt (issue 8). Filled in by the upgrade work. */
import type { Kysely, Migration } from 'kysely'
import type { DialectName } from '../connection'

export function appReleases(_dialect: DialectName): Migration {
  return {
    async up(_db: Kysely<any>) {},
    async down(_db: Kysely<any>) {},
  }
}
