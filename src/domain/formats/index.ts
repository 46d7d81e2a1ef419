/**
 * Import and export files of a layer: GeoJSON, KML and CSV. Pure: parsers yield checked
 * rows with GCJ-02 points (files are WGS-84 unless crs is 'gcj02') and serialisers write stored
 * markers back. The server adds the layer's rules (kinds, fields, limits) on top.
 */
import type { ExportFormat, FileCrs, ImportFormat } from '../../../types/mapdata'
import { parseCsv, serializeCsv } from './csv'
import { parseGeoJson, serializeGeoJson } from './geojson'
import { importFormatOfName } from './extensions'
import { parseKml, serializeKml } from './kml'
import { TooManyRows, type AddressPlaces, type ExportMarker, type ExportOptions, type ParsedFile } from './rows'

export type { AddressPlaces, ExportMarker, ExportOptions, ImportRow, ParsedFile } from './rows'
export { KIND_NAMES } from './rows'

export const IMPORT_FORMATS: readonly ImportFormat[] = ['geojson', 'kml', 'csv']

/** What a file of each format is called and served as. */
export const FORMAT_FILES: Record<ExportFormat, { extension: string; mime: string }> = {
  geojson: { extension: 'geojson', mime: 'application/geo+json' },
  kml: { extension: 'kml', mime: 'application/vnd.google-earth.kml+xml' },
  kmz: { extension: 'kmz', mime: 'application/vnd.google-earth.kmz' },
  gpx: { extension: 'gpx', mime: 'application/gpx+xml' },
  csv: { extension: 'csv', mime: 'text/csv' },
  xlsx: { extension: 'xlsx', mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
}

/** What a layer exports to (exportFile.ts writes them). */
export const EXPORT_FORMATS: readonly ExportFormat[] = ['geojson', 'kml', 'kmz', 'gpx', 'csv', 'xlsx']

/** The largest file text an import accepts (about 10,000 markers of KML with fields fit well inside). */
export const IMPORT_MAX_BYTES = 16 * 1024 * 1024

/** The format a file name suggests, for the import page's default. */
export const formatOfFileName = importFormatOfName

/**
 * The rows of a file. With maxRows, a file of more records (features, placemarks, CSV lines) is
 * answered {tooManyRows} as soon as that is known, without reading the rest: a parser counts
 * before its per-row work where it can, and RowCollector stops at the limit in any case.
 */
export function parseFile(format: ImportFormat, text: string, crs: FileCrs = 'wgs84', maxRows = Infinity, places?: AddressPlaces): ParsedFile {
  try {
    switch (format) {
      case 'geojson':
        return parseGeoJson(text, crs, maxRows)
      case 'kml':
        return parseKml(text, crs, maxRows)
      case 'csv':
        return parseCsv(text, crs, maxRows, places)
    }
  } catch (err) {
    if (err instanceof TooManyRows) return { rows: [], errors: [], tooManyRows: true }
    throw err
  }
}

export function serializeFile(format: ImportFormat, markers: ExportMarker[], options: ExportOptions = {}): string {
  switch (format) {
    case 'geojson':
      return serializeGeoJson(markers, options)
    case 'kml':
      return serializeKml(markers, options)
    case 'csv':
      return serializeCsv(markers, options)
  }
}

/** '图层名.geojson', without characters that file systems refuse. */
export function exportFileName(layerName: string, format: ExportFormat): string {
  // eslint-disable-next-line no-control-regex -- control characters are what file systems refuse
  const base = layerName.replace(/[\\/:*?"<>|\u0000-\u001f]/g, '_').trim() || 'layer'
  return `${base}.${FORMAT_FILES[format].extension}`
}
