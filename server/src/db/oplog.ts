/**
 * Repository of the oplog table: every create, update, delete and restore of map data, written in
 * the same transaction as the change it records.
 */
import type { ColumnType, Generated, Selectable } from 'kysely'
import type { OpAction, OpEntity } from '../../../types/mapdata'
import type { Executor } from './connection'
import { containsText } from './markers'
import { paged } from './paged'
import { preparedQuery } from './prepared'

export interface OplogTable {
  id: Generated<number>
  group_id: number
  at: string
  user_id: number
  entity: string
  entity_id: number
  action: string
  name: string
  /** JSON of the presented entity, null when there is none (before a create, after a delete). */
  before: string | null
  after: string | null
  /** The bulk action (db/marker-bulk.ts) the entry is one marker of; null for a single change. */
  batch_id: ColumnType<string | null, string | null | undefined, string | null>
}

declare module './schema' {
  interface Tables {
    oplog: OplogTable
  }
}

export type OplogRow = Selectable<OplogTable>

export interface NewOp {
  group_id: number
  user_id: number
  entity: OpEntity
  entity_id: number
  action: OpAction
  name: string
  before: unknown
  after: unknown
  /** ISO time of the change; now when omitted (routes pass their clock's time). */
  at?: string
}

const json = (value: unknown): string | null => (value === undefined || value === null ? null : JSON.stringify(value))

/** Records one change; call it with the transaction that makes the change. */
export async function recordOp(trx: Executor, op: NewOp): Promise<number> {
  return (await insertOp(trx, opRowOf(op))).rows[0].id
}

const insertOp = preparedQuery((db, row: Omit<OplogRow, 'id'>) => db.insertInto('oplog').values(row).returning('id'))

/** The oplog row that records `op`. */
export function opRowOf(op: NewOp): Omit<OplogRow, 'id'> {
  return {
    group_id: op.group_id,
    at: op.at ?? new Date().toISOString(),
    user_id: op.user_id,
    entity: op.entity,
    entity_id: op.entity_id,
    action: op.action,
    name: op.name,
    before: json(op.before),
    after: json(op.after),
    batch_id: null,
  }
}

export interface OpFilter {
  entity?: OpEntity
  action?: OpAction
  user_id?: number
  entity_id?: number
  /** Matches the recorded name. */
  kw?: string
}

function filtered(db: Executor, groupId: number, filter: OpFilter) {
  let query = db.selectFrom('oplog').where('group_id', '=', groupId)
  if (filter.entity) query = query.where('entity', '=', filter.entity)
  if (filter.action) query = query.where('action', '=', filter.action)
  if (filter.user_id) query = query.where('user_id', '=', filter.user_id)
  if (filter.entity_id) query = query.where('entity_id', '=', filter.entity_id)
  if (filter.kw) query = query.where(containsText('name', filter.kw))
  return query
}

/** One page of the group's log, newest first, and how many entries match in all. */
export async function pageOfOps(db: Executor, groupId: number, filter: OpFilter, page: { pageindex: number; pagesize: number }): Promise<{ rows: OplogRow[]; total: number }> {
  return paged(filtered(db, groupId, filter), (q) => q.selectAll().orderBy('id', 'desc'), page)
}

export function findOp(db: Executor, groupId: number, id: number): Promise<OplogRow | undefined> {
  return db.selectFrom('oplog').selectAll().where('group_id', '=', groupId).where('id', '=', id).executeTakeFirst()
}

/** The newest entry about one entity (to tell whether a delete is still the last word on it). */
export function latestOpOf(db: Executor, groupId: number, entity: OpEntity, entityId: number): Promise<OplogRow | undefined> {
  return db.selectFrom('oplog').selectAll().where('group_id', '=', groupId).where('entity', '=', entity).where('entity_id', '=', entityId).orderBy('id', 'desc').limit(1).executeTakeFirst()
}

export async function deleteOpsOfGroups(db: Executor, groupIds: number[]): Promise<void> {
  if (groupIds.length === 0) return
  await db.deleteFrom('oplog').where('group_id', 'in', groupIds).execute()
}
