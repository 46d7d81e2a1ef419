/**
 * An import file as it arrives at the server to its rows: the text as sent, or the file's own
 * bytes (base64 in the request), decoded by their encoding (encoding.ts), a KMZ unzipped to its
 * KML (kmz.ts), a GPX file (gpx.ts), an Excel workbook's first sheet (xlsx.ts), a zipped Shapefile (shp.ts). Runs in the parse worker; kept apart from index.ts so that what only parses and
 * writes text needs neither iconv-lite nor the zip reader.
 */
import type { FileCrs, ImportFileFormat } from '../../../types/mapdata'
import { MAP_MSG } from '../messages'
import { decodeText } from './encoding'
import { parseFile, type AddressPlaces, type ParsedFile } from './index'
import { parseGpx } from './gpx'
import { parseShapefileZip } from './shp'
import { kmlOfKmz } from './kmz'
import { parseXlsx } from './xlsx'
import { unreadable } from './rows'

/** The file as text, or as its bytes (base64: the bytes as base64 text, as the request carries them). */
export type ImportContent = { text: string } | { bytes: Uint8Array }

/** places: where a table's addresses are, for a second read of a file that answered its addresses (ParsedFile.addresses). */
export async function readImportFile(format: ImportFileFormat, content: ImportContent, crs: FileCrs = 'wgs84', maxRows = Infinity, places?: AddressPlaces): Promise<ParsedFile> {
  if (format === 'kmz') {
    if (!('bytes' in content)) return unreadable(MAP_MSG.importUnreadable)
    const kml = await kmlOfKmz(content.bytes)
    if (typeof kml === 'string') return unreadable(kml)
    return parseFile('kml', decodeText(kml), crs, maxRows)
  }
  if (format === 'xlsx') {
    if (!('bytes' in content)) return unreadable(MAP_MSG.importUnreadable)
    return parseXlsx(content.bytes, crs, maxRows, places)
  }
  if (format === 'shp') {
    if (!('bytes' in content)) return unreadable(MAP_MSG.importUnreadable)
    return parseShapefileZip(content.bytes, crs, maxRows)
  }
  if (format === 'gpx') return parseGpx('text' in content ? content.text : decodeText(content.bytes), crs, maxRows)
  return parseFile(format, 'text' in content ? content.text : decodeText(content.bytes), crs, maxRows, places)
}

/** The bytes of base64 text (what the client sends for a picked file). */
export function bytesOfBase64(base64: string): Uint8Array {
  return new Uint8Array(Buffer.from(base64, 'base64'))
}
