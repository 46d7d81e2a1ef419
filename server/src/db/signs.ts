/** Repository of the signs table (check-ins; migration 0011, types/signs.ts). */
import type { Generated, Insertable, Selectable } from 'kysely'
import type { Executor } from './connection'
import { paged } from './paged'

export interface SignsTable {
  id: Generated<number>
  group_id: number
  user_id: number
  nonce: string
  code: string
  /** 'marker' | 'task' | 'free' */
  target_kind: string
  marker_id: number | null
  task_id: number | null
  target_name: string
  target_lng: number | null
  target_lat: number | null
  lng: number
  lat: number
  addr: string
  distance: number | null
  radius: number
  /** JSON array of {url, sha256}. */
  photos: string
  remark: string
  time: string
  created_at: string
  signature: string
}

declare module './schema' {
  interface Tables {
    signs: SignsTable
  }
}

export type SignRow = Selectable<SignsTable>
export type NewSign = Omit<Insertable<SignsTable>, 'id'>

/** Stores a check-in; undefined when a row with its nonce exists already (the ticket was saved: a ticket saves once, even when two saves race). */
export function insertSignOnce(db: Executor, row: NewSign): Promise<SignRow | undefined> {
  return db
    .insertInto('signs')
    .values(row)
    .onConflict((oc) => oc.column('nonce').doNothing())
    .returningAll()
    .executeTakeFirst()
}

/** Whether a check-in was saved with this ticket nonce. */
export async function signNonceUsed(db: Executor, nonce: string): Promise<boolean> {
  return !!(await db.selectFrom('signs').select('id').where('nonce', '=', nonce).executeTakeFirst())
}

/** A check-in of the group; undefined for an unknown id or another group's. */
export function findSign(db: Executor, groupId: number, id: number): Promise<SignRow | undefined> {
  return db.selectFrom('signs').selectAll().where('id', '=', id).where('group_id', '=', groupId).executeTakeFirst()
}

/** The group's check-ins with these ids (in no particular order). */
export function signsByIds(db: Executor, groupId: number, ids: number[]): Promise<SignRow[]> {
  if (ids.length === 0) return Promise.resolve([])
  return db.selectFrom('signs').selectAll().where('group_id', '=', groupId).where('id', 'in', ids).execute()
}

export interface SignFilter {
  user_id?: number
  marker_id?: number
  task_id?: number
  /** ISO 8601 instants: time >= from, time < before. */
  from?: string
  before?: string
}

function ofGroup(db: Executor, groupId: number, filter: SignFilter) {
  let query = db.selectFrom('signs').where('group_id', '=', groupId)
  if (filter.user_id !== undefined) query = query.where('user_id', '=', filter.user_id)
  if (filter.marker_id !== undefined) query = query.where('marker_id', '=', filter.marker_id)
  if (filter.task_id !== undefined) query = query.where('task_id', '=', filter.task_id)
  if (filter.from !== undefined) query = query.where('time', '>=', filter.from)
  if (filter.before !== undefined) query = query.where('time', '<', filter.before)
  return query
}

/** One page of the group's check-ins matching the filter, newest first, and how many match in all. */
export async function signsOfGroup(db: Executor, groupId: number, filter: SignFilter, page: { pageindex: number; pagesize: number }): Promise<{ rows: SignRow[]; total: number }> {
  return paged(ofGroup(db, groupId, filter), (q) => q.selectAll().orderBy('time', 'desc').orderBy('id', 'desc'), page)
}

/** Every check-in of these groups (account deletion). */
export async function deleteSignsOfGroups(db: Executor, groupIds: number[]): Promise<void> {
  if (groupIds.length === 0) return
  await db.deleteFrom('signs').where('group_id', 'in', groupIds).execute()
}

/** The group's uploads with these urls (photos of a check-in must be files of the group). */
export function uploadsOfGroupWithUrls(db: Executor, groupId: number, urls: string[]): Promise<{ url: string; path: string }[]> {
  if (urls.length === 0) return Promise.resolve([])
  return db.selectFrom('uploads').select(['url', 'path']).where('group_id', '=', groupId).where('url', 'in', urls).execute()
}

/** What a check-in needs of a task of the group (the tasks table belongs to the task slice; this only reads it). */
export function taskTargetOf(db: Executor, groupId: number, taskId: number) {
  return db.selectFrom('tasks').select(['id', 'title', 'state', 'marker_id', 'place_name', 'place_lng', 'place_lat']).where('id', '=', taskId).where('group_id', '=', groupId).executeTakeFirst()
}
