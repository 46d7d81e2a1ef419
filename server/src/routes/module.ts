/**
 * /api/module/*: the permission catalogue (SPEC 3): the ids that can be granted on a layer, and
 * the group-level catalogue (modules and group actions) with the selected group's tier applied
 * (SPEC 6: the free tier lists the VIP modules, locked).
 */
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { TEAM_MSG } from '../../../src/domain/messages'
import { LAYER_PERMISSIONS, PERMISSION_CATALOGUE } from '../../../src/domain/permissions'
import { catalogueForLevel } from '../../../src/domain/teams'
import { mapCaller } from '../services/permissions'
import { callDefiners, type AppDeps } from './define'
import { noFields } from '../schemas/common'

const moduleTypeField = z.union([z.literal(1), z.literal(2)], { errorMap: () => ({ message: TEAM_MSG.moduleTypeInvalid }) })

export function moduleRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { db } = deps
  const { sessionCall } = callDefiners(app, deps)

  // The ids that can be granted on one layer, in catalogue order (what the layer permission editor lists).
  sessionCall('/api/module/getlist/layer', noFields, async () => PERMISSION_CATALOGUE.filter((p) => (LAYER_PERMISSIONS as string[]).includes(p.id)))

  sessionCall('/api/module/getlist', z.object({ type: moduleTypeField }), async ({ type }, caller) => {
    const who = await mapCaller(db.kysely, caller)
    return catalogueForLevel(who.group.level).filter((m) => m.type === type)
  })

  sessionCall('/api/module/getlist/group', noFields, async (_input, caller) => {
    const who = await mapCaller(db.kysely, caller)
    return catalogueForLevel(who.group.level)
  })
}
