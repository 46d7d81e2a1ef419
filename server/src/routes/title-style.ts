/**
 * /api/system/title/style/*: how marker titles look, per layer, with the group's default for layers
 * without their own (SPEC 3 "Title style": empty layer_id is the default). getlist always includes
 * the default (id 0 while the group has not saved one); getbylayerid answers the effective style
 * of every requested layer the caller sees (id 0 when it is the default's, inherited). Saving the
 * default needs a group manager, a layer's style layer_edit on it; a save replaces the style of
 * its layer_id (the id in the body is not needed).
 */
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import type { TitleStyle } from '../../../types/mapdata'
import { DEFAULT_MARKER_COLOR, DEFAULT_TITLE_FONT_SIZE } from '../../../src/domain/constants'
import { PERM } from '../../../src/domain/permissions'
import { inTransaction } from '../db/connection'
import { findStyleOf, saveStyle, stylesOfGroup, stylesOfLayers, type TitleStyleValues } from '../db/title-styles'
import { presentTitleStyle } from '../presenters/map-extras'
import { mapCaller, requireManager, requireOnLayer, visibleLayers } from '../services/permissions'
import { callDefiners, type AppDeps } from './define'
import { colorField, idField, idOrZeroField, noFields } from '../schemas/common'

/** SPEC 9: title font size 14 in the marker colour #165DFF, on white with a thin border. */
export const DEFAULT_TITLE_STYLE: TitleStyleValues = {
  font_size: DEFAULT_TITLE_FONT_SIZE,
  color: DEFAULT_MARKER_COLOR,
  bg_color: '#FFFFFF',
  padding: 4,
  border_weight: 1,
  border_color: DEFAULT_MARKER_COLOR,
}

const styleSave = z.object({
  id: idOrZeroField().optional(),
  layer_id: idField().nullable().optional(),
  font_size: z.number().int().min(8).max(72).optional(),
  color: colorField.optional(),
  bg_color: colorField.optional(),
  padding: z.number().int().min(0).max(40).optional(),
  border_weight: z.number().int().min(0).max(10).optional(),
  border_color: colorField.optional(),
})

export function titleStyleRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { db } = deps
  const { sessionCall } = callDefiners(app, deps)

  async function defaultStyle(groupId: number): Promise<TitleStyle> {
    const stored = await findStyleOf(db.kysely, groupId, null)
    return stored ? presentTitleStyle(stored) : { id: 0, layer_id: null, ...DEFAULT_TITLE_STYLE }
  }

  sessionCall('/api/system/title/style/getlist', noFields, async (_input, caller) => {
    const who = await mapCaller(db.kysely, caller)
    const visible = new Set((await visibleLayers(db.kysely, who)).map((v) => v.layer.id))
    const layerStyles = (await stylesOfGroup(db.kysely, who.groupId)).filter((s) => s.layer_id !== null && visible.has(s.layer_id))
    return [await defaultStyle(who.groupId), ...layerStyles.map(presentTitleStyle)]
  })

  sessionCall('/api/system/title/style/getbylayerid', z.object({ layerids: z.array(idField()).max(5000) }), async ({ layerids }, caller) => {
    const who = await mapCaller(db.kysely, caller)
    const visible = new Set((await visibleLayers(db.kysely, who)).map((v) => v.layer.id))
    const wanted = [...new Set(layerids)].filter((id) => visible.has(id))
    const own = new Map((await stylesOfLayers(db.kysely, who.groupId, wanted)).map((s) => [s.layer_id, s]))
    const fallback = await defaultStyle(who.groupId)
    return wanted.map((layerId) => {
      const style = own.get(layerId)
      return style ? presentTitleStyle(style) : { ...fallback, id: 0, layer_id: layerId }
    })
  })

  sessionCall('/api/system/title/style/save', styleSave, async (input, caller) => {
    const layerId = input.layer_id ?? null
    const saved = await inTransaction(db, async (trx) => {
      const who = await mapCaller(trx, caller)
      if (layerId === null) requireManager(who)
      else await requireOnLayer(trx, who, layerId, PERM.LAYER_EDIT)
      const base = (await findStyleOf(trx, who.groupId, layerId)) ?? (await findStyleOf(trx, who.groupId, null)) ?? DEFAULT_TITLE_STYLE
      const values: TitleStyleValues = {
        font_size: input.font_size ?? base.font_size,
        color: input.color ?? base.color,
        bg_color: input.bg_color ?? base.bg_color,
        padding: input.padding ?? base.padding,
        border_weight: input.border_weight ?? base.border_weight,
        border_color: input.border_color ?? base.border_color,
      }
      return saveStyle(trx, who.groupId, layerId, values)
    })
    return presentTitleStyle(saved)
  })
}
