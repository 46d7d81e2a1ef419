/** Zod of /api/group/* (routes/group.ts); the rules are services/group.ts's. */
import { z } from 'zod'
import { MSG, TEAM_MSG } from '../../../src/domain/messages'
import { groupNameField, idField, idOrZeroField, inviteCodeField } from './common'

const joinIdField = idField(TEAM_MSG.memberNotFound)
const departmentIdField = idOrZeroField()

export const createFields = z.object({ name: groupNameField.optional() })

export const nameFields = z.object({ name: groupNameField })

export const joinFields = z.object({ join_id: joinIdField })

export const managerFields = z.object({ join_id: joinIdField, is_manager: z.boolean({ required_error: MSG.badRequest }) })

export const joinDepartmentFields = z.object({ join_id: joinIdField, department_id: departmentIdField })

export const inviteCodeFields = z.object({ reset: z.boolean().optional() })

export const codeFields = z.object({ code: inviteCodeField })

export const selectFields = z.object({ group_id: idField(TEAM_MSG.notMemberOfGroup) })
