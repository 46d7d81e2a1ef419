/**
 * Repository of the live-sync change log (migration 0018): sync_seqs hands out each group's
 * sequence numbers, sync_changes holds the entries. SQL only; the rules are in services/sync.ts.
 */
import { PostgresAdapter, sql, type Selectable } from 'kysely'
import type { PoolClient } from 'pg'
import type { SyncKind } from '../../../types/sync'
import type { Executor } from './connection'
import { preparedQuery } from './prepared'

export interface SyncSeqsTable {
  group_id: number
  seq: number
  pruned_seq: number
}

export interface SyncChangesTable {
  group_id: number
  seq: number
  kind: SyncKind
  entity_id: number
  op: 'upsert' | 'delete'
  rev: number
  layer_id: number
  marker_id: number | null
  /** A change about one member's own access: listed to them whatever they can read now. */
  user_id: number | null
  created_at: string
}

declare module './schema' {
  interface Tables {
    sync_seqs: SyncSeqsTable
    sync_changes: SyncChangesTable
  }
}

export type SyncChangeRow = Selectable<SyncChangesTable>
export type NewSyncChange = Omit<SyncChangeRow, 'group_id' | 'seq' | 'created_at'>

function isPostgres(db: Executor): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter
}

/**
 * Takes `n` sequence numbers of the group and answers the last one. The row stays locked until the
 * transaction ends (PostgreSQL), so that the group's numbers commit in their order.
 */
export async function takeSeqs(trx: Executor, groupId: number, n: number): Promise<number> {
  return Number((await nextSeqs(trx, groupId, n)).rows[0].seq)
}

const nextSeqs = preparedQuery((db, groupId: number, n: number) =>
  db
    .insertInto('sync_seqs')
    .values({ group_id: groupId, seq: n, pruned_seq: 0 })
    .onConflict((oc) => oc.column('group_id').doUpdateSet((eb) => ({ seq: eb('sync_seqs.seq', '+', n) })))
    .returning('seq'),
)

// Both SQLite (32766) and PostgreSQL (65535) bind-parameter limits leave room for many more rows of 10 columns;
// smaller statements let other calls in sooner during a large import's transaction (as markers.ts's chunks).
const INSERT_CHUNK = 500

export async function insertChanges(trx: Executor, groupId: number, firstSeq: number, changes: NewSyncChange[], at: string): Promise<void> {
  // A save's one entry: its statement prepared once.
  if (changes.length === 1) {
    await insertChange(trx, { ...changes[0], group_id: groupId, seq: firstSeq, created_at: at })
    return
  }
  for (let start = 0; start < changes.length; start += INSERT_CHUNK) {
    const rows = changes.slice(start, start + INSERT_CHUNK).map((c, i) => ({ ...c, group_id: groupId, seq: firstSeq + start + i, created_at: at }))
    await trx.insertInto('sync_changes').values(rows).execute()
  }
}

const insertChange = preparedQuery((db, row: NewSyncChange & { group_id: number; seq: number; created_at: string }) => db.insertInto('sync_changes').values(row))

/** The group's last seq and how far the log has been pruned (0 and 0 before its first change). */
export async function seqState(db: Executor, groupId: number): Promise<{ seq: number; pruned_seq: number }> {
  const row = await db.selectFrom('sync_seqs').select(['seq', 'pruned_seq']).where('group_id', '=', groupId).executeTakeFirst()
  return { seq: Number(row?.seq ?? 0), pruned_seq: Number(row?.pruned_seq ?? 0) }
}

/** Entries after `since` up to `through`, in seq order, at most `limit`. */
export function changesAfter(db: Executor, groupId: number, since: number, through: number, limit: number): Promise<SyncChangeRow[]> {
  return db.selectFrom('sync_changes').selectAll().where('group_id', '=', groupId).where('seq', '>', since).where('seq', '<=', through).orderBy('seq').limit(limit).execute()
}

/** Drops the group's entries up to `seq` and remembers that readers behind it must reload. */
export async function pruneChanges(trx: Executor, groupId: number, seq: number): Promise<void> {
  if (seq <= 0) return
  await trx.deleteFrom('sync_changes').where('group_id', '=', groupId).where('seq', '<=', seq).execute()
  await trx
    .updateTable('sync_seqs')
    .set((eb) => ({ pruned_seq: sql<number>`case when ${eb.ref('pruned_seq')} > ${seq} then ${eb.ref('pruned_seq')} else ${seq} end` }))
    .where('group_id', '=', groupId)
    .execute()
}

/** The last seq of the group's entries older than `before` (0 when none). */
export async function lastSeqBefore(db: Executor, groupId: number, before: string): Promise<number> {
  const row = await db
    .selectFrom('sync_changes')
    .select((eb) => eb.fn.max('seq').as('seq'))
    .where('group_id', '=', groupId)
    .where('created_at', '<', before)
    .executeTakeFirst()
  return Number(row?.seq ?? 0)
}

export const SYNC_CHANNEL = 'teammap_sync'

/**
 * Notifies every server listening on the database (PostgreSQL only): delivered when the transaction
 * commits, and not at all when it rolls back. The payload gains the schema, which tells test
 * schemas sharing one database apart.
 */
export async function notifyChannel(db: Executor, payload: object): Promise<void> {
  if (!isPostgres(db)) return
  await sql`select pg_notify(${SYNC_CHANNEL}, (${JSON.stringify(payload)}::jsonb || jsonb_build_object('schema', current_schema()))::text)`.execute(db)
}

/**
 * Listens to the sync channel on `client`, a PostgreSQL connection kept for it (live sync across
 * servers), handing each notification's payload to `heard`. Answers the connection's schema, which
 * every payload names (notifyChannel): test schemas share one database.
 */
export async function listenToChannel(client: PoolClient, heard: (payload: string) => void): Promise<string | undefined> {
  client.on('notification', (n) => {
    if (n.channel === SYNC_CHANNEL && n.payload) heard(n.payload)
  })
  await client.query(`LISTEN ${SYNC_CHANNEL}`)
  return (await client.query<{ s: string }>('select current_schema() as s')).rows[0]?.s
}

/** Stops listenToChannel's listening on `client` (before the connection goes back to the pool). */
export async function stopListening(client: PoolClient): Promise<void> {
  await client.query(`UNLISTEN ${SYNC_CHANNEL}`)
}

export async function deleteChangesOfGroups(db: Executor, groupIds: number[]): Promise<void> {
  if (groupIds.length === 0) return
  await db.deleteFrom('sync_changes').where('group_id', 'in', groupIds).execute()
  await db.deleteFrom('sync_seqs').where('group_id', 'in', groupIds).execute()
}
