/**
 * Where 导航 to a marker goes, and the address it carries (src/domain/directions.ts has the rest).
 * Pure; loaded with the views that show a marker's detail.
 */
import type { LayerField, Marker } from '../../types/mapdata'
import { navPlaceProblem, type NavPlace } from './directions'
import { shapeLabelPoint } from './labelPoint'
import { isPoint } from './markerKinds'
import { parsePoints } from './points'

/** A text field that holds an address: named 地址 (收货地址, 详细地址 ...) or address. */
const ADDRESS_FIELD = /地址|address/i

/** The marker's address: the value of its layer's first text field named like an address that it filled in; '' when none. */
export function markerAddress(marker: Pick<Marker, 'fields'>, fields: readonly Pick<LayerField, 'id' | 'name' | 'kind'>[] = []): string {
  for (const f of fields) {
    if (f.kind !== 'text' || !ADDRESS_FIELD.test(f.name)) continue
    const v = marker.fields?.[String(f.id)]
    if (typeof v === 'string' && v.trim()) return v.trim()
  }
  return ''
}

/**
 * Where navigating to a marker goes: a point's position, a circle's centre, a line's middle along
 * its length, an area's label point inside it (where its title shows); null when its geometry does
 * not parse or lies at 0,0.
 */
export function markerNavPlace(marker: Pick<Marker, 'type' | 'points' | 'name' | 'fields'>, fields: readonly Pick<LayerField, 'id' | 'name' | 'kind'>[] = []): NavPlace | null {
  const parsed = parsePoints(marker.points)
  if (!parsed.ok || !parsed.parts.length || !parsed.parts[0].length) return null
  const at = isPoint(marker.type) ? parsed.parts[0][0] : shapeLabelPoint(marker.type, parsed.parts, parsed.holes)
  const place = { lng: at.lng, lat: at.lat, name: marker.name, address: markerAddress(marker, fields) }
  return navPlaceProblem(place) ? null : place
}
