/**
 * Rate limits of calls that are not about one share or one phone (the member lookup, the operator
 * credential): one row per counted call in a named bucket, kept in the database so that several
 * server processes count together, as share_pwd_tries does for share passwords. And an index on
 * users.uid: managers look people up by their account number (/api/user/get/overview/phoneuid).
 */
import { sql, type Kysely, type Migration } from 'kysely'
import type { DialectName } from '../connection'
import { withId } from './columns'

export function lookupRateHits(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      await withId(db.schema.createTable('rate_hits'), dialect)
        // What is limited and for whom, e.g. 'user-lookup:<user id>'; never a raw address (hashed).
        .addColumn('bucket', 'text', (c) => c.notNull())
        .addColumn('at', 'text', (c) => c.notNull())
        .execute()
      await db.schema.createIndex('rate_hits_bucket_at_index').on('rate_hits').columns(['bucket', 'at']).execute()
      await db.schema.createIndex('rate_hits_at_index').on('rate_hits').column('at').execute()
      await db.schema.createIndex('users_uid_index').on('users').column('uid').execute()
    },

    async down(db: Kysely<any>) {
      await sql`drop index if exists users_uid_index`.execute(db)
      await sql`drop table if exists rate_hits`.execute(db)
    },
  }
}
