/** Zod of /api/marker/*: marker save, paged reads and search. */
import { z } from 'zod'
import { MARKER_PAGE_SIZE } from '../../../src/domain/constants'
import { MAP_MSG, MSG } from '../../../src/domain/messages'
import { MARKER_NAME_MAX } from '../../../src/domain/markers'
import type { MarkerType } from '../../../types/mapdata'
import { idField, idListField, markerPageFormatField, pageIndexField, revField, clientIdField } from './common'

const pageSizeField = (fallback: number) => z.number().int().min(1).max(MARKER_PAGE_SIZE, MAP_MSG.pageSizeTooLarge(MARKER_PAGE_SIZE)).default(fallback)

const markerTypeField = z
  .number({ required_error: MAP_MSG.markerTypeInvalid, invalid_type_error: MAP_MSG.markerTypeInvalid })
  .int(MAP_MSG.markerTypeInvalid)
  .min(0, MAP_MSG.markerTypeInvalid)
  .max(6, MAP_MSG.markerTypeInvalid)
  .transform((t) => t as MarkerType)

export const markerSaveFields = z.object({
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
  rev: revField(),
  client_id: clientIdField(),
})

const coordinate = z.number({ invalid_type_error: MAP_MSG.bboxInvalid }).finite(MAP_MSG.bboxInvalid)
const bboxField = z
  .array(coordinate, { invalid_type_error: MAP_MSG.bboxInvalid })
  .length(4, MAP_MSG.bboxInvalid)
  .refine(([minLng, minLat, maxLng, maxLat]) => minLng <= maxLng && minLat <= maxLat && minLng >= -180 && maxLng <= 180 && minLat >= -90 && maxLat <= 90, MAP_MSG.bboxInvalid)

export const searchFields = z.object({
  kw: z.string().trim().max(100).optional(),
  layer_ids: idListField(10_000).optional(),
  bbox: bboxField.optional(),
  pageindex: pageIndexField(),
  pagesize: pageSizeField(100),
})

// after_layer_id + after_id: the last marker of the page before (keyset paging); pageindex is then not used.
export const getlistFields = z
  .object({
    layer_ids: idListField(10_000),
    pageindex: pageIndexField(),
    pagesize: pageSizeField(MARKER_PAGE_SIZE),
    after_layer_id: idField().optional(),
    after_id: idField().optional(),
    format: markerPageFormatField,
  })
  .refine((f) => (f.after_id === undefined) === (f.after_layer_id === undefined), { message: MSG.badRequest })

export const getbyidFields = z.object({ ids: idListField(MARKER_PAGE_SIZE) })

export const deleteFields = z.object({ id: idField(), rev: revField() })

export const stampsFields = z.object({ ids: idListField(10_000) })
