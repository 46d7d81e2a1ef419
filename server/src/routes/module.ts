/**
 * /api/module/*: the permission catalogue (SPEC 3): the ids that can be granted on a layer, and
 * the group-level catalogue (modules and group actions) with the selected group's tier applied
 * (SPEC 6: the free tier lists the VIP modules, locked).
 */
import type { FastifyInstance } from 'fastify'
import { groupCatalogue, layerPermissionCatalogue, modulesOfType } from '../services/module'
import { moduleListFields } from '../schemas/module'
import { noFields } from '../schemas/common'
import { callDefiners, type AppDeps } from './define'

export function moduleRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { db } = deps
  const { sessionCall } = callDefiners(app, deps)

  sessionCall('/api/module/getlist/layer', noFields, async () => layerPermissionCatalogue())

  sessionCall('/api/module/getlist', moduleListFields, async ({ type }, caller) => modulesOfType(db.kysely, caller, type))

  sessionCall('/api/module/getlist/group', noFields, async (_input, caller) => groupCatalogue(db.kysely, caller))
}
