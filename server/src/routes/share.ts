/**
 * Share links (ShareApi in types/share.ts): /api/share/* for the group's members (save,
 * list, delete) and for anybody holding a link (meta, password check), and the two public data
 * calls of a share, /api/layer/get/share and /api/marker/get/share.
 */
import type { FastifyInstance } from 'fastify'
import { checkSharePassword, deleteShareOf, layersOfOpenedShare, listShares, markersOfOpenedShare, saveShare, shareMeta, shareSecretSource } from '../services/shares'
import { callDefiners, splitBody, validate, type AppDeps } from './define'
import { idFields, layerShareFields, listFields, markerShareFields, pwdFields, saveFields } from '../schemas/share'
import { envelopeWithRawList } from '../envelope'

export function shareRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { db, clock } = deps
  const { publicCall, sessionCall } = callDefiners(app, deps)
  const secret = shareSecretSource(db.kysely, deps.shareSecret, clock)

  sessionCall('/api/share/save', saveFields, async (input, caller) => saveShare(db, caller, input, clock.now()))

  sessionCall('/api/share/getlist/group', listFields, async ({ op_userid, type, pageindex, pagesize }, caller) =>
    listShares(db.kysely, caller, { op_userid, type }, { pageindex, pagesize }, clock.now()),
  )

  sessionCall('/api/share/delete', idFields, async ({ id }, caller) => {
    await deleteShareOf(db, caller, id)
    return null
  })

  publicCall('/api/share/getbyid', idFields, async ({ id }) => shareMeta(db.kysely, id, clock.now()))

  publicCall('/api/share/check/pwd', pwdFields, async ({ id, pwd }, request) => checkSharePassword(db.kysely, secret, id, pwd, request.ip, clock.now()))

  publicCall('/api/layer/get/share', layerShareFields, async ({ share_id, layer_ids, proof }) => layersOfOpenedShare(db.kysely, secret, share_id, proof ?? undefined, layer_ids, clock.now()))

  // Pages of up to 5000 markers go into the envelope as JSON bytes, as /api/marker/getlist does.
  app.post('/api/marker/get/share', async (request, reply) => {
    const { share_id, marker_ids, layer_ids, pageindex, pagesize, proof } = validate(markerShareFields, splitBody(request.body).fields)
    const page = await markersOfOpenedShare(db.kysely, secret, share_id, proof ?? undefined, { marker_ids, layer_ids }, { pageindex, pagesize }, clock.now())
    return reply.type('application/json; charset=utf-8').send(envelopeWithRawList(page.listJson, page.total))
  })
}
