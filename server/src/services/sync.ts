/**
 * Live sync (types/sync.ts): the group's change log, written in the same transaction as every
 * change of a layer, marker, note, custom field or title style, and read back by
 * /api/sync/changes filtered by what the caller may read now.
 *
 * Decisions the contract leaves open:
 * - A layer delete logs a 'layer' delete for the layer and each folder or layer deleted with it,
 *   not one entry per marker: the client drops everything in a deleted layer. A restore logs the
 *   layers and the markers that came back.
 * - A permission change logs a 'layer' upsert for each member it concerns (user_id set): listed to
 *   that member as an upsert when they can read the layer now, as a delete when they cannot.
 * - A marker that moves logs a delete in its old layer and an upsert in its new one.
 * - Retention: the last RETAIN_ENTRIES entries and RETAIN_DAYS days per group, pruned on append
 *   every PRUNE_EVERY seqs; a reader behind the pruned part (or ahead of the log) gets reload.
 */
import { EventEmitter } from 'node:events'
import type { SyncChange, SyncChangesRes, SyncKind } from '../../../types/sync'
import type { Caller } from '../auth'
import { afterCommit, type Database, type Executor } from '../db/connection'
import { changesAfter, insertChanges, lastSeqBefore, notifyChannel, pruneChanges, seqState, takeSeqs, type NewSyncChange } from '../db/change-log'
import { mapCaller, optsResolver, type MapCaller } from './permissions'

export const RETAIN_ENTRIES = 100_000
export const RETAIN_DAYS = 30
export const PRUNE_EVERY = 1000
export const CHANGES_LIMIT_MAX = 1000

export interface ChangeEntry {
  kind: SyncKind
  id: number
  op: 'upsert' | 'delete'
  rev: number
  layer_id: number
  marker_id?: number
  /** The member a permission change concerns. */
  user_id?: number
}

/** A group's log grew to `seq` (committed). */
export interface SeqEvent {
  db: Database
  groupId: number
  seq: number
}

/** In-process feed of committed log growth; the SyncHub listens to it (and to NOTIFY on PostgreSQL). */
export const syncFeed = new EventEmitter().setMaxListeners(0)

/**
 * Appends entries to the group's log inside the change's transaction: takes their seqs (a row lock
 * on PostgreSQL until commit), writes them, notifies other servers at commit (PostgreSQL NOTIFY)
 * and this process after commit. Prunes now and then.
 */
export async function logChanges(trx: Executor, groupId: number, entries: ChangeEntry[], at: string): Promise<void> {
  if (entries.length === 0) return
  const last = await takeSeqs(trx, groupId, entries.length)
  const first = last - entries.length + 1
  await insertChanges(trx, groupId, first, entries.map(changeRow), at)
  if (Math.floor((first - 1) / PRUNE_EVERY) !== Math.floor(last / PRUNE_EVERY)) await prune(trx, groupId, last, at)
  await notifyChannel(trx, { type: 'seq', group_id: groupId, seq: last })
  afterCommit(trx, (db) => announceSeq(db, groupId, last))
}

/** Tells this process's listeners that the group's log grew to `seq` (committed). */
export function announceSeq(db: Database, groupId: number, seq: number): void {
  syncFeed.emit('seq', { db, groupId, seq } satisfies SeqEvent)
}

function changeRow(e: ChangeEntry): NewSyncChange {
  return { kind: e.kind, entity_id: e.id, op: e.op, rev: e.rev, layer_id: e.layer_id, marker_id: e.marker_id ?? null, user_id: e.user_id ?? null }
}

async function prune(trx: Executor, groupId: number, last: number, at: string): Promise<void> {
  const cutoff = new Date(Date.parse(at) - RETAIN_DAYS * 86_400_000).toISOString()
  await pruneChanges(trx, groupId, Math.max(last - RETAIN_ENTRIES, await lastSeqBefore(trx, groupId, cutoff)))
}

/** The group's current seq (the socket's ready). */
export async function currentSeq(db: Executor, groupId: number): Promise<number> {
  return (await seqState(db, groupId)).seq
}

/**
 * The changes after `since` that the caller may read now: markers, notes and fields of layers they
 * read, layers they read (and permission changes about them), title styles of those layers and the
 * group's default. Several changes of one entity in a page collapse to the latest.
 */
export async function changesSince(db: Executor, caller: Caller | MapCaller, since: number, limit = CHANGES_LIMIT_MAX): Promise<SyncChangesRes> {
  const who = await mapCaller(db, caller)
  const state = await seqState(db, who.groupId)
  if (since === 0) return { seq: state.seq, changes: [], more: false, reload: false }
  if (since > state.seq || since < state.pruned_seq) return { seq: state.seq, changes: [], more: false, reload: true }
  const take = Math.min(Math.max(limit, 1), CHANGES_LIMIT_MAX)
  const rows = await changesAfter(db, who.groupId, since, state.seq, take)
  const more = rows.length === take && rows[rows.length - 1].seq < state.seq
  const optsOf = await optsResolver(db, who)
  const readable = (layerId: number) => optsOf(layerId).length > 0
  const latest = new Map<string, SyncChange>()
  for (const row of rows) {
    let op = row.op
    if (row.kind === 'title_style' && row.layer_id === 0) {
      // The group's default style: every member reads it.
    } else if (row.kind === 'layer' && row.user_id !== null && row.user_id === who.userId) {
      if (!readable(row.layer_id)) op = 'delete'
    } else if (!readable(row.layer_id)) continue
    const change: SyncChange = { seq: row.seq, kind: row.kind, id: row.entity_id, op, rev: row.rev, layer_id: row.layer_id }
    if (row.marker_id !== null) change.marker_id = row.marker_id
    const key = `${row.kind}:${row.entity_id}`
    latest.delete(key)
    latest.set(key, change)
  }
  return { seq: more ? rows[rows.length - 1].seq : state.seq, changes: [...latest.values()], more, reload: false }
}
