/**
 * /api/marker/import and /api/marker/export: a layer's markers as GeoJSON, KML or CSV, with file
 * coordinates in WGS-84 unless crs is 'gcj02'.
 *
 * Import answers errcode 0 with {imported, errors, invalid_rows, message}: bad rows come back as
 * errors [{row, message}] with imported 0 and nothing written (the API client drops data when
 * errcode != 0, so the row list could not reach the page otherwise). Problems with the whole file
 * (unreadable, empty, no coordinate columns), the permission and the marker limit are errors.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { IncomingMessage } from 'node:http'
import { IMPORT_MAX_BYTES } from '../../../src/domain/formats'
import { exportMarkers, importMarkers } from '../services/import-export'
import { exportRequest, importProgressRequest, importRequest } from '../schemas/io'
import { cancelImport, importProgress } from '../services/import-progress'
import { readImportBody } from '../services/import-body'
import { callDefiners, type AppDeps } from './define'

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
    // The body is streamed in and its session checked from its first bytes (services/import-body.ts);
    // a large one is parsed on a worker thread (JSON.parse of 13 MB alone holds the event loop for
    // 50-150 ms), its file kept as bytes; a small one here, as the app parses every body.
    const appJson = scope.getDefaultJsonParser('error', 'error')
    const parseInline = (request: FastifyRequest) => (text: string) => new Promise<unknown>((resolve, reject) => appJson(request, text, (err, parsed) => (err ? reject(err) : resolve(parsed))))
    scope.removeContentTypeParser('application/json')
    scope.addContentTypeParser('application/json', (request: FastifyRequest, payload: IncomingMessage) => readImportBody(request, payload, { db, clock, bodyLimit, parseInline: parseInline(request) }))
    const { sessionCall } = callDefiners(scope, deps)

    sessionCall('/api/marker/import', importRequest, async (input, caller) => importMarkers(db, caller, input, clock.now(), deps.geocoder))

    // Answered from this server's memory (services/import-progress.ts), never waiting on the database.
    sessionCall('/api/marker/import/progress', importProgressRequest, async (input, caller) => importProgress(caller.userId, input.import_id))
    sessionCall('/api/marker/import/cancel', importProgressRequest, async (input, caller) => ({ cancelled: cancelImport(caller.userId, input.import_id) }))

    sessionCall('/api/marker/export', exportRequest, async (input, caller) => exportMarkers(db.kysely, caller, input))
  })
}
