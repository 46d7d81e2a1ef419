/** Zod of /api/marker/import and /api/marker/export: a layer's markers in the file formats of src/domain/formats. */
import { z } from 'zod'
import type { ExportFormat, FileCrs, ImportFileFormat } from '../../../types/mapdata'
import { EXPORT_FORMATS, IMPORT_FORMATS, IMPORT_MAX_BYTES } from '../../../src/domain/formats'
import { BINARY_IMPORT_FORMATS } from '../../../src/domain/formats/extensions'
import { MAP_IO_MSG, MAP_MSG, MAP_UI_MSG } from '../../../src/domain/messages'
import { formatStorage } from '../../../src/domain/tiers'
import { BULK_MAX_IDS } from '../../../src/domain/dataList'
import { idField, idListField } from './common'

const formatField = z.enum(EXPORT_FORMATS as [ExportFormat, ...ExportFormat[]], { errorMap: () => ({ message: MAP_UI_MSG.importFormatUnknown }) })
const importFormatField = z.enum([...IMPORT_FORMATS, 'kmz', 'gpx', 'xlsx', 'shp'] as ImportFileFormat[] as [ImportFileFormat, ...ImportFileFormat[]], {
  errorMap: () => ({ message: MAP_UI_MSG.importFormatUnknown }),
})
/** The app's id of one import (a client id: letters, digits and dashes). */
const importIdField = z.string().regex(/^[A-Za-z0-9-]{8,64}$/)
const crsField = z.enum(['wgs84', 'gcj02'] as [FileCrs, ...FileCrs[]]).default('wgs84')

const importTooLarge = MAP_IO_MSG.importTooLarge(formatStorage(IMPORT_MAX_BYTES / 1024))

/** The size of the file a request carries: its text in UTF-8 (as the phone shows it: a Chinese character is 3), or the bytes its base64 stands for. */
function fileBytes(content: string | Uint8Array, base64: boolean): number {
  const length = typeof content === 'string' ? (base64 ? content.length : Buffer.byteLength(content, 'utf8')) : content.byteLength
  return base64 ? Math.floor((length * 3) / 4) : length
}

export const importRequest = z
  .object({
    layer_id: idField(),
    format: importFormatField,
    // The file's text, or its UTF-8 bytes when the body was parsed off the main thread (routes/io.ts).
    content: z.custom<string | Uint8Array>((value) => typeof value === 'string' || value instanceof Uint8Array, MAP_MSG.importEmpty).refine((content) => content.length > 0, MAP_MSG.importEmpty),
    // The file's own bytes as base64: the server detects their encoding (GBK, UTF-16) and unzips KMZ.
    encoding: z.literal('base64').optional(),
    file_name: z.string().max(255).optional(),
    crs: crsField,
    import_id: importIdField.optional(),
  })
  .refine((input) => fileBytes(input.content, input.encoding === 'base64') <= IMPORT_MAX_BYTES, { message: importTooLarge, path: ['content'] })
  // A KMZ, an xlsx workbook or a zipped Shapefile is a zip: only its bytes can hold it.
  .refine((input) => !BINARY_IMPORT_FORMATS.includes(input.format) || input.encoding === 'base64', { message: MAP_MSG.importUnreadable, path: ['content'] })

export const importProgressRequest = z.object({ import_id: importIdField })

// ids: only these markers of the layer (the data list's 导出 of a selection).
export const exportRequest = z.object({ layer_id: idField(), format: formatField, crs: crsField, ids: idListField(BULK_MAX_IDS, { min: 1 }).optional() })
