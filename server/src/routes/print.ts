/**
 * /api/print/* (types/print.ts): start a print or a preview, ask how it goes, fetch the file. The
 * jobs run on the print service's worker threads (services/print.ts); the file's address carries the
 * job's random id as its only key, since the mini-program's downloadFile and previewImage send no
 * session header.
 */
import type { FastifyInstance } from 'fastify'
import { PRINT_MSG } from '../../../src/domain/printMessages'
import { PrintService, printTileSourceFromEnv } from '../services/print'
import { storageOf } from '../services/storage'
import { progressFields, shareStartFields, startFields } from '../schemas/print'
import { shareSecretSource } from '../services/shares'
import { callDefiners, type AppDeps } from './define'

export function printRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { db, clock } = deps
  const { publicCall, sessionCall } = callDefiners(app, deps)
  const secret = shareSecretSource(db.kysely, deps.shareSecret, clock)
  const service = new PrintService({
    db,
    now: () => clock.now(),
    font: deps.cardFont,
    tiles: deps.printTiles === undefined ? printTileSourceFromEnv(process.env) : deps.printTiles,
    workers: deps.printWorkers ?? (Number(process.env.PRINT_WORKERS) || 1),
    fetch: deps.printFetch,
    storage: storageOf(app, deps),
    log: (line) => app.log.warn(line),
  })
  app.addHook('onClose', () => service.close())

  sessionCall('/api/print/start', startFields, async (input, caller) => service.start(caller, input))

  sessionCall('/api/print/progress', progressFields, async ({ job_id }, caller) => service.progress(caller, job_id))

  // A shared view printed by the share's own rules; its job id is the only key to its progress and file.
  publicCall('/api/print/share/start', shareStartFields, async (input, request) => service.startShared(input, secret, `ip:${request.ip}`))

  publicCall('/api/print/share/progress', progressFields, async ({ job_id }) => service.progress(null, job_id))

  app.get<{ Params: { file: string } }>('/api/print/file/:file', async (request, reply) => {
    const file = /^[A-Za-z0-9_-]{10,64}\.(png|pdf)$/.test(request.params.file) ? service.file(request.params.file) : null
    if (!file) return reply.code(404).type('text/plain; charset=utf-8').header('cache-control', 'no-store').send(PRINT_MSG.jobNotFound)
    return reply
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'private, max-age=900')
      .header('content-disposition', `inline; filename*=UTF-8''${encodeURIComponent(file.filename)}`)
      .type(file.mime)
      .send(file.bytes)
  })
}
