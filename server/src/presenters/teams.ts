/** Wire shapes of the teams contract (types/teams.ts); pure functions of loaded rows. */
import type { Department, GroupSummary, Member, PendingMember, PersonOverview, Role } from '../../../types/teams'
import { GROUP_CATALOGUE, MANDATORY_MODULE_IDS } from '../../../src/domain/teams'
import { maskPhone } from '../../../src/domain/validate'
import type { DepartmentGrantRow } from '../db/department-layer-auth'
import type { DepartmentRow } from '../db/departments'
import type { PreRegistrationRow } from '../db/pre-registrations'
import type { RoleRow } from '../db/roles'
import type { GroupRow, JoinRow, UserRow } from '../db/schema'

export interface MemberRow extends JoinRow {
  nickname: string
  avatar: string
  phone: string
}

export interface MemberExtras {
  ownerId: number
  /** Department ids managed, by user id. */
  managed: ReadonlyMap<number, number[]>
  /** Role ids, by user id. */
  roles: ReadonlyMap<number, number[]>
  /** Show the phone as 138****0000 (to members who do not manage the team). */
  maskPhones?: boolean
}

export function presentMember(row: MemberRow, extras: MemberExtras): Member {
  const isAdmin = row.user_id === extras.ownerId
  return {
    join_id: row.id,
    user: { id: row.user_id, nickname: row.nickname, avatar: row.avatar, phone: extras.maskPhones ? maskPhone(row.phone) : row.phone },
    department_id: row.department_id,
    is_admin: isAdmin,
    is_manager: isAdmin || row.is_manager === 1,
    managed_department_ids: extras.managed.get(row.user_id) ?? [],
    role_ids: extras.roles.get(row.user_id) ?? [],
    created_at: row.created_at,
  }
}

/** What a manager learns of a person they look up: never the full phone or the user id. */
export function presentPersonOverview(user: UserRow, isMember: boolean): PersonOverview {
  return { nickname: user.nickname, avatar: user.avatar, uid: user.uid, phone: maskPhone(user.phone), is_member: isMember }
}

export function presentPending(row: PreRegistrationRow): PendingMember {
  return { id: row.id, nickname: row.nickname, phone: row.phone, department_id: row.department_id, created_at: row.created_at }
}

/** layer_auth lists only grants on live layers (`liveLayerIds`); grants on deleted layers wait for a restore. */
export function presentDepartment(row: DepartmentRow, managers: readonly number[], grants: readonly DepartmentGrantRow[], liveLayerIds: ReadonlySet<number>): Department {
  const layerAuth = grants.filter((g) => g.department_id === row.id && liveLayerIds.has(g.layer_id)).map((g) => ({ layer_id: g.layer_id, opts: g.opts }))
  return {
    id: row.id,
    name: row.name,
    parent_id: row.parent_id,
    sort: row.sort,
    managers: [...managers],
    layer_ids: layerAuth.map((a) => a.layer_id),
    layer_auth: layerAuth,
  }
}

/** module_ids in catalogue order, the mandatory ones always among them. */
export function presentRole(row: RoleRow, userIds: readonly number[], moduleIds: readonly string[]): Role {
  const held = new Set<string>([...MANDATORY_MODULE_IDS, ...moduleIds])
  return {
    id: row.id,
    name: row.name,
    user_ids: [...userIds],
    module_ids: GROUP_CATALOGUE.filter((e) => held.has(e.id)).map((e) => e.id),
  }
}

export function presentGroupSummary(group: GroupRow & { member_count: number }, userId: number, selectedId: number): GroupSummary {
  return { id: group.id, name: group.name, is_admin: group.owner_id === userId, member_count: group.member_count, selected: group.id === selectedId }
}

/** Groups values of pairs by a key. */
export function groupBy<K, V>(pairs: readonly (readonly [K, V])[]): Map<K, V[]> {
  const out = new Map<K, V[]>()
  for (const [k, v] of pairs) {
    const list = out.get(k)
    if (list) list.push(v)
    else out.set(k, [v])
  }
  return out
}
