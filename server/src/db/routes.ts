/** Repository of the saved_routes table: a group's routes, stops and legs kept as JSON with the route. */
import type { Generated, Insertable, Selectable } from 'kysely'
import type { Executor } from './connection'
import { containsTextIgnoringCase } from './markers'
import { paged } from './paged'

export interface SavedRoutesTable {
  id: Generated<number>
  group_id: number
  creator_id: number
  name: string
  /** 'driving' | 'walking' */
  mode: string
  /** JSON array of RouteStop. */
  stops: string
  /** JSON array of RouteLeg. */
  legs: string
  distance: number
  duration: number
  created_at: string
  updated_at: string
}

declare module './schema' {
  interface Tables {
    saved_routes: SavedRoutesTable
  }
}

export type RouteRow = Selectable<SavedRoutesTable>
export type NewRoute = Omit<Insertable<SavedRoutesTable>, 'id'>
export type RoutePatch = Pick<NewRoute, 'name' | 'mode' | 'stops' | 'legs' | 'distance' | 'duration' | 'updated_at'>

export async function insertRoute(db: Executor, row: NewRoute): Promise<RouteRow> {
  return db.insertInto('saved_routes').values(row).returningAll().executeTakeFirstOrThrow()
}

export async function updateRoute(db: Executor, groupId: number, id: number, patch: RoutePatch): Promise<RouteRow> {
  return db.updateTable('saved_routes').set(patch).where('id', '=', id).where('group_id', '=', groupId).returningAll().executeTakeFirstOrThrow()
}

/** A route of the group; undefined for an unknown id or another group's route. */
export function findRoute(db: Executor, groupId: number, id: number): Promise<RouteRow | undefined> {
  return db.selectFrom('saved_routes').selectAll().where('id', '=', id).where('group_id', '=', groupId).executeTakeFirst()
}

/** The group's routes with these ids (in no particular order). */
export function routesByIds(db: Executor, groupId: number, ids: number[]): Promise<RouteRow[]> {
  if (ids.length === 0) return Promise.resolve([])
  return db.selectFrom('saved_routes').selectAll().where('group_id', '=', groupId).where('id', 'in', ids).execute()
}

export interface RouteFilter {
  /** Only this creator's routes. */
  creator_id?: number
  /** The name contains this (case-insensitive). */
  kw?: string
}

function ofGroup(db: Executor, groupId: number, filter: RouteFilter) {
  let query = db.selectFrom('saved_routes').where('group_id', '=', groupId)
  if (filter.creator_id !== undefined) query = query.where('creator_id', '=', filter.creator_id)
  if (filter.kw) query = query.where(containsTextIgnoringCase('name', filter.kw))
  return query
}

/** One page of the group's routes, last changed first, and how many match in all. */
export async function routesOfGroup(db: Executor, groupId: number, filter: RouteFilter, page: { pageindex: number; pagesize: number }): Promise<{ rows: RouteRow[]; total: number }> {
  return paged(ofGroup(db, groupId, filter), (q) => q.selectAll().orderBy('updated_at', 'desc').orderBy('id', 'desc'), page)
}

export async function countRoutesOfGroup(db: Executor, groupId: number): Promise<number> {
  const row = await db
    .selectFrom('saved_routes')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('group_id', '=', groupId)
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

export async function deleteRoute(db: Executor, groupId: number, id: number): Promise<void> {
  await db.deleteFrom('saved_routes').where('id', '=', id).where('group_id', '=', groupId).execute()
}

/** Every route of these groups (account deletion). */
export async function deleteRoutesOfGroups(db: Executor, groupIds: number[]): Promise<void> {
  if (groupIds.length === 0) return
  await db.deleteFrom('saved_routes').where('group_id', 'in', groupIds).execute()
}
