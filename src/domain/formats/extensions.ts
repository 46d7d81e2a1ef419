import type { ImportFileFormat } from '../../../types/mapdata'

/** The file name endings the layer import offers to pick (importFormatOfName reads each of them). */
export const IMPORT_EXTENSIONS = ['geojson', 'json', 'kml', 'kmz', 'gpx', 'xlsx', 'xls', 'zip', 'csv', 'txt']

const FORMAT_OF_EXTENSION: Record<string, ImportFileFormat> = {
  geojson: 'geojson',
  json: 'geojson',
  kml: 'kml',
  kmz: 'kmz',
  gpx: 'gpx',
  xlsx: 'xlsx',
  // Read as a workbook, which answers an Excel 97-2003 file with how to save it as .xlsx.
  xls: 'xlsx',
  // A Shapefile comes zipped with its .shx, .dbf and .prj, which a phone cannot pick one by one.
  zip: 'shp',
  csv: 'csv',
  txt: 'csv',
}

/** The import format a file name's extension suggests, or null. Kept apart from the parsers, which the map's first load does not need. */
export function importFormatOfName(name: string): ImportFileFormat | null {
  return FORMAT_OF_EXTENSION[name.toLowerCase().split('.').pop() ?? ''] ?? null
}

/** Formats that only their bytes (base64 in the request) can carry: zips. */
export const BINARY_IMPORT_FORMATS: readonly ImportFileFormat[] = ['kmz', 'xlsx', 'shp']
