/**
 * /api/oplog/*: the group's operation log, newest first with filters, and restoring what a delete
 * took away (a layer with everything deleted with it, a marker, a note, a field).
 *
 * Who: reading and restoring need the log feature (moduleGate.ts FEATURES.log: the log module and
 * the oplog permission, as the app's menu and /oplog page decide): the administrator, group
 * managers and members holding both through roles.
 * A delete is restorable while it is the entity's current state: the entity is still deleted and
 * its deleted_at is this entry's time (a later restore and delete make the later entry the one).
 */
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { ErrCode } from '../../../types/api'
import type { OpAction, OpEntity } from '../../../types/mapdata'
import { MAP_MSG } from '../../../src/domain/messages'
import { FEATURES } from '../../../src/domain/moduleGate'
import { inTransaction, type Executor } from '../db/connection'
import { findFieldByName, findFieldEvenDeleted, restoreField } from '../db/fields'
import { findLayer, findLayerEvenDeleted } from '../db/layers'
import { findMarker, findMarkerEvenDeleted, nicknamesOf } from '../db/markers'
import { findNoteEvenDeleted, restoreNote } from '../db/notes'
import { findOp, pageOfOps, recordOp, type OplogRow } from '../db/oplog'
import { BusinessError } from '../envelope'
import { noteLogName, presentNote } from '../presenters/map-extras'
import { presentOp } from '../presenters/mapdata'
import { restoreLayer } from '../services/layers'
import { restoreMarker } from '../services/markers'
import { mapCaller, notFound, requireFeature, type MapCaller } from '../services/permissions'
import { callDefiners, type AppDeps } from './define'
import { logField } from './field'
import { idField, pageIndexField } from '../schemas/common'

/** A page of the log checks each delete on it, so pages stay modest. */
export const OPLOG_PAGE_MAX = 200

const ENTITIES: [OpEntity, ...OpEntity[]] = ['layer', 'marker', 'note', 'field']
const ACTIONS: [OpAction, ...OpAction[]] = ['create', 'update', 'delete', 'restore']

const listQuery = z.object({
  pageindex: pageIndexField(),
  pagesize: z.number().int().positive().max(OPLOG_PAGE_MAX).default(20),
  entity: z.enum(ENTITIES).optional(),
  action: z.enum(ACTIONS).optional(),
  user_id: idField().optional(),
  kw: z.string().trim().max(50).optional(),
})

function requireLogReader(who: MapCaller): void {
  requireFeature(who, FEATURES.log)
}

/** When the entity was deleted, if it still is (undefined when it is live or unknown). */
async function deletedAtOf(db: Executor, groupId: number, entity: string, id: number): Promise<string | null | undefined> {
  switch (entity) {
    case 'layer':
      return (await findLayerEvenDeleted(db, groupId, id))?.deleted_at
    case 'marker':
      return (await findMarkerEvenDeleted(db, groupId, id))?.deleted_at
    case 'note':
      return (await findNoteEvenDeleted(db, groupId, id))?.deleted_at
    case 'field':
      return (await findFieldEvenDeleted(db, groupId, id))?.deleted_at
    default:
      return undefined
  }
}

async function isRestorable(db: Executor, op: OplogRow): Promise<boolean> {
  return op.action === 'delete' && (await deletedAtOf(db, op.group_id, op.entity, op.entity_id)) === op.at
}

export function oplogRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { db, clock } = deps
  const { sessionCall } = callDefiners(app, deps)

  sessionCall('/api/oplog/getlist', listQuery, async ({ pageindex, pagesize, ...filter }, caller) => {
    const who = await mapCaller(db.kysely, caller)
    requireLogReader(who)
    const { rows, total } = await pageOfOps(db.kysely, who.groupId, { ...filter, kw: filter.kw || undefined }, { pageindex, pagesize })
    const names = await nicknamesOf(db.kysely, rows.map((r) => r.user_id))
    const list = []
    for (const row of rows) list.push(presentOp(row, names.get(row.user_id) ?? '', await isRestorable(db.kysely, row)))
    return { list, total }
  })

  sessionCall('/api/oplog/restore', z.object({ id: idField() }), async ({ id }, caller) => {
    const now = clock.now()
    await inTransaction(db, async (trx) => {
      const who = await mapCaller(trx, caller)
      requireLogReader(who)
      const op = await findOp(trx, who.groupId, id)
      if (!op) throw notFound()
      if (!(await isRestorable(trx, op))) throw new BusinessError(ErrCode.CONFLICT, MAP_MSG.restoreNotPossible)
      switch (op.entity) {
        case 'layer':
          await restoreLayer(trx, who, op.entity_id, now)
          break
        case 'marker':
          await restoreMarker(trx, who, op.entity_id, now)
          break
        case 'note':
          await restoreDeletedNote(trx, who, op.entity_id, now.toISOString())
          break
        case 'field':
          await restoreDeletedField(trx, who, op.entity_id, now.toISOString())
          break
        default:
          throw new BusinessError(ErrCode.CONFLICT, MAP_MSG.restoreNotPossible)
      }
    })
    return null
  })
}

/** A note comes back only onto a live marker. */
async function restoreDeletedNote(trx: Executor, who: MapCaller, id: number, at: string): Promise<void> {
  const note = await findNoteEvenDeleted(trx, who.groupId, id)
  if (!note || !(await findMarker(trx, who.groupId, note.marker_id))) throw new BusinessError(ErrCode.CONFLICT, MAP_MSG.restoreNotPossible)
  const row = await restoreNote(trx, id, at)
  const name = (await nicknamesOf(trx, [row.user_id])).get(row.user_id) ?? ''
  await recordOp(trx, { group_id: who.groupId, user_id: who.userId, entity: 'note', entity_id: id, action: 'restore', name: noteLogName(row), before: null, after: presentNote(row, name), at })
}

/** A field comes back only onto a live layer, and not while another live field has its name. */
async function restoreDeletedField(trx: Executor, who: MapCaller, id: number, at: string): Promise<void> {
  const field = await findFieldEvenDeleted(trx, who.groupId, id)
  if (!field || !(await findLayer(trx, who.groupId, field.layer_id))) throw new BusinessError(ErrCode.CONFLICT, MAP_MSG.restoreNotPossible)
  if (await findFieldByName(trx, field.layer_id, field.name, field.id)) throw new BusinessError(ErrCode.CONFLICT, MAP_MSG.fieldNameDuplicate)
  const row = await restoreField(trx, id)
  await logField(trx, who, 'restore', null, row, at)
}
