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
import { pageOfLog, restoreLogged } from '../services/oplog'
import { listQuery, restoreFields } from '../schemas/oplog'
import { callDefiners, type AppDeps } from './define'

export function oplogRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { db, clock } = deps
  const { sessionCall } = callDefiners(app, deps)

  sessionCall('/api/oplog/getlist', listQuery, async (query, caller) => pageOfLog(db.kysely, caller, query))

  sessionCall('/api/oplog/restore', restoreFields, async ({ id }, caller) => {
    await restoreLogged(db, caller, id, clock.now())
    return null
  })
}
