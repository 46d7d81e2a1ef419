/**
 * The last reported position of each user (members' last positions on the map; the
 * location polling of SPEC 4 reports into it). One row per user, replaced on every report.
 */
import type { Kysely, Migration } from 'kysely'
import type { DialectName } from '../connection'

export function userLocations(_dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('user_locations')
        .addColumn('user_id', 'integer', (c) => c.primaryKey())
        .addColumn('lng', 'double precision', (c) => c.notNull())
        .addColumn('lat', 'double precision', (c) => c.notNull())
        .addColumn('addr', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('at', 'text', (c) => c.notNull())
        .execute()
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('user_locations').execute()
    },
  }
}
