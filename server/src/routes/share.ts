/**
 * Share links (ShareApi in types/share.ts): /api/share/* for the group's members (save,
 * list, delete) and for anybody holding a link (meta, password check), and the two public data
 * calls of a share, /api/layer/get/share and /api/marker/get/share.
 */
import type { FastifyInstance } from 'fastify'
import { checkSharePassword, deleteShareOf, layersOfOpenedShare, listShares, markersOfOpenedShare, saveShare, shareMeta, shareSecretSource } from '../services/shares'
import { callDefiners, splitBody, validate, type AppDeps } from './define'
import { SHARE_MSG } from '../../../src/domain/shareMessages'
import { idFields, layerShareFields, listFields, markerShareFields, pwdFields, saveFields } from '../schemas/share'
import { BusinessError, envelopeWithRawList } from '../envelope'
import { ErrCode } from '../../../types/api'
import { shareCards } from '../services/share-card'

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

  // The picture of a forwarded card (WeChat's share card, og:image): an image address, so a share
  // that is gone answers as a page would, 404 or 410 with the share view's words.
  const cards = shareCards(db.kysely, { font: deps.cardFont, log: (line) => app.log.warn(line) })
  app.get<{ Params: { file: string } }>('/api/share/card/:file', async (request, reply) => {
    const id = /^([A-Za-z0-9_-]{1,64})\.png$/.exec(request.params.file)?.[1]
    if (!id) return reply.code(404).type('text/plain; charset=utf-8').send(SHARE_MSG.notFound)
    try {
      const { png, etag } = await cards.card(id, clock.now())
      reply.header('x-content-type-options', 'nosniff').header('cache-control', 'public, max-age=300').header('etag', etag)
      if (request.headers['if-none-match'] === etag) return reply.code(304).send()
      return reply.type('image/png').send(png)
    } catch (err) {
      if (!(err instanceof BusinessError)) throw err
      return reply
        .code(err.errcode === ErrCode.EXPIRED ? 410 : 404)
        .type('text/plain; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(err.message)
    }
  })
}
