/** /api/layer/*: the layer tree of the caller's group, its changes, show flags and member permissions. */
import type { FastifyInstance } from 'fastify'
import { deleteLayer, listLayers, saveLayer, saveLayerAuth, setDefaultLayer, setLayersShown } from '../services/layers'
import { noFields } from '../schemas/common'
import { layerAuthFields, layerDeleteFields, layerIdFields, layerSaveFields, layerShowFields } from '../schemas/layer'
import { callDefiners, type AppDeps } from './define'

export function layerRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { db, clock } = deps
  const { sessionCall } = callDefiners(app, deps)

  sessionCall('/api/layer/getlist', noFields, async (_input, caller) => listLayers(db.kysely, caller))

  sessionCall('/api/layer/save', layerSaveFields, async (input, caller) => saveLayer(db, caller, input, clock.now()))

  sessionCall('/api/layer/delete', layerDeleteFields, async ({ id, rev }, caller) => deleteLayer(db, caller, id, clock.now(), rev))

  sessionCall('/api/layer/setting/default', layerIdFields, async ({ id }, caller) => {
    await setDefaultLayer(db, caller, id, clock.now())
    return null
  })

  sessionCall('/api/layer/setting/show', layerShowFields, async ({ ids, show }, caller) => {
    await setLayersShown(db, caller, ids, show)
    return null
  })

  sessionCall('/api/layer/save/auth', layerAuthFields, async (input, caller) => {
    await saveLayerAuth(db, caller, input, clock.now())
    return null
  })
}
