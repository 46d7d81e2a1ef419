/** Saved routes (issue 8). Filled in by the routes work. */
import type { Kysely, Migration } from 'kysely'
import type { DialectName } from '../connection'

export function savedRoutes(_dialect: DialectName): Migration {
  return {
    async up(_db: Kysely<any>) {},
    async down(_db: Kysely<any>) {},
  }
}
