/**
 * The group's change log for live sync (types/sync.ts): one row per change of a layer, marker, note,
 * custom field or title style, numbered by a per-group sequence that sync_seqs hands out under a
 * row lock, so that on PostgreSQL the numbers commit in order and a reader never skips one.
 */
import { sql, type Kysely, type Migration } from 'kysely'

export function syncChanges(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('sync_seqs')
        .addColumn('group_id', 'integer', (c) => c.primaryKey())
        // The last seq handed out.
        .addColumn('seq', 'integer', (c) => c.notNull().defaultTo(0))
        // Entries up to this seq have been pruned: a reader behind it must reload.
        .addColumn('pruned_seq', 'integer', (c) => c.notNull().defaultTo(0))
        .execute()
      await db.schema
        .createTable('sync_changes')
        .addColumn('group_id', 'integer', (c) => c.notNull())
        .addColumn('seq', 'integer', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('entity_id', 'integer', (c) => c.notNull())
        .addColumn('op', 'text', (c) => c.notNull())
        .addColumn('rev', 'integer', (c) => c.notNull())
        .addColumn('layer_id', 'integer', (c) => c.notNull())
        .addColumn('marker_id', 'integer')
        // A change that concerns one member (a permission of theirs): listed to them even when they can no longer read the layer.
        .addColumn('user_id', 'integer')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('sync_changes_pk', ['group_id', 'seq'])
        .execute()
    },
    async down(db: Kysely<any>) {
      await sql`drop table if exists sync_changes`.execute(db)
      await sql`drop table if exists sync_seqs`.execute(db)
    },
  }
}
