/**
 * GPX 1.1 for track apps (两步路, 奥维, Garmin): points and circles as waypoints (a circle's
 * radius in its description), lines as tracks with a segment per part, areas as tracks whose
 * segments close their rings (GPX has no areas; the track's type says 面 so a reader can tell).
 * The description field is the waypoint's or track's <desc>; other field values are not
 * carried, since GPX has no place for them that those apps read (GeoJSON, KML, CSV and Excel keep them).
 */
import { XMLBuilder } from 'fast-xml-parser'
import type { FileCrs } from '../../../types/mapdata'
import type { LngLat } from '../points'
import { MARKER_KIND, isArea } from '../markerKinds'
import { closeRing, DESCRIPTION_FIELD, fileHoles, fileParts, rectangleRing, type ExportMarker, type ExportOptions } from './rows'

const builder = new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: '@', format: true, suppressEmptyNode: true })

export function serializeGpx(markers: ExportMarker[], options: ExportOptions = {}): string {
  const crs = options.crs ?? 'wgs84'
  const isWaypoint = (m: ExportMarker) => m.type === MARKER_KIND.point || m.type === MARKER_KIND.circle
  const waypoints = markers.filter(isWaypoint)
  const tracks = markers.filter((m) => !isWaypoint(m))
  return builder.build({
    '?xml': { '@version': '1.0', '@encoding': 'UTF-8' },
    gpx: {
      '@version': '1.1',
      '@creator': 'teammap',
      '@xmlns': 'http://www.topografix.com/GPX/1/1',
      metadata: { name: options.title ?? '' },
      wpt: waypoints.map((m) => {
        const [p] = fileParts(m, crs)[0] ?? []
        const desc = [description(m), m.type === MARKER_KIND.circle ? `半径${m.radius}米` : ''].filter(Boolean).join('；')
        return { '@lat': p?.lat, '@lon': p?.lng, name: m.name, desc }
      }),
      trk: tracks.map((m) => ({
        name: m.name,
        desc: description(m),
        type: isArea(m.type) ? '面' : '线',
        trkseg: segments(m, crs).map((part) => ({ trkpt: part.map((q) => ({ '@lat': q.lat, '@lon': q.lng })) })),
      })),
    },
  }) as string
}

function description(m: ExportMarker): string {
  const value = m.fields[DESCRIPTION_FIELD]
  return value === undefined ? '' : String(value)
}

function segments(m: ExportMarker, crs: FileCrs): LngLat[][] {
  if (m.type === MARKER_KIND.rectangle) return [closeRing(rectangleRing(m, crs))]
  const parts = fileParts(m, crs)
  if (!isArea(m.type)) return parts
  // An area's holes follow its outline as segments of their own, so their outlines are not lost.
  const holes = fileHoles(m, crs)
  return parts.flatMap((part, i) => [part, ...(holes[i] ?? [])].map(closeRing))
}
