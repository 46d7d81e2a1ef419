/**
 * /api/layer/field/*: the custom fields of a layer (text, number, date, choice, phone, photo).
 * Reading needs sight of the layer; changing needs layer_field on it. Names are unique among a
 * layer's live fields. Create, update and delete are logged (restorable); a reorder is not.
 * Deleting a field leaves the markers' values in place (hidden), so a restore brings them back.
 */
import type { FastifyInstance } from 'fastify'
import { deleteField, fieldsOfLayer, saveField, sortFields } from '../services/field'
import { fieldDeleteFields, fieldListFields, fieldSave, fieldSortFields } from '../schemas/field'
import { callDefiners, type AppDeps } from './define'

// Kept here for test/server/field.test.ts, which imports it from this file; it lives in schemas/field.ts.
export { FIELD_NAME_MAX } from '../schemas/field'

export function fieldRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { db, clock } = deps
  const { sessionCall } = callDefiners(app, deps)

  sessionCall('/api/layer/field/getlist', fieldListFields, async ({ layer_id }, caller) => fieldsOfLayer(db, caller, layer_id))

  sessionCall('/api/layer/field/save', fieldSave, async (input, caller) => saveField(db, caller, input, clock.now()))

  sessionCall('/api/layer/field/delete', fieldDeleteFields, async ({ id, rev }, caller) => {
    await deleteField(db, caller, id, clock.now(), rev)
    return null
  })

  sessionCall('/api/layer/field/sort', fieldSortFields, async ({ layer_id, ids }, caller) => sortFields(db, caller, layer_id, ids, clock.now()))
}
