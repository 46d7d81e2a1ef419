/**
 * GPX 1.0/1.1 (what 两步路, 奥维, Garmin and most track apps write): waypoints become points, each
 * track segment and each route a line. Read by @tmcw/togeojson (Mapbox's maintained converter)
 * over @xmldom/xmldom, since the parse worker has no DOM, then checked by the GeoJSON reader, so
 * names, fields and multi-part splitting follow the same rules as a GeoJSON file. A waypoint's
 * <desc> is its description; its time, elevation and symbol are kept as custom field values when
 * the layer has fields of those names.
 */
import { gpx } from '@tmcw/togeojson'
import { DOMParser } from '@xmldom/xmldom'
import type { FileCrs } from '../../../types/mapdata'
import { parseGeoJson } from './geojson'
import { DESCRIPTION_FIELD, unreadable, type ParsedFile } from './rows'

/** togeojson's own bookkeeping and per-point arrays (times, heart rates of every track point): not a marker's data. */
const DROPPED = new Set(['_gpxType', 'coordinateProperties', 'links', 'stroke', 'stroke-opacity', 'stroke-width'])

export function parseGpx(text: string, crs: FileCrs = 'wgs84', maxRows = Infinity): ParsedFile {
  let doc: ReturnType<DOMParser['parseFromString']>
  try {
    doc = new DOMParser({
      onError: (level, message) => {
        if (level !== 'warning') throw new Error(message)
      },
    }).parseFromString(text.replace(/^\uFEFF/, ''), 'text/xml')
  } catch {
    return unreadable()
  }
  if (doc.documentElement?.localName !== 'gpx') return unreadable()
  const collection = gpx(doc as unknown as Document)
  const features = collection.features.map((feature) => ({ ...feature, properties: propertiesOf(feature.properties ?? {}) }))
  return parseGeoJson(JSON.stringify({ type: 'FeatureCollection', features }), crs, maxRows)
}

function propertiesOf(properties: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(properties)) {
    if (DROPPED.has(key) || value === null || typeof value === 'object') continue
    out[key === 'desc' && properties[DESCRIPTION_FIELD] === undefined ? DESCRIPTION_FIELD : key] = value
  }
  return out
}
