/** Zod of /api/role/* (routes/role.ts); the rules are services/role.ts's. */
import { z } from 'zod'
import { TEAM_MSG } from '../../../src/domain/messages'
import { charLength } from '../../../src/domain/validate'
import { GROUP_CATALOGUE, ROLE_NAME_MAX, isCatalogueId } from '../../../src/domain/teams'
import { idField, idListField } from './common'

const roleNameField = z
  .string({ required_error: TEAM_MSG.roleNameRequired, invalid_type_error: TEAM_MSG.roleNameRequired })
  .trim()
  .min(1, TEAM_MSG.roleNameRequired)
  .refine((name) => charLength(name) <= ROLE_NAME_MAX, TEAM_MSG.roleNameTooLong(ROLE_NAME_MAX))

const roleIdField = idField(TEAM_MSG.roleNotFound)

const moduleIdsField = z
  .array(z.string(), { required_error: TEAM_MSG.moduleIdsInvalid, invalid_type_error: TEAM_MSG.moduleIdsInvalid })
  .max(GROUP_CATALOGUE.length * 2, TEAM_MSG.moduleIdsInvalid)
  .refine((ids) => ids.every(isCatalogueId), TEAM_MSG.moduleIdsInvalid)
  .transform((ids) => [...new Set(ids)])

export const saveFields = z.object({ id: roleIdField.optional(), name: roleNameField })

export const idFields = z.object({ id: roleIdField })

export const usersFields = z.object({ role_id: roleIdField, user_ids: idListField(1000) })

export const modulesFields = z.object({ role_id: roleIdField, module_ids: moduleIdsField })
