/**
 * Distribution (types/distribution.ts): promoters who registered on /reg with a confirmed
 * phone, each with a random promotion code. Who they invited is not stored here: /api/user/login
 * records the invitation's channel 'dist_<code>' as users.source on the first sign-in, and the
 * promotion page counts those users (hence the index on users.source).
 */
import { sql, type Kysely, type Migration } from 'kysely'
import type { DialectName } from '../connection'
import { withId } from './columns'

export function distribution(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      await withId(db.schema.createTable('distributors'), dialect)
        .addColumn('name', 'text', (c) => c.notNull())
        // One promoter per phone: registering again answers the existing code.
        .addColumn('phone', 'text', (c) => c.notNull().unique())
        .addColumn('company', 'text', (c) => c.notNull().defaultTo(''))
        // DISTRIBUTION_CODE_LENGTH characters of the invite alphabet (src/domain/distribution.ts).
        .addColumn('code', 'text', (c) => c.notNull().unique())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute()
      await db.schema.createIndex('users_source_index').on('users').column('source').execute()
    },

    async down(db: Kysely<any>) {
      await sql`drop index if exists users_source_index`.execute(db)
      await sql`drop table if exists distributors`.execute(db)
    },
  }
}
