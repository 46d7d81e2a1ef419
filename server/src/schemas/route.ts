/** Zod of /api/route/* (routes/route.ts); the rules are services/routes.ts's and src/domain/routes.ts's. */
import { z } from 'zod'
import { MAP_MSG, MSG } from '../../../src/domain/messages'
import { ROUTE_MSG } from '../../../src/domain/routeMessages'
import { ROUTE_NAME_MAX, ROUTE_STOPS_MAX, TRAVEL_MODES } from '../../../src/domain/routes'
import type { TravelMode } from '../../../types/routes'
import { idField, pageIndexField } from './common'
import { proofField, shareIdField } from './share'

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

export const saveFields = z.object({
  id: idField().optional(),
  name: z.string({ required_error: ROUTE_MSG.nameRequired, invalid_type_error: ROUTE_MSG.nameRequired }).max(200, ROUTE_MSG.nameTooLong(ROUTE_NAME_MAX)),
  mode: modeField,
  stops: stopsField,
})

export const listFields = z.object({
  kw: z.string().trim().max(100).optional(),
  pageindex: pageIndexField(),
  pagesize: z.number().int().min(1).max(ROUTE_LIST_PAGE_MAX, MAP_MSG.pageSizeTooLarge(ROUTE_LIST_PAGE_MAX)).default(20),
})

export const idFields = z.object({ id: idField(ROUTE_MSG.notFound) })

export const planFields = z.object({ mode: modeField, stops: stopsField })

export const shareFields = z.object({ share_id: shareIdField, proof: proofField })
