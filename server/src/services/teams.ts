/**
 * The team of the caller's selected group: members and pending pre-registrations under the join
 * limit, joining by invite code, leaving, removing, departments and roles as the contract presents
 * them, and the clean-up when people leave or accounts go. Decisions on who may do what are made by
 * the routes through services/permissions.ts; this file keeps the rows consistent.
 */
import { randomInt } from 'node:crypto'
import { ErrCode } from '../../../types/api'
import type { Department, JoinsOverview, Member, Role } from '../../../types/teams'
import { MSG, TEAM_MSG } from '../../../src/domain/messages'
import { INVITE_CODE_ALPHABET, INVITE_CODE_LENGTH, collaboratorCount, hasRoomForCollaborator } from '../../../src/domain/teams'
import type { Executor } from '../db/connection'
import { deleteDepartmentGrantsOfGroups, departmentGrantsOfGroup } from '../db/department-layer-auth'
import { deleteManagerOfGroup, deleteManagersOfDepartments, deleteManagersOfUser, managersOfGroup } from '../db/department-managers'
import { deleteDepartmentsOfGroups, departmentIdsOfGroups, departmentsOfGroup, type DepartmentRow } from '../db/departments'
import { findGroupByInviteCode } from '../db/groups'
import { deleteLocationInGroup } from '../db/locations'
import { addJoin, countMembers, deleteJoin, findJoin, joinsOfGroup } from '../db/joins'
import { deleteAuthOfMember, deleteAuthOfUser } from '../db/layer-auth'
import { layersOfGroup } from '../db/layers'
import { countPending, deletePending, deletePendingOfGroups, pendingOfGroup, pendingOfPhone } from '../db/pre-registrations'
import { deleteModulesOfRoles, roleModulesOfGroup } from '../db/role-modules'
import { deleteRoleUserOfGroup, deleteRolesOfUser, deleteUsersOfRoles, roleUsersOfGroup } from '../db/role-users'
import { deleteRolesOfGroups, roleIdsOfGroups, rolesOfGroup, type RoleRow } from '../db/roles'
import type { GroupRow, UserRow } from '../db/schema'
import { BusinessError } from '../envelope'
import { joinLimitMessage, limitsInForce } from './limits'
import { groupBy, presentDepartment, presentMember, presentPending, presentRole, type MemberRow } from '../presenters/teams'

/** Members (the administrator included), pending pre-registrations, and the collaborators join_limit counts of them. */
export async function headcount(db: Executor, groupId: number): Promise<{ members: number; pending: number; collaborators: number }> {
  const [members, pending] = await Promise.all([countMembers(db, groupId), countPending(db, groupId)])
  return { members, pending, collaborators: collaboratorCount(members, pending) }
}

/** LIMIT_REACHED unless `adding` more collaborators fit under the group's join_limit in force at `at` (the free plan's once its membership has expired). */
export async function requireRoom(trx: Executor, group: GroupRow, at: Date | string, adding = 1): Promise<void> {
  const { collaborators } = await headcount(trx, group.id)
  const limits = limitsInForce(group, at)
  if (!hasRoomForCollaborator(collaborators, limits.join_limit, adding)) throw new BusinessError(ErrCode.LIMIT_REACHED, joinLimitMessage(limits))
}

/**
 * Makes the user a member (not a manager) of the group in a department, under the join limit
 * (call inside a transaction after lockGroup). A pending pre-registration of the user's phone in
 * the group is taken over: its department is kept and its place is already counted.
 */
export async function joinGroup(trx: Executor, group: GroupRow, user: Pick<UserRow, 'id' | 'phone'>, departmentId: number, at: string): Promise<void> {
  if (await findJoin(trx, group.id, user.id)) return
  const pending = (await pendingOfPhone(trx, user.phone)).find((p) => p.group_id === group.id)
  if (pending) {
    await deletePending(trx, [pending.id])
    departmentId = departmentId || pending.department_id
  } else {
    await requireRoom(trx, group, at)
  }
  await addJoin(trx, { group_id: group.id, user_id: user.id, is_manager: false, department_id: departmentId, created_at: at })
}

/** The group of an invite code (or a link carrying one); NOT_FOUND otherwise. */
export async function groupOfInviteCode(db: Executor, code: string): Promise<GroupRow> {
  const group = code ? await findGroupByInviteCode(db, code) : undefined
  if (!group) throw new BusinessError(ErrCode.NOT_FOUND, MSG.inviteCodeInvalid)
  return group
}

/** A random code not held by any group. */
export async function freshInviteCode(db: Executor): Promise<string> {
  for (;;) {
    let code = ''
    for (let i = 0; i < INVITE_CODE_LENGTH; i++) code += INVITE_CODE_ALPHABET[randomInt(INVITE_CODE_ALPHABET.length)]
    if (!(await findGroupByInviteCode(db, code))) return code
  }
}

/**
 * The user stops being a member of the group: the membership, their layer permissions, role
 * assignments and department-manager rows there go. Their selected group is left as it is: their
 * next call on it is refused, and getinfo moves them to their own map.
 */
export async function leaveGroup(trx: Executor, groupId: number, userId: number): Promise<void> {
  const join = await findJoin(trx, groupId, userId)
  if (join) await deleteJoin(trx, join.id)
  // Their last position was the team's while they were in it; it is not once they are not.
  await deleteLocationInGroup(trx, userId, groupId)
  await deleteAuthOfMember(trx, groupId, userId)
  await deleteRoleUserOfGroup(trx, groupId, userId)
  await deleteManagerOfGroup(trx, groupId, userId)
}

/** Every team row of these groups (account deletion). */
export async function purgeGroupTeamData(trx: Executor, groupIds: number[]): Promise<void> {
  const departmentIds = await departmentIdsOfGroups(trx, groupIds)
  const roleIds = await roleIdsOfGroups(trx, groupIds)
  await deleteManagersOfDepartments(trx, departmentIds)
  await deleteDepartmentGrantsOfGroups(trx, groupIds)
  await deleteDepartmentsOfGroups(trx, groupIds)
  await deleteUsersOfRoles(trx, roleIds)
  await deleteModulesOfRoles(trx, roleIds)
  await deleteRolesOfGroups(trx, groupIds)
  await deletePendingOfGroups(trx, groupIds)
}

/** The user's team rows in every group (account deletion). */
export async function purgeUserTeamRows(trx: Executor, userId: number): Promise<void> {
  await deleteAuthOfUser(trx, userId)
  await deleteRolesOfUser(trx, userId)
  await deleteManagersOfUser(trx, userId)
}

// ---------------------------------------------------------------------------------------------
// As the contract presents them

async function memberExtras(db: Executor, group: GroupRow) {
  const [managers, roleUsers] = await Promise.all([managersOfGroup(db, group.id), roleUsersOfGroup(db, group.id)])
  return {
    ownerId: group.owner_id,
    managed: groupBy(managers.map((m) => [m.user_id, m.department_id] as const)),
    roles: groupBy(roleUsers.map((r) => [r.user_id, r.role_id] as const)),
  }
}

/**
 * Members (the administrator first, then by joining) and pending people; phones masked and pending
 * left out for `full` false. join_limit is the one in force at `now` (the free plan's once the
 * membership has expired), the number the next invitation is checked against.
 */
export async function joinsOverview(db: Executor, group: GroupRow, full: boolean, now: Date): Promise<JoinsOverview> {
  const [rows, pending, extras] = await Promise.all([joinsOfGroup(db, group.id), pendingOfGroup(db, group.id), memberExtras(db, group)])
  const ordered = [...rows.filter((r) => r.user_id === group.owner_id), ...rows.filter((r) => r.user_id !== group.owner_id)]
  return {
    list: ordered.map((r) => presentMember(r as MemberRow, { ...extras, maskPhones: !full })),
    pending: full ? pending.map(presentPending) : [],
    count: collaboratorCount(rows.length, pending.length),
    join_limit: limitsInForce(group, now).join_limit,
  }
}

export async function describeMember(db: Executor, group: GroupRow, joinId: number): Promise<Member> {
  const [rows, extras] = await Promise.all([joinsOfGroup(db, group.id), memberExtras(db, group)])
  const row = rows.find((r) => r.id === joinId)
  if (!row) throw new BusinessError(ErrCode.NOT_FOUND, TEAM_MSG.memberNotFound)
  return presentMember(row as MemberRow, extras)
}

export async function describeDepartments(db: Executor, groupId: number, only?: DepartmentRow): Promise<Department[]> {
  const [rows, managers, grants, layers] = await Promise.all([
    only ? Promise.resolve([only]) : departmentsOfGroup(db, groupId),
    managersOfGroup(db, groupId),
    departmentGrantsOfGroup(db, groupId),
    layersOfGroup(db, groupId),
  ])
  const managersOf = groupBy(managers.map((m) => [m.department_id, m.user_id] as const))
  const live = new Set(layers.map((l) => l.id))
  return rows.map((row) => presentDepartment(row, managersOf.get(row.id) ?? [], grants, live))
}

export async function describeRoles(db: Executor, groupId: number, only?: RoleRow): Promise<Role[]> {
  const [rows, users, modules] = await Promise.all([only ? Promise.resolve([only]) : rolesOfGroup(db, groupId), roleUsersOfGroup(db, groupId), roleModulesOfGroup(db, groupId)])
  const usersOf = groupBy(users.map((u) => [u.role_id, u.user_id] as const))
  const modulesOf = groupBy(modules.map((m) => [m.role_id, m.module_id] as const))
  return rows.map((row) => presentRole(row, usersOf.get(row.id) ?? [], modulesOf.get(row.id) ?? []))
}
