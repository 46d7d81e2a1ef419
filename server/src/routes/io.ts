/**
 * /api/marker/import and /api/marker/export: a layer's markers as GeoJSON, KML or CSV, with file
 * coordinates in WGS-84 unless crs is 'gcj02'.
 *
 * Import answers errcode 0 with {imported, errors, invalid_rows, message}: bad rows come back as
 * errors [{row, message}] with imported 0 and nothing written (the API client drops data when
 * errcode != 0, so the row list could not reach the page otherwise). Problems with the whole file
 * (unreadable, empty, no coordinate columns), the permission and the marker limit are errors.
 */
import type { FastifyInstance } from 'fastify'
import { IMPORT_MAX_BYTES } from '../../../src/domain/formats'
import { parseJsonOffThread } from '../services/file-parser'
import { exportMarkers, importMarkers } from '../services/import-export'
import { exportRequest, importProgressRequest, importRequest } from '../schemas/io'
import { cancelImport, importProgress } from '../services/import-progress'
import { callDefiners, type AppDeps } from './define'

/** Bodies up to this size are parsed on the main thread (a few ms at most). */
const INLINE_BODY_BYTES = 256 * 1024

export function ioRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { db, clock } = deps

  // Only these calls take bodies beyond the app's 1 MB (10,000 markers of KML are several MB). The
  // file travels as a JSON string, where quotes, backslashes and line breaks take two bytes: twice
  // the file's limit lets every file within it through to the size check and its Chinese message.
  app.register(async (scope) => {
    const bodyLimit = 2 * IMPORT_MAX_BYTES + 64 * 1024
    scope.addHook('onRoute', (route) => {
      route.bodyLimit = bodyLimit
    })
    // A large body is parsed on a worker thread (JSON.parse of 13 MB alone holds the event loop
    // for 50-150 ms), its file kept as bytes; a small one here, as the app parses every body.
    const appJson = scope.getDefaultJsonParser('error', 'error')
    scope.removeContentTypeParser('application/json')
    scope.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit }, (request, body: Buffer, done) => {
      if (body.length <= INLINE_BODY_BYTES) return appJson(request, body.toString('utf8'), done)
      parseJsonOffThread(body).then(
        (parsed) => done(null, parsed),
        () => done(Object.assign(new Error('the body is not JSON'), { statusCode: 400 }), undefined),
      )
    })
    const { sessionCall } = callDefiners(scope, deps)

    sessionCall('/api/marker/import', importRequest, async (input, caller) => importMarkers(db, caller, input, clock.now(), deps.geocoder))

    // Answered from this server's memory (services/import-progress.ts), never waiting on the database.
    sessionCall('/api/marker/import/progress', importProgressRequest, async (input, caller) => importProgress(caller.userId, input.import_id))
    sessionCall('/api/marker/import/cancel', importProgressRequest, async (input, caller) => ({ cancelled: cancelImport(caller.userId, input.import_id) }))

    sessionCall('/api/marker/export', exportRequest, async (input, caller) => exportMarkers(db.kysely, caller, input))
  })
}
