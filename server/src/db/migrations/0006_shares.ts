/**
 * Share links: shares of a group (public random ids, password stored as an scrypt hash
 * with its own salt), the wrong password tries that rate limits count (in the database so that
 * they hold across requests and server processes), and server secrets generated once (the key
 * that signs password proofs when SHARE_SECRET is not set). Like map data, no foreign keys to
 * groups: account deletion removes a group's shares through services/shares.ts purgeGroupShares.
 */
import { sql, type CreateTableBuilder, type Kysely, type Migration } from 'kysely'
import type { DialectName } from '../connection'

/** An auto-incrementing integer primary key named `seq` (the public id of a share is a random string). */
function withSeq<T extends string>(table: CreateTableBuilder<T, never>, dialect: DialectName): CreateTableBuilder<T, 'seq'> {
  return dialect === 'postgres' ? table.addColumn('seq', 'serial', (c) => c.primaryKey()) : table.addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
}

export function shares(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      // seq orders shares by creation (newest first) without ties; id is what links carry.
      await withSeq(db.schema.createTable('shares'), dialect)
        .addColumn('id', 'text', (c) => c.notNull().unique())
        .addColumn('group_id', 'integer', (c) => c.notNull())
        .addColumn('op_user_id', 'integer', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        // 1 layer, 2 marker, 3 route.
        .addColumn('type', 'integer', (c) => c.notNull())
        .addColumn('show_btn', 'integer', (c) => c.notNull())
        .addColumn('need_pwd', 'integer', (c) => c.notNull())
        // hex scrypt hash and its hex salt; null without a password.
        .addColumn('pwd_hash', 'text')
        .addColumn('pwd_salt', 'text')
        // Last day the share works, 'YYYY-MM-DD' in Asia/Shanghai; null for no expiry.
        .addColumn('exp', 'text')
        // JSON array of layer or marker ids.
        .addColumn('data_ids', 'text', (c) => c.notNull())
        // JSON object (SharedMapStyle) when show_btn has flag 64, else null.
        .addColumn('style', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute()
      await db.schema.createIndex('shares_group_seq_index').on('shares').columns(['group_id', 'seq']).execute()

      await withSeq(db.schema.createTable('share_pwd_tries'), dialect)
        .addColumn('share_id', 'text', (c) => c.notNull())
        // sha256 of the client's address (the address itself is not kept).
        .addColumn('client', 'text', (c) => c.notNull())
        .addColumn('at', 'text', (c) => c.notNull())
        .execute()
      await db.schema.createIndex('share_pwd_tries_share_at_index').on('share_pwd_tries').columns(['share_id', 'at']).execute()
      await db.schema.createIndex('share_pwd_tries_at_index').on('share_pwd_tries').column('at').execute()

      await db.schema
        .createTable('server_secrets')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute()
    },

    async down(db: Kysely<any>) {
      for (const table of ['server_secrets', 'share_pwd_tries', 'shares']) {
        await sql`drop table if exists ${sql.table(table)}`.execute(db)
      }
    },
  }
}
