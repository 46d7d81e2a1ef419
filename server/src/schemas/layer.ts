/** Zod of /api/layer/*: the layer tree, its show flags and member permissions. */
import { z } from 'zod'
import { MAP_MSG, TEAM_MSG } from '../../../src/domain/messages'
import { LAYER_NAME_MAX } from '../../../src/domain/markers'
import { LAYER_PERMISSIONS } from '../../../src/domain/permissions'
import type { LayerAuthInput } from '../services/layers'
import { idField, idListField, idOrZeroField, revField } from './common'

const layerNameField = z
  .string({ required_error: MAP_MSG.layerNameRequired, invalid_type_error: MAP_MSG.layerNameRequired })
  .trim()
  .min(1, MAP_MSG.layerNameRequired)
  .max(LAYER_NAME_MAX, MAP_MSG.layerNameTooLong(LAYER_NAME_MAX))

const layerTypeField = z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)], { errorMap: () => ({ message: MAP_MSG.layerTypeRequired }) })

export const layerSaveFields = z.object({
  id: idField().optional(),
  name: layerNameField,
  parent_id: idOrZeroField().optional(),
  type: layerTypeField.optional(),
  sort: z.number().int().min(-1_000_000).max(1_000_000).optional(),
  rev: revField(),
})

const layerOptsField = z
  .array(z.string())
  .max(LAYER_PERMISSIONS.length * 2)
  .refine((opts) => opts.every((o) => (LAYER_PERMISSIONS as string[]).includes(o)), MAP_MSG.layerOptsInvalid)

/** layer/save/auth: a member (user_id) or a department (department_id), exactly one of the two. */
export const layerAuthFields = z
  .object({ layer_id: idField(), user_id: idField().optional(), department_id: idField().optional(), opts: layerOptsField })
  .superRefine((v, ctx) => {
    if (v.user_id !== undefined && v.department_id !== undefined) ctx.addIssue({ code: z.ZodIssueCode.custom, message: TEAM_MSG.authTargetBoth })
    if (v.user_id === undefined && v.department_id === undefined) ctx.addIssue({ code: z.ZodIssueCode.custom, message: TEAM_MSG.authTargetRequired })
  })
  .transform((v): LayerAuthInput => (v.user_id !== undefined ? { layer_id: v.layer_id, user_id: v.user_id, opts: v.opts } : { layer_id: v.layer_id, department_id: v.department_id!, opts: v.opts }))

export const layerIdFields = z.object({ id: idField() })

export const layerDeleteFields = z.object({ id: idField(), rev: revField() })

export const layerShowFields = z.object({ ids: idListField(10_000), show: z.boolean() })
