/**
 * /api/route/* (RouteApi in types/routes.ts): the group's saved routes for its members
 * (list, one, plan without saving, save, delete) and the public routes of a route share.
 * The map provider that measures legs comes from AMAP_WEB_KEY (services/routes.ts); without it
 * every leg is the straight line with an average-speed estimate.
 */
import type { FastifyInstance } from 'fastify'
import { deleteRouteOf, getRoute, legProviderFromEnv, listRoutes, planRoute, saveRoute } from '../services/routes'
import { routesOfOpenedShare, shareSecretSource } from '../services/shares'
import { callDefiners, type AppDeps } from './define'
import { idFields, listFields, planFields, saveFields, shareFields } from '../schemas/route'

export function routeRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { db, clock } = deps
  const { publicCall, sessionCall } = callDefiners(app, deps)
  const provider = legProviderFromEnv(process.env)
  const secret = shareSecretSource(db.kysely, deps.shareSecret, clock)

  sessionCall('/api/route/getlist', listFields, async ({ kw, pageindex, pagesize }, caller) => listRoutes(db.kysely, caller, kw, { pageindex, pagesize }))

  sessionCall('/api/route/getbyid', idFields, async ({ id }, caller) => getRoute(db.kysely, caller, id))

  sessionCall('/api/route/plan', planFields, async ({ mode, stops }, caller) => planRoute(db.kysely, provider, caller, mode, stops))

  sessionCall('/api/route/save', saveFields, async (input, caller) => saveRoute(db, provider, caller, input, clock.now()))

  sessionCall('/api/route/delete', idFields, async ({ id }, caller) => {
    await deleteRouteOf(db, caller, id)
    return null
  })

  publicCall('/api/route/get/share', shareFields, async ({ share_id, proof }) => routesOfOpenedShare(db.kysely, secret, share_id, proof ?? undefined, clock.now()))
}
