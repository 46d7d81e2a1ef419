/** Repository of the layer_settings table: whether a user shows a layer on their map (default shown). */
import type { Executor } from './connection'

export interface LayerSettingsTable {
  user_id: number
  layer_id: number
  show: number
}

declare module './schema' {
  interface Tables {
    layer_settings: LayerSettingsTable
  }
}

/** The layers this user has hidden (every other layer is shown). */
export async function hiddenLayerIds(db: Executor, userId: number): Promise<Set<number>> {
  const rows = await db.selectFrom('layer_settings').select('layer_id').where('user_id', '=', userId).where('show', '=', 0).execute()
  return new Set(rows.map((r) => r.layer_id))
}

export async function saveShow(db: Executor, userId: number, layerIds: number[], show: boolean): Promise<void> {
  if (layerIds.length === 0) return
  await db
    .insertInto('layer_settings')
    .values(layerIds.map((layer_id) => ({ user_id: userId, layer_id, show: show ? 1 : 0 })))
    .onConflict((oc) => oc.columns(['user_id', 'layer_id']).doUpdateSet({ show: show ? 1 : 0 }))
    .execute()
}

export async function deleteSettingsOfGroups(db: Executor, groupIds: number[]): Promise<void> {
  if (groupIds.length === 0) return
  await db
    .deleteFrom('layer_settings')
    .where('layer_id', 'in', (eb) => eb.selectFrom('layers').select('id').where('group_id', 'in', groupIds))
    .execute()
}
