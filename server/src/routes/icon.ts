/**
 * /api/system/get/icon, save/icon, delete/icon: the group's custom point icons. Every member sees
 * them (markers use them); group managers add, rename and delete. The image itself is uploaded
 * first through /api/system/upload (type 'icon'); deleting an icon keeps the file, which markers
 * may still show.
 */
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { MAP_IO_MSG } from '../../../src/domain/messages'
import { FILE_URL_MSG } from '../../../src/domain/systemMessages'
import { inTransaction } from '../db/connection'
import { deleteIcon, findIcon, iconsOfGroup, insertIcon, updateIcon } from '../db/icons'
import { presentIcon } from '../presenters/map-extras'
import { mapCaller, notFound, requireManager } from '../services/permissions'
import { callDefiners, type AppDeps } from './define'
import { fileUrlField, idField, noFields } from '../schemas/common'

export const ICON_NAME_MAX = 20

const iconSave = z.object({
  id: idField().optional(),
  name: z.string({ required_error: MAP_IO_MSG.iconNameRequired }).trim().min(1, MAP_IO_MSG.iconNameRequired).max(ICON_NAME_MAX),
  url: z.string({ required_error: MAP_IO_MSG.iconUrlRequired }).trim().min(1, MAP_IO_MSG.iconUrlRequired).pipe(fileUrlField(FILE_URL_MSG.icon)),
})

export function iconRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { db, clock } = deps
  const { sessionCall } = callDefiners(app, deps)

  sessionCall('/api/system/get/icon', noFields, async (_input, caller) => {
    const who = await mapCaller(db.kysely, caller)
    return (await iconsOfGroup(db.kysely, who.groupId)).map(presentIcon)
  })

  sessionCall('/api/system/save/icon', iconSave, async ({ id, name, url }, caller) => {
    const saved = await inTransaction(db, async (trx) => {
      const who = await mapCaller(trx, caller)
      requireManager(who)
      if (!id) return insertIcon(trx, { group_id: who.groupId, name, url, created_by: who.userId, created_at: clock.now().toISOString() })
      if (!(await findIcon(trx, who.groupId, id))) throw notFound()
      return updateIcon(trx, id, { name, url })
    })
    return presentIcon(saved)
  })

  sessionCall('/api/system/delete/icon', z.object({ id: idField() }), async ({ id }, caller) => {
    await inTransaction(db, async (trx) => {
      const who = await mapCaller(trx, caller)
      requireManager(who)
      if (!(await findIcon(trx, who.groupId, id))) throw notFound()
      await deleteIcon(trx, id)
    })
    return null
  })
}
