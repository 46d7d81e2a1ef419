/**
 * /api/system/title/style/*: how marker titles look, per layer, with the group's default for layers
 * without their own (SPEC 3 "Title style": empty layer_id is the default). getlist always includes
 * the default (id 0 while the group has not saved one); getbylayerid answers the effective style
 * of every requested layer the caller sees (id 0 when it is the default's, inherited). Saving the
 * default needs a group manager, a layer's style layer_edit on it; a save replaces the style of
 * its layer_id (the id in the body is not needed).
 */
import type { FastifyInstance } from 'fastify'
import { saveTitleStyle, titleStylesOf, titleStylesOfLayers } from '../services/title-style'
import { styleByLayerFields, styleSave } from '../schemas/title-style'
import { noFields } from '../schemas/common'
import { callDefiners, type AppDeps } from './define'

// Kept here for test/server/share-view.test.ts, which imports it from this file; it lives in services/title-style.ts.
export { DEFAULT_TITLE_STYLE } from '../services/title-style'

export function titleStyleRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { db, clock } = deps
  const { sessionCall } = callDefiners(app, deps)

  sessionCall('/api/system/title/style/getlist', noFields, async (_input, caller) => titleStylesOf(db.kysely, caller))

  sessionCall('/api/system/title/style/getbylayerid', styleByLayerFields, async ({ layerids }, caller) => titleStylesOfLayers(db.kysely, caller, layerids))

  sessionCall('/api/system/title/style/save', styleSave, async (input, caller) => saveTitleStyle(db, caller, input, clock.now()))
}
