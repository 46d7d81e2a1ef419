/** Zod of /api/marker/import and /api/marker/export: a layer's markers as GeoJSON, KML or CSV. */
import { z } from 'zod'
import type { FileCrs, ImportFormat } from '../../../types/mapdata'
import { IMPORT_FORMATS, IMPORT_MAX_BYTES } from '../../../src/domain/formats'
import { MAP_IO_MSG, MAP_MSG, MAP_UI_MSG } from '../../../src/domain/messages'
import { formatStorage } from '../../../src/domain/tiers'
import { idField } from './common'

const formatField = z.enum(IMPORT_FORMATS as [ImportFormat, ...ImportFormat[]], { errorMap: () => ({ message: MAP_UI_MSG.importFormatUnknown }) })
const crsField = z.enum(['wgs84', 'gcj02'] as [FileCrs, ...FileCrs[]]).default('wgs84')

const importTooLarge = MAP_IO_MSG.importTooLarge(formatStorage(IMPORT_MAX_BYTES / 1024))

export const importRequest = z.object({
  layer_id: idField(),
  format: formatField,
  // The file's text, or its UTF-8 bytes when the body was parsed off the main thread (routes/io.ts).
  content: z
    .custom<string | Uint8Array>((value) => typeof value === 'string' || value instanceof Uint8Array, MAP_MSG.importEmpty)
    .refine((content) => content.length > 0, MAP_MSG.importEmpty)
    // The limit is the file's size in bytes (UTF-8, as the phone shows it): a Chinese character is 3.
    .refine((content) => (typeof content === 'string' ? Buffer.byteLength(content, 'utf8') : content.byteLength) <= IMPORT_MAX_BYTES, importTooLarge),
  crs: crsField,
})

export const exportRequest = z.object({ layer_id: idField(), format: formatField, crs: crsField })
