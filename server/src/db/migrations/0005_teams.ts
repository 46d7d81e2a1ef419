/**
 * Teams: nested departments with managers and per-layer grants, roles with assigned
 * users and catalogue ids, people pre-registered by phone who have not signed in yet, and the
 * group's invite code. Like map data, no foreign keys to groups: account deletion removes these
 * rows through services/teams.ts purgeGroupTeamData.
 */
import { sql, type Kysely, type Migration } from 'kysely'
import type { DialectName } from '../connection'
import { withId } from './columns'

export function teams(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      await withId(db.schema.createTable('departments'), dialect)
        .addColumn('group_id', 'integer', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        // 0 at the top.
        .addColumn('parent_id', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute()
      await db.schema.createIndex('departments_group_index').on('departments').column('group_id').execute()

      await db.schema
        .createTable('department_managers')
        .addColumn('department_id', 'integer', (c) => c.notNull())
        .addColumn('user_id', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('department_managers_pk', ['department_id', 'user_id'])
        .execute()
      await db.schema.createIndex('department_managers_user_index').on('department_managers').column('user_id').execute()

      await withId(db.schema.createTable('department_layer_auth'), dialect)
        .addColumn('group_id', 'integer', (c) => c.notNull())
        .addColumn('department_id', 'integer', (c) => c.notNull())
        .addColumn('layer_id', 'integer', (c) => c.notNull())
        // JSON array of permission ids (LAYER_PERMISSIONS).
        .addColumn('opts', 'text', (c) => c.notNull())
        .addUniqueConstraint('department_layer_auth_department_layer_unique', ['department_id', 'layer_id'])
        .execute()
      await db.schema.createIndex('department_layer_auth_group_index').on('department_layer_auth').column('group_id').execute()

      await withId(db.schema.createTable('roles'), dialect)
        .addColumn('group_id', 'integer', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute()
      await db.schema.createIndex('roles_group_index').on('roles').column('group_id').execute()

      await db.schema
        .createTable('role_users')
        .addColumn('role_id', 'integer', (c) => c.notNull())
        .addColumn('user_id', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('role_users_pk', ['role_id', 'user_id'])
        .execute()
      await db.schema.createIndex('role_users_user_index').on('role_users').column('user_id').execute()

      await db.schema
        .createTable('role_modules')
        .addColumn('role_id', 'integer', (c) => c.notNull())
        .addColumn('module_id', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('role_modules_pk', ['role_id', 'module_id'])
        .execute()

      await withId(db.schema.createTable('pre_registrations'), dialect)
        .addColumn('group_id', 'integer', (c) => c.notNull())
        .addColumn('phone', 'text', (c) => c.notNull())
        .addColumn('nickname', 'text', (c) => c.notNull())
        .addColumn('department_id', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('pre_registrations_group_phone_unique', ['group_id', 'phone'])
        .execute()
      await db.schema.createIndex('pre_registrations_phone_index').on('pre_registrations').column('phone').execute()

      // A column added to an existing table cannot carry UNIQUE in SQLite: a unique index does
      // the same on both (several NULLs allowed).
      await db.schema.alterTable('groups').addColumn('invite_code', 'text').execute()
      await db.schema.createIndex('groups_invite_code_unique').on('groups').column('invite_code').unique().execute()
    },

    async down(db: Kysely<any>) {
      await db.schema.dropIndex('groups_invite_code_unique').ifExists().execute()
      await db.schema.alterTable('groups').dropColumn('invite_code').execute()
      for (const table of ['pre_registrations', 'role_modules', 'role_users', 'roles', 'department_layer_auth', 'department_managers', 'departments']) {
        await sql`drop table if exists ${sql.table(table)}`.execute(db)
      }
    },
  }
}
