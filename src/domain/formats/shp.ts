/**
 * Zipped Shapefiles (what ArcGIS, QGIS and most Chinese GIS tools hand over): every .shp in the
 * zip with its .dbf (decoded by the .cpg's encoding, GBK included) and reprojected to WGS-84 from
 * its .prj (a projected CGCS2000 Gauss-Kruger zone, a UTM zone ...). Read by shpjs, then checked
 * by the GeoJSON reader, so names, fields and multi-part splitting follow the same rules.
 */
import type { FileCrs } from '../../../types/mapdata'
import { IMPORT_MSG } from '../importMessages'
import { parseGeoJson } from './geojson'
import { unreadable, type ParsedFile } from './rows'
import { repackZip, ZipTooLarge } from './zip'

interface Collection {
  features: { type: 'Feature'; geometry: (Record<string, unknown> & { bbox?: unknown }) | null; properties: Record<string, unknown> | null }[]
}

export async function parseShapefileZip(bytes: Uint8Array, crs: FileCrs = 'wgs84', maxRows = Infinity): Promise<ParsedFile> {
  // shpjs's unzip reads `self.DecompressionStream` when it loads, as in a browser; Node has the stream on globalThis.
  const global = globalThis as { self?: unknown }
  global.self ??= globalThis
  const { default: shp } = await import('shpjs')
  let collections: Collection[]
  try {
    // What shpjs reads (its unzip.js), measured while it inflates (zip.ts).
    let checked: Uint8Array
    try {
      checked = repackZip(bytes, (name) => /\.(shp|dbf|json|prj|cpg)$/i.test(name))
    } catch (err) {
      if (err instanceof ZipTooLarge) return unreadable(IMPORT_MSG.zipTooLarge)
      throw err
    }
    const read = (await shp(checked)) as Collection | Collection[]
    collections = Array.isArray(read) ? read : [read]
  } catch {
    return unreadable(IMPORT_MSG.shpUnreadable)
  }
  const features = collections.flatMap((c) => c.features ?? []).map((f) => ({ ...f, geometry: f.geometry && { ...f.geometry, bbox: undefined } }))
  if (!features.length) return unreadable(IMPORT_MSG.shpUnreadable)
  return parseGeoJson(JSON.stringify({ type: 'FeatureCollection', features }), crs, maxRows)
}
