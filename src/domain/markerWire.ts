/**
 * A marker on the wire, column by column: the one table the server's presenter
 * (server/src/presenters/mapdata.ts), its SQL column lists and database-built JSON pages
 * (server/src/db/markers.ts) and the columnar page's codec (markerColumns.ts) are made from.
 * A new marker column is one entry here (in the order the SPEC lists a marker's keys), its field
 * in types/mapdata.ts Marker (the check at the end refuses a key without an entry), its migration
 * and its test.
 */
import type { Marker } from '../../types/mapdata'

/** How a column travels in the columnar page (types/api.ts MarkerColumnsPage). */
export type ColumnarCoding =
  /** Each value minus the one before it (ids, ascending on a page). */
  | { kind: 'delta' }
  /** [value, count] runs; `check` says which numbers a page may hold. */
  | { kind: 'runs'; check: (v: number) => boolean }
  /** The values as they are. */
  | { kind: 'texts' }
  /** Distinct objects once, in `values`; the column is runs of indexes into them. */
  | { kind: 'dictionary'; values: string }
  /** Distinct [this, `with`] pairs once, in `values`; the column `wire` is runs of indexes into them. */
  | { kind: 'pair'; with: keyof Marker; wire: string; values: string }
  /** Travels in another column's pair. */
  | { kind: 'paired' }
  /** ISO times as millisecond differences (markerColumns.ts timesOf). */
  | { kind: 'times' }
  /** Only the markers that have one, as [gap, value] pairs. */
  | { kind: 'sparse' }

export interface WireColumn {
  /** The Marker key, and the markers table's column of the same name unless `stored` is 'creator'. */
  key: keyof Marker
  /**
   * How the row holds it: 'value' as it travels, 'json' as JSON text of an object, 'creator' not in
   * markers but the nickname of its creator (users).
   */
  stored: 'value' | 'json' | 'creator'
  /** Absent from the marker when the row holds null. */
  optional?: true
  /** What a public share's page says instead (it does not tell strangers who in the team made a marker): a value, or 'absent'. */
  onShare?: 0 | '' | 'absent'
  columnar: ColumnarCoding
}

const isInteger = (v: number) => Number.isInteger(v)
const isMarkerType = (v: number) => Number.isInteger(v) && v >= 0 && v <= 6
const isFiniteNumber = (v: number) => Number.isFinite(v)

export const MARKER_WIRE = [
  { key: 'id', stored: 'value', columnar: { kind: 'delta' } },
  { key: 'layer_id', stored: 'value', columnar: { kind: 'runs', check: isInteger } },
  { key: 'name', stored: 'value', columnar: { kind: 'texts' } },
  { key: 'type', stored: 'value', columnar: { kind: 'runs', check: isMarkerType } },
  { key: 'points', stored: 'value', columnar: { kind: 'texts' } },
  { key: 'style', stored: 'json', columnar: { kind: 'dictionary', values: 'styles' } },
  { key: 'width', stored: 'value', columnar: { kind: 'runs', check: isFiniteNumber } },
  { key: 'radius', stored: 'value', columnar: { kind: 'runs', check: isFiniteNumber } },
  { key: 'sort', stored: 'value', columnar: { kind: 'runs', check: isFiniteNumber } },
  { key: 'fields', stored: 'json', columnar: { kind: 'dictionary', values: 'field_sets' } },
  { key: 'creator_id', stored: 'value', onShare: 0, columnar: { kind: 'pair', with: 'creator_name', wire: 'creator', values: 'creators' } },
  { key: 'creator_name', stored: 'creator', onShare: '', columnar: { kind: 'paired' } },
  { key: 'rev', stored: 'value', columnar: { kind: 'runs', check: isInteger } },
  { key: 'created_at', stored: 'value', columnar: { kind: 'times' } },
  { key: 'updated_at', stored: 'value', columnar: { kind: 'times' } },
  { key: 'client_id', stored: 'value', optional: true, onShare: 'absent', columnar: { kind: 'sparse' } },
] as const satisfies readonly WireColumn[]

type WireEntry = (typeof MARKER_WIRE)[number]

/** The markers table's columns a marker is presented from, in the table's order. */
export type StoredWireKey = Exclude<WireEntry, { stored: 'creator' }>['key']

export const STORED_WIRE_KEYS = MARKER_WIRE.filter((c) => c.stored !== 'creator').map((c) => c.key) as StoredWireKey[]

// Every key of a Marker has its entry: a field added to the type without one fails here.
type Unlisted = Exclude<keyof Marker, WireEntry['key']>
export const EVERY_MARKER_KEY_LISTED: [Unlisted] extends [never] ? true : Unlisted = true
