/**
 * Revisions of the entities the live map follows (types/sync.ts): 1 when created, one more on
 * every change, so that a save started from an older revision is refused instead of silently
 * overwriting a teammate's edit. Rows that exist already start at 1.
 */
import type { Kysely, Migration } from 'kysely'

const TABLES = ['layers', 'markers', 'notes', 'layer_fields', 'title_styles'] as const

export function revisions(): Migration {
  return {
    async up(db: Kysely<any>) {
      for (const table of TABLES)
        await db.schema
          .alterTable(table)
          .addColumn('rev', 'integer', (c) => c.notNull().defaultTo(1))
          .execute()
    },
    async down(db: Kysely<any>) {
      for (const table of TABLES) await db.schema.alterTable(table).dropColumn('rev').execute()
    },
  }
}
