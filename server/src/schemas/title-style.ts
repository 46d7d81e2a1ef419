/** Zod of /api/system/title/style/*: how marker titles look, per layer and the group's default. */
import { z } from 'zod'
import { colorField, idField, idOrZeroField, revField } from './common'

export const styleSave = z.object({
  id: idOrZeroField().optional(),
  layer_id: idField().nullable().optional(),
  font_size: z.number().int().min(8).max(72).optional(),
  color: colorField.optional(),
  bg_color: colorField.optional(),
  padding: z.number().int().min(0).max(40).optional(),
  border_weight: z.number().int().min(0).max(10).optional(),
  border_color: colorField.optional(),
  rev: revField(),
})

export const styleByLayerFields = z.object({ layerids: z.array(idField()).max(5000) })
