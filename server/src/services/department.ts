/**
 * /api/department/* (routes/department.ts): the selected group's departments, nested to any depth,
 * with their managers and layer grants.
 *
 * Who: every member reads the list; the administrator and managers create, rename, move and
 * delete departments and set their managers; a department's layer grants may also be taken away
 * by a department manager whose authority covers the department and the layers.
 */
import { ErrCode } from '../../../types/api'
import { MAP_MSG, TEAM_MSG } from '../../../src/domain/messages'
import { descendantIds, wouldCycle } from '../../../src/domain/teams'
import type { Caller } from '../auth'
import type { Clock } from '../clock'
import { inTransaction, type Database, type Executor } from '../db/connection'
import { deleteDepartmentLayers, deleteGrantsOfDepartments } from '../db/department-layer-auth'
import { deleteManager, deleteManagersOfDepartments, replaceManagers } from '../db/department-managers'
import { deleteDepartments, departmentsOfGroup, findDepartment, insertDepartment, updateDepartment, type DepartmentRow } from '../db/departments'
import { clearDepartments, memberIdsAmong } from '../db/joins'
import { clearPendingDepartments } from '../db/pre-registrations'
import { BusinessError } from '../envelope'
import type { DepartmentSaveInput } from '../schemas/department'
import { forbidden, isManager, managesLayer, mapCaller, requireManager, type MapCaller } from './permissions'
import { describeDepartments } from './teams'

/** What the department calls work with. */
export interface DepartmentEnv {
  db: Database
  clock: Clock
}

async function requireDepartment(trx: Executor, who: MapCaller, id: number): Promise<DepartmentRow> {
  const department = await findDepartment(trx, who.groupId, id)
  if (!department) throw new BusinessError(ErrCode.NOT_FOUND, TEAM_MSG.departmentNotFound)
  return department
}

async function describe({ db }: DepartmentEnv, who: MapCaller, id: number) {
  const department = await requireDepartment(db.kysely, who, id)
  return (await describeDepartments(db.kysely, who.groupId, department))[0]
}

async function requireParent(trx: Executor, who: MapCaller, parentId: number): Promise<void> {
  if (!(await findDepartment(trx, who.groupId, parentId))) throw new BusinessError(ErrCode.VALIDATION, TEAM_MSG.departmentParentNotFound)
}

export async function listDepartments({ db }: DepartmentEnv, caller: Caller) {
  const who = await mapCaller(db.kysely, caller)
  return describeDepartments(db.kysely, who.groupId)
}

export async function saveDepartment(env: DepartmentEnv, caller: Caller, input: DepartmentSaveInput) {
  const { db, clock } = env
  const who = await mapCaller(db.kysely, caller)
  requireManager(who)
  const id = await inTransaction(db, async (trx) => {
    const parentId = input.parent_id
    if (parentId) await requireParent(trx, who, parentId)
    if (!input.id) {
      const row = await insertDepartment(trx, { group_id: who.groupId, name: input.name, parent_id: parentId ?? 0, sort: input.sort ?? 0, created_at: clock.now().toISOString() })
      return row.id
    }
    const department = await requireDepartment(trx, who, input.id)
    const patch: Parameters<typeof updateDepartment>[2] = { name: input.name }
    if (input.sort !== undefined) patch.sort = input.sort
    if (parentId !== undefined && parentId !== department.parent_id) {
      if (wouldCycle(await departmentsOfGroup(trx, who.groupId), department.id, parentId)) throw new BusinessError(ErrCode.VALIDATION, TEAM_MSG.departmentCycle)
      patch.parent_id = parentId
    }
    return (await updateDepartment(trx, department.id, patch)).id
  })
  return describe(env, who, id)
}

// With every department below it; their members and pending people become department-less.
export async function deleteDepartment({ db }: DepartmentEnv, caller: Caller, id: number) {
  await inTransaction(db, async (trx) => {
    const who = await mapCaller(trx, caller)
    requireManager(who)
    await requireDepartment(trx, who, id)
    const ids = descendantIds(await departmentsOfGroup(trx, who.groupId), id)
    await deleteManagersOfDepartments(trx, ids)
    await deleteGrantsOfDepartments(trx, ids)
    await clearDepartments(trx, who.groupId, ids)
    await clearPendingDepartments(trx, who.groupId, ids)
    await deleteDepartments(trx, ids)
  })
  return null
}

export async function setDepartmentManagers(env: DepartmentEnv, caller: Caller, { department_id, userids }: { department_id: number; userids: number[] }) {
  const { db } = env
  const who = await mapCaller(db.kysely, caller)
  requireManager(who)
  await inTransaction(db, async (trx) => {
    await requireDepartment(trx, who, department_id)
    const members = await memberIdsAmong(trx, who.groupId, userids)
    if (userids.some((u) => !members.has(u))) throw new BusinessError(ErrCode.NOT_FOUND, MAP_MSG.notGroupMember)
    await replaceManagers(trx, department_id, userids)
  })
  return describe(env, who, department_id)
}

export async function deleteDepartmentManager(env: DepartmentEnv, caller: Caller, { department_id, user_id }: { department_id: number; user_id: number }) {
  const { db } = env
  const who = await mapCaller(db.kysely, caller)
  requireManager(who)
  await requireDepartment(db.kysely, who, department_id)
  await deleteManager(db.kysely, department_id, user_id)
  return describe(env, who, department_id)
}

export async function deleteDepartmentLayerAuth(env: DepartmentEnv, caller: Caller, { department_id, layer_ids }: { department_id: number; layer_ids: number[] }) {
  const { db } = env
  const who = await mapCaller(db.kysely, caller)
  await requireDepartment(db.kysely, who, department_id)
  if (!isManager(who) && !(who.team.authorityDepartmentIds.has(department_id) && layer_ids.every((l) => managesLayer(who, l)))) throw forbidden()
  await deleteDepartmentLayers(db.kysely, department_id, layer_ids)
  return describe(env, who, department_id)
}
