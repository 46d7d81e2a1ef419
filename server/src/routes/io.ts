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
import { z } from 'zod'
import type { FileCrs, ImportFormat } from '../../../types/mapdata'
import { IMPORT_FORMATS, IMPORT_MAX_BYTES } from '../../../src/domain/formats'
import { MAP_IO_MSG, MAP_MSG, MAP_UI_MSG } from '../../../src/domain/messages'
import { formatStorage } from '../../../src/domain/tiers'
import { exportMarkers, importMarkers } from '../services/import-export'
import { mapCaller } from '../services/permissions'
import { callDefiners, type AppDeps } from './define'
import { idField } from '../schemas/common'

const formatField = z.enum(IMPORT_FORMATS as [ImportFormat, ...ImportFormat[]], { errorMap: () => ({ message: MAP_UI_MSG.importFormatUnknown }) })
const crsField = z.enum(['wgs84', 'gcj02'] as [FileCrs, ...FileCrs[]]).default('wgs84')

const importRequest = z.object({
  layer_id: idField(),
  format: formatField,
  content: z
    .string({ required_error: MAP_MSG.importEmpty })
    .min(1, MAP_MSG.importEmpty)
    .max(IMPORT_MAX_BYTES, MAP_IO_MSG.importTooLarge(formatStorage(IMPORT_MAX_BYTES / 1024))),
  crs: crsField,
})

const exportRequest = z.object({ layer_id: idField(), format: formatField, crs: crsField })

export function ioRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { db, clock } = deps

  // Only these calls take bodies beyond the app's 1 MB (10,000 markers of KML are several MB).
  app.register(async (scope) => {
    scope.addHook('onRoute', (route) => {
      route.bodyLimit = IMPORT_MAX_BYTES + 64 * 1024
    })
    const { sessionCall } = callDefiners(scope, deps)

    sessionCall('/api/marker/import', importRequest, async (input, caller) => {
      const who = await mapCaller(db.kysely, caller)
      return importMarkers(db, who, input, clock.now())
    })

    sessionCall('/api/marker/export', exportRequest, async (input, caller) => {
      const who = await mapCaller(db.kysely, caller)
      return exportMarkers(db.kysely, who, input)
    })
  })
}
