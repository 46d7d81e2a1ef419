/**
 * How marker titles look, per layer, with the group's default for layers
 * without their own (SPEC 3 "Title style": empty layer_id is the default). getlist always includes
 * the default (id 0 while the group has not saved one); getbylayerid answers the effective style
 * of every requested layer the caller sees (id 0 when it is the default's, inherited). Saving the
 * default needs a group manager, a layer's style layer_edit on it; a save replaces the style of
 * its layer_id (the id in the body is not needed).
 */
import { ErrCode } from '../../../types/api'
import type { TitleStyle } from '../../../types/mapdata'
import { SYNC_CONFLICT_MSG } from '../../../src/domain/syncMessages'
import { DEFAULT_MARKER_COLOR, DEFAULT_TITLE_FONT_SIZE } from '../../../src/domain/constants'
import { PERM } from '../../../src/domain/permissions'
import type { Caller } from '../auth'
import { inTransaction, type Database, type Executor } from '../db/connection'
import { findStyleOf, saveStyle, stylesOfGroup, stylesOfLayers, type TitleStyleValues } from '../db/title-styles'
import { BusinessError } from '../envelope'
import { presentTitleStyle } from '../presenters/map-extras'
import { logChanges } from './sync'
import { mapCaller, requireManager, requireOnLayer, visibleLayers } from './permissions'

/** SPEC 9: title font size 14 in the marker colour #165DFF, on white with a thin border. */
export const DEFAULT_TITLE_STYLE: TitleStyleValues = {
  font_size: DEFAULT_TITLE_FONT_SIZE,
  color: DEFAULT_MARKER_COLOR,
  bg_color: '#FFFFFF',
  padding: 4,
  border_weight: 1,
  border_color: DEFAULT_MARKER_COLOR,
}

export interface TitleStyleInput {
  layer_id?: number | null
  font_size?: number
  color?: string
  bg_color?: string
  padding?: number
  border_weight?: number
  border_color?: string
  /** The revision the edit started from (types/sync.ts): the layer's own style's, or the default's that it showed. */
  rev?: number
}

/**
 * A stale `rev` is refused with the style as the caller reads it now. A layer without its own style
 * shows the default's (getbylayerid), so the rev the client holds is the default's then.
 */
async function requireStyleRev(trx: Executor, groupId: number, layerId: number | null, rev: number | undefined): Promise<void> {
  if (rev === undefined) return
  const own = await findStyleOf(trx, groupId, layerId, { lock: true })
  const shown = own ? presentTitleStyle(own) : layerId === null ? await defaultStyle(trx, groupId) : { ...(await defaultStyle(trx, groupId)), id: 0, layer_id: layerId }
  if (shown.rev !== rev) throw new BusinessError(ErrCode.CONFLICT, SYNC_CONFLICT_MSG.titleStyleChanged, shown)
}

async function defaultStyle(db: Executor, groupId: number): Promise<TitleStyle> {
  const stored = await findStyleOf(db, groupId, null)
  return stored ? presentTitleStyle(stored) : { id: 0, layer_id: null, ...DEFAULT_TITLE_STYLE, rev: 0 }
}

export async function titleStylesOf(db: Executor, caller: Caller): Promise<TitleStyle[]> {
  const who = await mapCaller(db, caller)
  const visible = new Set((await visibleLayers(db, who)).map((v) => v.layer.id))
  const layerStyles = (await stylesOfGroup(db, who.groupId)).filter((s) => s.layer_id !== null && visible.has(s.layer_id))
  return [await defaultStyle(db, who.groupId), ...layerStyles.map(presentTitleStyle)]
}

export async function titleStylesOfLayers(db: Executor, caller: Caller, layerids: number[]): Promise<TitleStyle[]> {
  const who = await mapCaller(db, caller)
  const visible = new Set((await visibleLayers(db, who)).map((v) => v.layer.id))
  const wanted = [...new Set(layerids)].filter((id) => visible.has(id))
  const own = new Map((await stylesOfLayers(db, who.groupId, wanted)).map((s) => [s.layer_id, s]))
  const fallback = await defaultStyle(db, who.groupId)
  return wanted.map((layerId) => {
    const style = own.get(layerId)
    return style ? presentTitleStyle(style) : { ...fallback, id: 0, layer_id: layerId }
  })
}

export async function saveTitleStyle(db: Database, caller: Caller, input: TitleStyleInput, now: Date): Promise<TitleStyle> {
  const layerId = input.layer_id ?? null
  const saved = await inTransaction(db, async (trx) => {
    const who = await mapCaller(trx, caller)
    if (layerId === null) requireManager(who)
    else await requireOnLayer(trx, who, layerId, PERM.LAYER_EDIT)
    await requireStyleRev(trx, who.groupId, layerId, input.rev)
    const base = (await findStyleOf(trx, who.groupId, layerId)) ?? (await findStyleOf(trx, who.groupId, null)) ?? DEFAULT_TITLE_STYLE
    const values: TitleStyleValues = {
      font_size: input.font_size ?? base.font_size,
      color: input.color ?? base.color,
      bg_color: input.bg_color ?? base.bg_color,
      padding: input.padding ?? base.padding,
      border_weight: input.border_weight ?? base.border_weight,
      border_color: input.border_color ?? base.border_color,
    }
    const row = await saveStyle(trx, who.groupId, layerId, values)
    await logChanges(trx, who.groupId, [{ kind: 'title_style', id: row.id, op: 'upsert', rev: row.rev, layer_id: row.layer_id ?? 0 }], now.toISOString())
    return row
  })
  return presentTitleStyle(saved)
}
