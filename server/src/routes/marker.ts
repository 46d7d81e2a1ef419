/** /api/marker/*: markers of the caller's group: paged reads, by id, save, delete, search, sync stamps. */
import type { FastifyInstance } from 'fastify'
import type { BBox } from '../../../src/domain/points'
import { deleteMarker, listMarkers, markerStamps, markersWithIds, saveMarker, searchGroupMarkers } from '../services/markers'
import { envelopeOfMarkerPage } from '../envelope'
import { callDefiners, type AppDeps } from './define'
import { deleteFields, getbyidFields, getlistFields, markerSaveFields, searchFields, stampsFields } from '../schemas/marker'

export function markerRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { db, clock } = deps
  const { sessionCall, rawSessionCall } = callDefiners(app, deps)

  // Pages of 5000 are bound by serialisation: the database builds the list's JSON and it goes into the envelope as it is.
  rawSessionCall('/api/marker/getlist', getlistFields, async ({ layer_ids, pageindex, pagesize, after_layer_id, after_id, format }, caller) => {
    const after = after_layer_id !== undefined && after_id !== undefined ? { layer_id: after_layer_id, id: after_id } : undefined
    return envelopeOfMarkerPage(await listMarkers(db.kysely, caller, layer_ids, { pageindex, pagesize }, after, format))
  })

  sessionCall('/api/marker/getbyid', getbyidFields, async ({ ids }, caller) => markersWithIds(db.kysely, caller, ids))

  sessionCall('/api/marker/save', markerSaveFields, async (input, caller) => saveMarker(db, caller, input, clock.now()))

  sessionCall('/api/marker/delete', deleteFields, async ({ id, rev }, caller) => {
    await deleteMarker(db, caller, id, clock.now(), rev)
    return null
  })

  sessionCall('/api/marker/search', searchFields, async ({ kw, layer_ids, bbox, pageindex, pagesize }, caller) =>
    searchGroupMarkers(db.kysely, caller, { kw: kw || undefined, layer_ids, bbox: bbox as BBox | undefined }, { pageindex, pagesize }),
  )

  sessionCall('/api/marker/getlist/ids', stampsFields, async ({ ids }, caller) => markerStamps(db.kysely, caller, ids))
}
