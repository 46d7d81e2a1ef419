/**
 * Saved routes: a group's routes through ordered stops with their measured legs. Stops
 * and legs are JSON arrays kept with the route (a route is read and written whole). Like map data,
 * no foreign keys: account deletion removes a group's routes through services/routes.ts
 * purgeGroupRoutes.
 */
import { sql, type Kysely, type Migration } from 'kysely'
import type { DialectName } from '../connection'
import { withId } from './columns'

export function savedRoutes(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      await withId(db.schema.createTable('saved_routes'), dialect)
        .addColumn('group_id', 'integer', (c) => c.notNull())
        .addColumn('creator_id', 'integer', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        // 'driving' or 'walking'.
        .addColumn('mode', 'text', (c) => c.notNull())
        // JSON array of RouteStop.
        .addColumn('stops', 'text', (c) => c.notNull())
        // JSON array of RouteLeg (one fewer than the stops).
        .addColumn('legs', 'text', (c) => c.notNull())
        // Metres and seconds over all legs (the list shows them without reading the legs).
        .addColumn('distance', 'integer', (c) => c.notNull())
        .addColumn('duration', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute()
      await db.schema.createIndex('saved_routes_group_creator_index').on('saved_routes').columns(['group_id', 'creator_id']).execute()
    },

    async down(db: Kysely<any>) {
      await sql`drop table if exists saved_routes`.execute(db)
    },
  }
}
