/**
 * The id a phone gives a create it may send again (src/domain/clientId.ts) on markers, notes and
 * uploads. Unique per group and creator, so that a repeat finds the first one and one user's id can
 * never reach another user's or another group's entity; rows without one are left out of the index.
 */
import { sql, type Kysely, type Migration } from 'kysely'

const TABLES = [
  { table: 'markers', creator: 'creator_id' },
  { table: 'notes', creator: 'user_id' },
  { table: 'uploads', creator: 'user_id' },
] as const

export function clientIds(): Migration {
  return {
    async up(db: Kysely<any>) {
      for (const { table, creator } of TABLES) {
        await db.schema.alterTable(table).addColumn('client_id', 'text').execute()
        await db.schema.createIndex(`${table}_client_id_unique`).on(table).columns(['group_id', creator, 'client_id']).unique().where(sql.ref('client_id'), 'is not', null).execute()
      }
    },
    async down(db: Kysely<any>) {
      for (const { table } of TABLES) {
        await db.schema.dropIndex(`${table}_client_id_unique`).execute()
        await db.schema.alterTable(table).dropColumn('client_id').execute()
      }
    },
  }
}
