/** /api/marker/*: markers of the caller's group: paged reads, by id, save, delete, search, sync stamps. */
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { MARKER_PAGE_SIZE } from '../../../src/domain/constants'
import { MAP_MSG } from '../../../src/domain/messages'
import { MARKER_NAME_MAX } from '../../../src/domain/markers'
import type { BBox } from '../../../src/domain/points'
import type { MarkerType } from '../../../types/mapdata'
import { deleteMarker, listMarkers, markerStamps, markersWithIds, saveMarker, searchGroupMarkers } from '../services/markers'
import { mapCaller } from '../services/permissions'
import { authenticate } from '../auth'
import { ok } from '../envelope'
import { callDefiners, validate, type AppDeps } from './define'
import { idField, idListField, pageIndexField } from '../schemas/common'

const pageSizeField = (fallback: number) =>
  z
    .number()
    .int()
    .min(1)
    .max(MARKER_PAGE_SIZE, MAP_MSG.pageSizeTooLarge(MARKER_PAGE_SIZE))
    .default(fallback)

const markerTypeField = z
  .number({ required_error: MAP_MSG.markerTypeInvalid, invalid_type_error: MAP_MSG.markerTypeInvalid })
  .int(MAP_MSG.markerTypeInvalid)
  .min(0, MAP_MSG.markerTypeInvalid)
  .max(6, MAP_MSG.markerTypeInvalid)
  .transform((t) => t as MarkerType)

const markerSaveFields = z.object({
  id: idField().optional(),
  layer_id: idField(),
  name: z
    .string({ required_error: MAP_MSG.markerNameRequired, invalid_type_error: MAP_MSG.markerNameRequired })
    .trim()
    .min(1, MAP_MSG.markerNameRequired)
    .max(MARKER_NAME_MAX, MAP_MSG.markerNameTooLong(MARKER_NAME_MAX)),
  type: markerTypeField,
  points: z.string({ required_error: MAP_MSG.pointsRequired, invalid_type_error: MAP_MSG.pointsRequired }).max(500_000),
  style: z.record(z.unknown()).optional(),
  width: z.number().positive().max(200).optional(),
  radius: z.number().min(0).max(20_000_000).optional(),
  sort: z.number().int().min(-1_000_000).max(1_000_000).optional(),
  fields: z.record(z.unknown()).optional(),
})

const coordinate = z.number({ invalid_type_error: MAP_MSG.bboxInvalid }).finite(MAP_MSG.bboxInvalid)
const bboxField = z
  .array(coordinate, { invalid_type_error: MAP_MSG.bboxInvalid })
  .length(4, MAP_MSG.bboxInvalid)
  .refine(([minLng, minLat, maxLng, maxLat]) => minLng <= maxLng && minLat <= maxLat && minLng >= -180 && maxLng <= 180 && minLat >= -90 && maxLat <= 90, MAP_MSG.bboxInvalid)

const searchFields = z.object({
  kw: z.string().trim().max(100).optional(),
  layer_ids: idListField(10_000).optional(),
  bbox: bboxField.optional(),
  pageindex: pageIndexField(),
  pagesize: pageSizeField(100),
})

const LIST_SLOT = '__list_json__'

/** The envelope of {list, total} with the list's JSON bytes put in place of a placeholder (no parse, no second serialisation). */
export function envelopeWithRawList(listJson: Buffer, total: number): Buffer {
  const envelope = JSON.stringify(ok({ list: LIST_SLOT, total }))
  const slot = JSON.stringify(LIST_SLOT)
  const at = envelope.indexOf(slot)
  return Buffer.concat([Buffer.from(envelope.slice(0, at)), listJson, Buffer.from(envelope.slice(at + slot.length))])
}

/** The body's header and the call's fields beside it (as sessionCall splits them). */
function splitBody(body: unknown): { header: unknown; fields: unknown } {
  if (body === undefined || body === null) return { header: undefined, fields: {} }
  if (typeof body !== 'object' || Array.isArray(body)) return { header: undefined, fields: body }
  const { header, ...fields } = body as Record<string, unknown>
  return { header, fields }
}

export function markerRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { db, clock } = deps
  const { sessionCall } = callDefiners(app, deps)

  // Pages of 5000 are bound by serialisation: the database builds the list's JSON and it goes into the envelope as it is.
  const getlistFields = z.object({ layer_ids: idListField(10_000), pageindex: pageIndexField(), pagesize: pageSizeField(MARKER_PAGE_SIZE) })
  app.post('/api/marker/getlist', async (request, reply) => {
    const { header, fields } = splitBody(request.body)
    const caller = await authenticate(db, header, clock.now())
    const { layer_ids, pageindex, pagesize } = validate(getlistFields, fields)
    const page = await listMarkers(db.kysely, await mapCaller(db.kysely, caller), layer_ids, { pageindex, pagesize })
    return reply.type('application/json; charset=utf-8').send(envelopeWithRawList(page.listJson, page.total))
  })

  sessionCall('/api/marker/getbyid', z.object({ ids: idListField(MARKER_PAGE_SIZE) }), async ({ ids }, caller) =>
    markersWithIds(db.kysely, await mapCaller(db.kysely, caller), ids),
  )

  sessionCall('/api/marker/save', markerSaveFields, async (input, caller) => saveMarker(db, await mapCaller(db.kysely, caller), input, clock.now()))

  sessionCall('/api/marker/delete', z.object({ id: idField() }), async ({ id }, caller) => {
    await deleteMarker(db, await mapCaller(db.kysely, caller), id, clock.now())
    return null
  })

  sessionCall('/api/marker/search', searchFields, async ({ kw, layer_ids, bbox, pageindex, pagesize }, caller) =>
    searchGroupMarkers(db.kysely, await mapCaller(db.kysely, caller), { kw: kw || undefined, layer_ids, bbox: bbox as BBox | undefined }, { pageindex, pagesize }),
  )

  sessionCall('/api/marker/getlist/ids', z.object({ ids: idListField(10_000) }), async ({ ids }, caller) => markerStamps(db.kysely, await mapCaller(db.kysely, caller), ids))
}
