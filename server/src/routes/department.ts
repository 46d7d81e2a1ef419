/**
 * /api/department/*: the selected group's departments, nested to any depth, with their managers
 * and layer grants. Who may do what is services/department.ts's.
 */
import type { FastifyInstance } from 'fastify'
import { deleteDepartment, deleteDepartmentLayerAuth, deleteDepartmentManager, listDepartments, saveDepartment, setDepartmentManagers } from '../services/department'
import { callDefiners, type AppDeps } from './define'
import { noFields } from '../schemas/common'
import { departmentSave, idFields, layerAuthFields, managerFields, managersFields } from '../schemas/department'

export function departmentRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { sessionCall } = callDefiners(app, deps)

  sessionCall('/api/department/getlist', noFields, async (_input, caller) => listDepartments(deps, caller))

  sessionCall('/api/department/save', departmentSave, async (input, caller) => saveDepartment(deps, caller, input))

  sessionCall('/api/department/delete', idFields, async ({ id }, caller) => deleteDepartment(deps, caller, id))

  sessionCall('/api/department/setting/manager', managersFields, async (input, caller) => setDepartmentManagers(deps, caller, input))

  sessionCall('/api/department/delete/manager', managerFields, async (input, caller) => deleteDepartmentManager(deps, caller, input))

  sessionCall('/api/department/delete/layer/auth', layerAuthFields, async (input, caller) => deleteDepartmentLayerAuth(deps, caller, input))
}
