/**
 * A small team for map-data server tests: an owner with a group, a plain member of that group
 * (joined directly through the repository; invites come with the teams issue), and an outsider
 * who owns another group. Plus builders for layers and markers through the API.
 */
import type { LayerType, MarkerType } from '../../types/mapdata'
import { addJoin } from '../../server/src/db/joins'
import { saveOpts } from '../../server/src/db/layer-auth'
import { selectGroupForUser } from '../../server/src/db/users'
import { makeTestApp, type Auth, type CallResult, type TestApp } from './helpers'

export interface Team {
  t: TestApp
  owner: Auth
  member: Auth
  outsider: Auth
  groupId: number
  outsiderGroupId: number
}

export async function makeTeam(t?: TestApp): Promise<Team> {
  t ??= await makeTestApp()
  const owner = (await t.login('13800138000')).auth
  await t.call('/api/user/init', { nickname: '队长' }, owner)
  const groupId = (await t.call('/api/group/create', {}, owner)).data.user.select_groupid as number

  const member = (await t.login('13900139000')).auth
  await t.call('/api/user/init', { nickname: '队员' }, member)
  const now = t.clock.now().toISOString()
  await addJoin(t.db.kysely, { group_id: groupId, user_id: member.userid as number, is_manager: false, created_at: now })
  await selectGroupForUser(t.db.kysely, member.userid as number, groupId, now)

  const outsider = (await t.login('13700137000')).auth
  const outsiderGroupId = (await t.call('/api/group/create', {}, outsider)).data.user.select_groupid as number
  return { t, owner, member, outsider, groupId, outsiderGroupId }
}

/** Fails the test with the server's message when a call that should work does not. */
export function expectOk<T>(res: CallResult<T>): T {
  if (res.status !== 200 || res.errcode !== 0) throw new Error(`expected success, got ${res.status} ${res.errcode} ${res.errmsg}`)
  return res.data
}

export async function makeLayer(t: TestApp, auth: Auth, name: string, type: LayerType = 1, parent_id = 0): Promise<number> {
  return expectOk(await t.call('/api/layer/save', { name, type, parent_id }, auth)).id
}

export async function makeMarker(
  t: TestApp,
  auth: Auth,
  layer_id: number,
  over: { name?: string; type?: MarkerType; points?: string; radius?: number; fields?: Record<string, unknown> } = {},
): Promise<number> {
  const body = { layer_id, name: over.name ?? '标注', type: over.type ?? 0, points: over.points ?? '116.397428,39.90923', ...over }
  return expectOk(await t.call('/api/marker/save', body, auth)).id
}

/** Gives a member permission ids on a layer directly through the repository. */
export async function grant(team: Team, layerId: number, user: Auth, opts: string[]): Promise<void> {
  await saveOpts(team.t.db.kysely, { group_id: team.groupId, layer_id: layerId, user_id: user.userid as number, opts })
}

export async function setMarkerLimit(team: Team, limit: number): Promise<void> {
  await team.t.db.kysely.updateTable('groups').set({ marker_limit: limit }).where('id', '=', team.groupId).execute()
}

export async function rowCount(t: TestApp, table: 'notes' | 'layer_fields' | 'title_styles' | 'icons' | 'uploads' | 'markers' | 'oplog', where: { deleted?: boolean } = {}): Promise<number> {
  let query = t.db.kysely.selectFrom(table as 'notes').select((eb) => eb.fn.countAll().as('n'))
  if (where.deleted === false) query = query.where('deleted_at', 'is', null)
  const row = await query.executeTakeFirstOrThrow()
  return Number(row.n)
}
