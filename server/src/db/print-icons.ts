/** The point icons a print draws: the distinct icon addresses of the live markers in some layers (print.ts reads their files). */
import { sql } from 'kysely'
import type { Executor } from './connection'
import { dialectOf } from './markers'

/** At most this many distinct icons are read for one print (a sheet of more would not tell them apart). */
export const PRINT_ICONS_MAX = 100

export async function iconsOfLayers(db: Executor, groupId: number, layerIds: number[]): Promise<string[]> {
  if (!layerIds.length) return []
  const icon = dialectOf(db) === 'postgres' ? sql<string | null>`(style::json ->> 'icon')` : sql<string | null>`json_extract(style, '$.icon')`
  const rows = await db
    .selectFrom('markers')
    .select(icon.as('icon'))
    .distinct()
    .where('group_id', '=', groupId)
    .where('layer_id', 'in', layerIds)
    .where('deleted_at', 'is', null)
    .where('type', '=', 0)
    .where(icon, 'is not', null)
    .limit(PRINT_ICONS_MAX)
    .execute()
  return rows.flatMap((r) => (typeof r.icon === 'string' && r.icon ? [r.icon] : []))
}
