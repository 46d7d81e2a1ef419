/** Users, groups, memberships, sessions, verification codes and the system config row. */
import { sql, type Kysely, type Migration } from 'kysely'
import { DEFAULT_SYSTEM_CONFIG } from '../../../../src/domain/constants'
import type { DialectName } from '../connection'
import { withId } from './columns'

export function foundation(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      await withId(db.schema.createTable('users'), dialect)
        .addColumn('phone', 'text', (c) => c.notNull().unique())
        .addColumn('nickname', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('avatar', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('uid', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('source', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('select_groupid', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute()

      await withId(db.schema.createTable('groups'), dialect)
        .addColumn('name', 'text', (c) => c.notNull())
        // One own group per user for now; group/create relies on it being unique.
        .addColumn('owner_id', 'integer', (c) => c.notNull().unique().references('users.id'))
        .addColumn('level', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('vip_exp', 'text')
        .addColumn('marker_limit', 'integer', (c) => c.notNull())
        .addColumn('join_limit', 'integer', (c) => c.notNull())
        .addColumn('file_size_limit', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute()

      await withId(db.schema.createTable('joins'), dialect)
        .addColumn('group_id', 'integer', (c) => c.notNull().references('groups.id'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
        .addColumn('department_id', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('is_manager', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('joins_group_user_unique', ['group_id', 'user_id'])
        .execute()
      await db.schema.createIndex('joins_user_id_index').on('joins').column('user_id').execute()

      await withId(db.schema.createTable('sessions'), dialect)
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('last_seen_at', 'text', (c) => c.notNull())
        .addColumn('revoked_at', 'text')
        .execute()
      await db.schema.createIndex('sessions_user_id_index').on('sessions').column('user_id').execute()

      await withId(db.schema.createTable('sms_codes'), dialect)
        .addColumn('phone', 'text', (c) => c.notNull())
        .addColumn('code_hash', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('wrong_tries', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('used_at', 'text')
        .execute()
      await db.schema.createIndex('sms_codes_phone_created_index').on('sms_codes').columns(['phone', 'created_at']).execute()

      await db.schema
        .createTable('system_config')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('logo', 'text', (c) => c.notNull())
        .addColumn('brand', 'text', (c) => c.notNull())
        .addColumn('show_phone', 'integer', (c) => c.notNull())
        .addColumn('sign_radius', 'integer', (c) => c.notNull())
        .addColumn('show_marker_cluster_count', 'integer', (c) => c.notNull())
        .execute()
      const d = DEFAULT_SYSTEM_CONFIG
      await db
        .insertInto('system_config')
        .values({ id: 1, logo: d.logo, brand: d.brand, show_phone: d.show_phone ? 1 : 0, sign_radius: d.sign_radius, show_marker_cluster_count: d.show_marker_cluster_count ? 1 : 0 })
        .execute()
    },

    async down(db: Kysely<any>) {
      for (const table of ['system_config', 'sms_codes', 'sessions', 'joins', 'groups', 'users']) {
        await sql`drop table if exists ${sql.table(table)}`.execute(db)
      }
    },
  }
}
