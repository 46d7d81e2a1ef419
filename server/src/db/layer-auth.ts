/** Repository of the layer_auth table: the permission ids (layer_opts) one member holds on one layer. */
import type { Generated } from 'kysely'
import type { Executor } from './connection'
import { preparedQuery } from './prepared'

export interface LayerAuthTable {
  id: Generated<number>
  group_id: number
  layer_id: number
  user_id: number
  /** JSON array of permission ids. */
  opts: string
}

declare module './schema' {
  interface Tables {
    layer_auth: LayerAuthTable
  }
}

/** The stored JSON array of permission ids; anything else reads as none. */
export function parseOpts(text: string): string[] {
  try {
    const value: unknown = JSON.parse(text)
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []
  } catch {
    return []
  }
}

/** The member's opts on every layer of the group where they hold any. */
export async function optsOfMember(db: Executor, groupId: number, userId: number): Promise<Map<number, string[]>> {
  const rows = await db.selectFrom('layer_auth').select(['layer_id', 'opts']).where('group_id', '=', groupId).where('user_id', '=', userId).execute()
  return new Map(rows.map((r) => [r.layer_id, parseOpts(r.opts)]))
}

/** The member's opts on one layer ([] when none). */
export async function optsOnLayer(db: Executor, groupId: number, layerId: number, userId: number): Promise<string[]> {
  const row = (await ownOpts(db, groupId, layerId, userId)).rows[0]
  return row ? parseOpts(row.opts) : []
}

const ownOpts = preparedQuery((db, groupId: number, layerId: number, userId: number) =>
  db.selectFrom('layer_auth').select('opts').where('group_id', '=', groupId).where('layer_id', '=', layerId).where('user_id', '=', userId),
)

/** Replaces the member's opts on the layer; an empty list removes the row. */
export async function saveOpts(db: Executor, auth: { group_id: number; layer_id: number; user_id: number; opts: string[] }): Promise<void> {
  if (auth.opts.length === 0) {
    await db.deleteFrom('layer_auth').where('layer_id', '=', auth.layer_id).where('user_id', '=', auth.user_id).execute()
    return
  }
  const opts = JSON.stringify(auth.opts)
  await db
    .insertInto('layer_auth')
    .values({ ...auth, opts })
    .onConflict((oc) => oc.columns(['layer_id', 'user_id']).doUpdateSet({ opts }))
    .execute()
}

export async function deleteAuthOfGroups(db: Executor, groupIds: number[]): Promise<void> {
  if (groupIds.length === 0) return
  await db.deleteFrom('layer_auth').where('group_id', 'in', groupIds).execute()
}

/** The member's opts on every layer of the group go (leaving or removed from it). */
export async function deleteAuthOfMember(db: Executor, groupId: number, userId: number): Promise<void> {
  await db.deleteFrom('layer_auth').where('group_id', '=', groupId).where('user_id', '=', userId).execute()
}

/** Everything granted to the user in any group (account deletion). */
export async function deleteAuthOfUser(db: Executor, userId: number): Promise<void> {
  await db.deleteFrom('layer_auth').where('user_id', '=', userId).execute()
}
