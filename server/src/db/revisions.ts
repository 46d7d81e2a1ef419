/**
 * Revisions of the map's entities (types/sync.ts): every change to a row bumps its rev in the same
 * UPDATE, and a save that names the rev it started from reads the row under a lock first, so that
 * two saves from the same revision cannot both pass the check.
 */
import { PostgresAdapter, sql, type RawBuilder } from 'kysely'
import type { Executor } from './connection'

/** The rev column one higher. */
export function bumpRev(): RawBuilder<number> {
  return sql<number>`rev + 1`
}

export type RevTable = 'layers' | 'markers' | 'notes' | 'layer_fields'

/**
 * The stored rev of a row of the group and whether it is deleted, read under a row lock on
 * PostgreSQL (held until the transaction ends; SQLite runs one writer at a time). Undefined for an
 * unknown id or another group's.
 */
export async function lockedRev(trx: Executor, table: RevTable, groupId: number, id: number): Promise<{ rev: number; deleted: boolean } | undefined> {
  const lock = trx.getExecutor().adapter instanceof PostgresAdapter ? sql` for update` : sql``
  const { rows } = await sql<{ rev: number; deleted_at: string | null }>`select rev, deleted_at from ${sql.table(table)} where id = ${id} and group_id = ${groupId}${lock}`.execute(trx)
  const row = rows[0]
  return row ? { rev: Number(row.rev), deleted: row.deleted_at !== null } : undefined
}
