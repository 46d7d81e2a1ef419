/**
 * /api/department/*: the selected group's departments, nested to any depth, with their managers
 * and layer grants.
 *
 * Who: every member reads the list; the administrator and managers create, rename, move and
 * delete departments and set their managers; a department's layer grants may also be taken away
 * by a department manager whose authority covers the department and the layers.
 */
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { ErrCode } from '../../../types/api'
import { MAP_MSG, TEAM_MSG } from '../../../src/domain/messages'
import { charLength } from '../../../src/domain/validate'
import { DEPARTMENT_NAME_MAX, descendantIds, wouldCycle } from '../../../src/domain/teams'
import { inTransaction, type Executor } from '../db/connection'
import { deleteDepartmentLayers, deleteGrantsOfDepartments } from '../db/department-layer-auth'
import { deleteManager, deleteManagersOfDepartments, replaceManagers } from '../db/department-managers'
import { deleteDepartments, departmentsOfGroup, findDepartment, insertDepartment, updateDepartment, type DepartmentRow } from '../db/departments'
import { clearDepartments, memberIdsAmong } from '../db/joins'
import { clearPendingDepartments } from '../db/pre-registrations'
import { BusinessError } from '../envelope'
import { forbidden, isManager, managesLayer, mapCaller, requireManager, type MapCaller } from '../services/permissions'
import { describeDepartments } from '../services/teams'
import { callDefiners, type AppDeps } from './define'
import { idField, idListField, idOrZeroField, noFields } from '../schemas/common'

const departmentNameField = z
  .string({ required_error: TEAM_MSG.departmentNameRequired, invalid_type_error: TEAM_MSG.departmentNameRequired })
  .trim()
  .min(1, TEAM_MSG.departmentNameRequired)
  .refine((name) => charLength(name) <= DEPARTMENT_NAME_MAX, TEAM_MSG.departmentNameTooLong(DEPARTMENT_NAME_MAX))

const departmentIdField = idField(TEAM_MSG.departmentNotFound)

const departmentSave = z.object({
  id: departmentIdField.optional(),
  name: departmentNameField,
  parent_id: idOrZeroField().optional(),
  sort: z.number().int().min(-1_000_000).max(1_000_000).optional(),
})

export function departmentRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { db, clock } = deps
  const { sessionCall } = callDefiners(app, deps)

  async function requireDepartment(trx: Executor, who: MapCaller, id: number): Promise<DepartmentRow> {
    const department = await findDepartment(trx, who.groupId, id)
    if (!department) throw new BusinessError(ErrCode.NOT_FOUND, TEAM_MSG.departmentNotFound)
    return department
  }

  async function describe(who: MapCaller, id: number) {
    const department = await requireDepartment(db.kysely, who, id)
    return (await describeDepartments(db.kysely, who.groupId, department))[0]
  }

  sessionCall('/api/department/getlist', noFields, async (_input, caller) => {
    const who = await mapCaller(db.kysely, caller)
    return describeDepartments(db.kysely, who.groupId)
  })

  sessionCall('/api/department/save', departmentSave, async (input, caller) => {
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
    return describe(who, id)
  })

  async function requireParent(trx: Executor, who: MapCaller, parentId: number): Promise<void> {
    if (!(await findDepartment(trx, who.groupId, parentId))) throw new BusinessError(ErrCode.VALIDATION, TEAM_MSG.departmentParentNotFound)
  }

  // With every department below it; their members and pending people become department-less.
  sessionCall('/api/department/delete', z.object({ id: departmentIdField }), async ({ id }, caller) => {
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
  })

  sessionCall('/api/department/setting/manager', z.object({ department_id: departmentIdField, userids: idListField(1000) }), async ({ department_id, userids }, caller) => {
    const who = await mapCaller(db.kysely, caller)
    requireManager(who)
    await inTransaction(db, async (trx) => {
      await requireDepartment(trx, who, department_id)
      const members = await memberIdsAmong(trx, who.groupId, userids)
      if (userids.some((u) => !members.has(u))) throw new BusinessError(ErrCode.NOT_FOUND, MAP_MSG.notGroupMember)
      await replaceManagers(trx, department_id, userids)
    })
    return describe(who, department_id)
  })

  sessionCall('/api/department/delete/manager', z.object({ department_id: departmentIdField, user_id: idField() }), async ({ department_id, user_id }, caller) => {
    const who = await mapCaller(db.kysely, caller)
    requireManager(who)
    await requireDepartment(db.kysely, who, department_id)
    await deleteManager(db.kysely, department_id, user_id)
    return describe(who, department_id)
  })

  sessionCall('/api/department/delete/layer/auth', z.object({ department_id: departmentIdField, layer_ids: idListField(10_000) }), async ({ department_id, layer_ids }, caller) => {
    const who = await mapCaller(db.kysely, caller)
    await requireDepartment(db.kysely, who, department_id)
    if (!isManager(who) && !(who.team.authorityDepartmentIds.has(department_id) && layer_ids.every((l) => managesLayer(who, l)))) throw forbidden()
    await deleteDepartmentLayers(db.kysely, department_id, layer_ids)
    return describe(who, department_id)
  })
}
