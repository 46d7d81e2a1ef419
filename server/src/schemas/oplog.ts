/** Zod of /api/oplog/*: the log's filters and paging, and the entry to restore. */
import { z } from 'zod'
import type { OpAction, OpEntity } from '../../../types/mapdata'
import { idField, pageIndexField } from './common'

/** A page of the log checks each delete on it, so pages stay modest. */
export const OPLOG_PAGE_MAX = 200

const ENTITIES: [OpEntity, ...OpEntity[]] = ['layer', 'marker', 'note', 'field']
const ACTIONS: [OpAction, ...OpAction[]] = ['create', 'update', 'delete', 'restore']

export const listQuery = z.object({
  pageindex: pageIndexField(),
  pagesize: z.number().int().positive().max(OPLOG_PAGE_MAX).default(20),
  entity: z.enum(ENTITIES).optional(),
  action: z.enum(ACTIONS).optional(),
  user_id: idField().optional(),
  kw: z.string().trim().max(50).optional(),
})

export const restoreFields = z.object({ id: idField() })
