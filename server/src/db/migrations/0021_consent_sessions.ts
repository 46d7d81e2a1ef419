/**
 * Consent and sessions: who invited a pending person (the invitation names them), which device a
 * session signed in from (the settings list of signed-in devices), whether a user shares their
 * position with their team, and the group a position was reported for (served only to that group).
 */
import { sql, type Kysely, type Migration } from 'kysely'

export function consentSessions(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('pre_registrations')
        .addColumn('invited_by', 'integer', (c) => c.notNull().defaultTo(0))
        .execute()
      await db.schema
        .alterTable('sessions')
        .addColumn('device', 'text', (c) => c.notNull().defaultTo(''))
        .execute()
      await db.schema
        .alterTable('sessions')
        .addColumn('os', 'text', (c) => c.notNull().defaultTo(''))
        .execute()
      await db.schema
        .alterTable('users')
        .addColumn('share_location', 'integer', (c) => c.notNull().defaultTo(1))
        .execute()
      await db.schema
        .alterTable('user_locations')
        .addColumn('group_id', 'integer', (c) => c.notNull().defaultTo(0))
        .execute()
      // A position reported before this column existed names no group: nobody is served it.
      await sql`delete from user_locations`.execute(db)
    },
    async down(db: Kysely<any>) {
      await db.schema.alterTable('user_locations').dropColumn('group_id').execute()
      await db.schema.alterTable('users').dropColumn('share_location').execute()
      await db.schema.alterTable('sessions').dropColumn('os').execute()
      await db.schema.alterTable('sessions').dropColumn('device').execute()
      await db.schema.alterTable('pre_registrations').dropColumn('invited_by').execute()
    },
  }
}
