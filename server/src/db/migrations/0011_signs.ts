/**
 * Check-ins (types/signs.ts): one row per saved check-in with the target it was measured
 * to, the server-issued code painted on the photos, the SHA-256 of every photo file and an HMAC
 * signature over the record. `nonce` makes a ticket save once. Like map data, no foreign keys:
 * account deletion removes a group's rows through its service.
 */
import { sql, type Kysely, type Migration } from 'kysely'
import type { DialectName } from '../connection'
import { withId } from './columns'

export function signs(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      await withId(db.schema.createTable('signs'), dialect)
        .addColumn('group_id', 'integer', (c) => c.notNull())
        .addColumn('user_id', 'integer', (c) => c.notNull())
        // The ticket's nonce: a ticket saves once.
        .addColumn('nonce', 'text', (c) => c.notNull().unique())
        // 8 upper-case hex characters, painted on the photos.
        .addColumn('code', 'text', (c) => c.notNull())
        // 'marker' | 'task' | 'free'
        .addColumn('target_kind', 'text', (c) => c.notNull())
        .addColumn('marker_id', 'integer')
        .addColumn('task_id', 'integer')
        .addColumn('target_name', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('target_lng', 'double precision')
        .addColumn('target_lat', 'double precision')
        .addColumn('lng', 'double precision', (c) => c.notNull())
        .addColumn('lat', 'double precision', (c) => c.notNull())
        .addColumn('addr', 'text', (c) => c.notNull().defaultTo(''))
        // Metres to the target (null when free) and the radius in force when the ticket was issued.
        .addColumn('distance', 'integer')
        .addColumn('radius', 'integer', (c) => c.notNull())
        // JSON array of {url, sha256}.
        .addColumn('photos', 'text', (c) => c.notNull())
        .addColumn('remark', 'text', (c) => c.notNull().defaultTo(''))
        // The check-in's time (the ticket's, ISO 8601) and when it was saved.
        .addColumn('time', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        // HMAC-SHA256 (hex) over the record's fields and photo hashes.
        .addColumn('signature', 'text', (c) => c.notNull())
        .execute()
      await db.schema.createIndex('signs_group_time_index').on('signs').columns(['group_id', 'time']).execute()
      await db.schema.createIndex('signs_group_user_index').on('signs').columns(['group_id', 'user_id']).execute()
      await db.schema.createIndex('signs_task_index').on('signs').columns(['task_id']).execute()
    },

    async down(db: Kysely<any>) {
      await sql`drop table if exists signs`.execute(db)
    },
  }
}
