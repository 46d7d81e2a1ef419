/** /api/marker/datalist, /api/marker/bulk, /api/oplog/restore/batch: the data list of a layer and its bulk actions. */
import type { FastifyInstance } from 'fastify'
import type { BulkRequest } from '../../../types/datalist'
import { bulkEdit, dataListPage, restoreBatch } from '../services/marker-bulk'
import { callDefiners, type AppDeps } from './define'
import { bulkFields, dataListFields, restoreBatchFields } from '../schemas/marker-bulk'

export function markerBulkRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { db, clock } = deps
  const { sessionCall } = callDefiners(app, deps)

  sessionCall('/api/marker/datalist', dataListFields, async (req, caller) => dataListPage(db.kysely, caller, req, clock.now()))

  sessionCall('/api/marker/bulk', bulkFields, async (req, caller) => bulkEdit(db, caller, req as BulkRequest, clock.now()))

  sessionCall('/api/oplog/restore/batch', restoreBatchFields, async ({ batch_id }, caller) => restoreBatch(db, caller, batch_id, clock.now()))
}
