/** Zod of the data list: a layer's list page, a bulk action on its markers, and restoring a bulk action. */
import { z } from 'zod'
import { BULK_MAX, BULK_MAX_IDS, DATA_LIST_PAGE_SIZE } from '../../../src/domain/dataList'
import { DATA_LIST_MSG } from '../../../src/domain/dataListMessages'
import { MARKER_PAGE_SIZE } from '../../../src/domain/constants'
import { MAP_MSG, MSG } from '../../../src/domain/messages'
import type { DataListSortKey } from '../../../types/datalist'
import { idField, ID_MAX, pageIndexField } from './common'

const DATE = /^\d{4}-\d{2}-\d{2}$/
const finite = z.number().finite()
const filterField = z.discriminatedUnion('op', [
  z.object({ field_id: idField(), op: z.literal('in'), values: z.array(z.string().max(200)).min(1).max(100) }),
  z.object({ field_id: idField(), op: z.literal('range'), min: finite.optional(), max: finite.optional() }),
  z.object({ field_id: idField(), op: z.literal('dates'), from: z.string().regex(DATE).optional(), to: z.string().regex(DATE).optional() }),
  z.object({ field_id: idField(), op: z.literal('contains'), text: z.string().max(100) }),
  z.object({ field_id: idField(), op: z.literal('empty') }),
  z.object({ field_id: idField(), op: z.literal('not_empty') }),
])

const sortKeyField = z
  .string()
  .regex(/^(name|notes|edited_at|editor|field:\d{1,10})$/, DATA_LIST_MSG.sortUnknown)
  .transform((k) => k as DataListSortKey)

const queryField = z
  .object({
    kw: z.string().trim().max(100).optional(),
    filters: z.array(filterField).max(50).optional(),
    sort: z.object({ key: sortKeyField, dir: z.enum(['asc', 'desc']) }).optional(),
  })
  .default({})

export const dataListFields = z.object({
  layer_id: idField(),
  query: queryField,
  pageindex: pageIndexField(),
  pagesize: z.number().int().min(1).max(MARKER_PAGE_SIZE, MAP_MSG.pageSizeTooLarge(MARKER_PAGE_SIZE)).default(DATA_LIST_PAGE_SIZE),
})

const fieldValue = z.union([z.string().max(1000), z.number().finite(), z.array(z.string().max(1000)).max(9), z.null()])

const actionField = z.discriminatedUnion('action', [
  z.object({ action: z.literal('set_field'), field_id: idField(DATA_LIST_MSG.pickField), value: fieldValue }),
  z.object({ action: z.literal('set_style'), style: z.object({ color: z.string().optional(), icon: z.string().optional(), size: z.number().finite().optional() }) }),
  z.object({ action: z.literal('move'), to_layer_id: idField(DATA_LIST_MSG.pickLayer) }),
  z.object({ action: z.literal('delete') }),
])

const itemsTarget = z.object({
  items: z
    .array(z.object({ id: idField(), rev: z.number().int().min(1).max(ID_MAX) }))
    .min(1, DATA_LIST_MSG.pickSomething)
    .max(BULK_MAX_IDS, DATA_LIST_MSG.tooMany(BULK_MAX_IDS)),
})
const queryTarget = z.object({
  query: queryField,
  except_ids: z.array(idField()).max(BULK_MAX).optional(),
  listed_at: z.string().datetime({ message: MSG.badRequest }),
})

// zod's intersection of unions keeps every key of both sides.
export const bulkFields = z.intersection(z.object({ layer_id: idField() }), z.intersection(actionField, z.union([itemsTarget, queryTarget])))

export const restoreBatchFields = z.object({ batch_id: z.string().trim().min(1).max(64) })
