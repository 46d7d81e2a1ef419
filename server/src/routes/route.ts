/**
 * /api/route/* (issue 8, RouteApi in types/routes.ts): the group's saved routes for its members
 * (list, one, plan without saving, save, delete) and the public routes of a route share.
 * The map provider that measures legs comes from AMAP_WEB_KEY (services/routes.ts); without it
 * every leg is the straight line with an average-speed estimate.
 */
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { MAP_MSG, MSG } from '../../../src/domain/messages'
import { ROUTE_MSG } from '../../../src/domain/routeMessages'
import { ROUTE_NAME_MAX, ROUTE_STOPS_MAX, TRAVEL_MODES } from '../../../src/domain/routes'
import type { TravelMode } from '../../../types/routes'
import { shareDataIds } from '../presenters/shares'
import { mapCaller } from '../services/permissions'
import { deleteRouteOf, getRoute, legProviderFromEnv, listRoutes, planRoute, routesOfShare, saveRoute } from '../services/routes'
import { openShare, shareSecretSource } from '../services/shares'
import { callDefiners, type AppDeps } from './define'
import { idField, pageIndexField } from '../schemas/common'

/** Routes per page of the list. */
const ROUTE_LIST_PAGE_MAX = 100

const modeField = z
  .string({ required_error: ROUTE_MSG.modeInvalid, invalid_type_error: ROUTE_MSG.modeInvalid })
  .refine((m) => (TRAVEL_MODES as readonly string[]).includes(m), ROUTE_MSG.modeInvalid)
  .transform((m) => m as TravelMode)

const coordinateField = z.number({ invalid_type_error: MSG.badRequest }).finite(MSG.badRequest)

const stopField = z.object({
  marker_id: idField().optional(),
  name: z.string({ invalid_type_error: MSG.badRequest }).max(200, MSG.badRequest).optional(),
  lng: coordinateField.optional(),
  lat: coordinateField.optional(),
})

/** Each stop is a marker or a point with both coordinates; at most ROUTE_STOPS_MAX (too few is the domain's check). */
const stopsField = z
  .array(stopField, { required_error: ROUTE_MSG.stopsTooFew(2), invalid_type_error: ROUTE_MSG.stopsTooFew(2) })
  .max(ROUTE_STOPS_MAX, ROUTE_MSG.stopsTooMany(ROUTE_STOPS_MAX))
  .superRefine((stops, ctx) => {
    stops.forEach((s, i) => {
      if (s.marker_id === undefined && (s.lng === undefined || s.lat === undefined)) ctx.addIssue({ code: z.ZodIssueCode.custom, message: ROUTE_MSG.stopInvalid(i + 1), path: [i] })
    })
  })

const saveFields = z.object({
  id: idField().optional(),
  name: z.string({ required_error: ROUTE_MSG.nameRequired, invalid_type_error: ROUTE_MSG.nameRequired }).max(200, ROUTE_MSG.nameTooLong(ROUTE_NAME_MAX)),
  mode: modeField,
  stops: stopsField,
})

const listFields = z.object({
  kw: z.string().trim().max(100).optional(),
  pageindex: pageIndexField(),
  pagesize: z.number().int().min(1).max(ROUTE_LIST_PAGE_MAX, MAP_MSG.pageSizeTooLarge(ROUTE_LIST_PAGE_MAX)).default(20),
})

export function routeRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { db, clock } = deps
  const { publicCall, sessionCall } = callDefiners(app, deps)
  const provider = legProviderFromEnv(process.env)
  const secret = shareSecretSource(db.kysely, deps.shareSecret, clock)

  sessionCall('/api/route/getlist', listFields, async ({ kw, pageindex, pagesize }, caller) =>
    listRoutes(db.kysely, await mapCaller(db.kysely, caller), kw, { pageindex, pagesize }),
  )

  sessionCall('/api/route/getbyid', z.object({ id: idField(ROUTE_MSG.notFound) }), async ({ id }, caller) => getRoute(db.kysely, await mapCaller(db.kysely, caller), id))

  sessionCall('/api/route/plan', z.object({ mode: modeField, stops: stopsField }), async ({ mode, stops }, caller) =>
    planRoute(db.kysely, provider, await mapCaller(db.kysely, caller), mode, stops),
  )

  sessionCall('/api/route/save', saveFields, async (input, caller) => saveRoute(db, provider, await mapCaller(db.kysely, caller), input, clock.now()))

  sessionCall('/api/route/delete', z.object({ id: idField(ROUTE_MSG.notFound) }), async ({ id }, caller) => {
    await deleteRouteOf(db, await mapCaller(db.kysely, caller), id)
    return null
  })

  publicCall(
    '/api/route/get/share',
    z.object({ share_id: z.string().trim().min(1).max(200), proof: z.string().max(500).nullish() }),
    async ({ share_id, proof }) => {
      const share = await openShare(db.kysely, secret, share_id, proof ?? undefined, clock.now())
      if (share.row.type !== 3) return []
      return routesOfShare(db.kysely, share.row.group_id, shareDataIds(share.row))
    },
  )
}
