/**
 * The group's custom point icons. Every member sees them (markers use them); group managers add,
 * rename and delete. Deleting an icon keeps the file, which markers may still show.
 */
import type { Icon } from '../../../types/mapdata'
import type { Caller } from '../auth'
import { inTransaction, type Database, type Executor } from '../db/connection'
import { deleteIcon, findIcon, iconsOfGroup, insertIcon, updateIcon } from '../db/icons'
import { presentIcon } from '../presenters/map-extras'
import { mapCaller, notFound, requireManager } from './permissions'

export async function iconsOf(db: Executor, caller: Caller): Promise<Icon[]> {
  const who = await mapCaller(db, caller)
  return (await iconsOfGroup(db, who.groupId)).map(presentIcon)
}

export async function saveIcon(db: Database, caller: Caller, { id, name, url }: { id?: number; name: string; url: string }, now: Date): Promise<Icon> {
  const saved = await inTransaction(db, async (trx) => {
    const who = await mapCaller(trx, caller)
    requireManager(who)
    if (!id) return insertIcon(trx, { group_id: who.groupId, name, url, created_by: who.userId, created_at: now.toISOString() })
    if (!(await findIcon(trx, who.groupId, id))) throw notFound()
    return updateIcon(trx, id, { name, url })
  })
  return presentIcon(saved)
}

export async function removeIcon(db: Database, caller: Caller, id: number): Promise<void> {
  await inTransaction(db, async (trx) => {
    const who = await mapCaller(trx, caller)
    requireManager(who)
    if (!(await findIcon(trx, who.groupId, id))) throw notFound()
    await deleteIcon(trx, id)
  })
}
