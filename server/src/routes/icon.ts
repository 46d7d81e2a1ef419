/**
 * /api/system/get/icon, save/icon, delete/icon: the group's custom point icons. Every member sees
 * them (markers use them); group managers add, rename and delete. The image itself is uploaded
 * first through /api/system/upload (type 'icon'); deleting an icon keeps the file, which markers
 * may still show.
 */
import type { FastifyInstance } from 'fastify'
import { iconsOf, removeIcon, saveIcon } from '../services/icon'
import { iconDeleteFields, iconSave } from '../schemas/icon'
import { noFields } from '../schemas/common'
import { callDefiners, type AppDeps } from './define'

export function iconRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { db, clock } = deps
  const { sessionCall } = callDefiners(app, deps)

  sessionCall('/api/system/get/icon', noFields, async (_input, caller) => iconsOf(db.kysely, caller))

  sessionCall('/api/system/save/icon', iconSave, async (input, caller) => saveIcon(db, caller, input, clock.now()))

  sessionCall('/api/system/delete/icon', iconDeleteFields, async ({ id }, caller) => {
    await removeIcon(db, caller, id)
    return null
  })
}
