/** Zod of /api/department/* (routes/department.ts); the rules are services/department.ts's. */
import { z } from 'zod'
import { TEAM_MSG } from '../../../src/domain/messages'
import { charLength } from '../../../src/domain/validate'
import { DEPARTMENT_NAME_MAX } from '../../../src/domain/teams'
import { idField, idListField, idOrZeroField } from './common'

const departmentNameField = z
  .string({ required_error: TEAM_MSG.departmentNameRequired, invalid_type_error: TEAM_MSG.departmentNameRequired })
  .trim()
  .min(1, TEAM_MSG.departmentNameRequired)
  .refine((name) => charLength(name) <= DEPARTMENT_NAME_MAX, TEAM_MSG.departmentNameTooLong(DEPARTMENT_NAME_MAX))

const departmentIdField = idField(TEAM_MSG.departmentNotFound)

export const departmentSave = z.object({
  id: departmentIdField.optional(),
  name: departmentNameField,
  parent_id: idOrZeroField().optional(),
  sort: z.number().int().min(-1_000_000).max(1_000_000).optional(),
})

export type DepartmentSaveInput = z.output<typeof departmentSave>

export const idFields = z.object({ id: departmentIdField })

export const managersFields = z.object({ department_id: departmentIdField, userids: idListField(1000) })

export const managerFields = z.object({ department_id: departmentIdField, user_id: idField() })

export const layerAuthFields = z.object({ department_id: departmentIdField, layer_ids: idListField(10_000) })
