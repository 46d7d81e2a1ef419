/**
 * CSV with a header row: a point per row from longitude/latitude columns (lng/lat, 经度/纬度 ...),
 * or any geometry from a WKT column (POINT, LINESTRING, POLYGON, MULTIPOLYGON). Optional `kind`
 * and `radius` (半径) columns as in GeoJSON; every other column is a custom field by its header.
 * Rows carry their line number in the file, the header being line 1, as a spreadsheet (Excel, WPS)
 * shows them: a user told '第3行' finds the bad row where the spreadsheet says 3.
 */
import Papa from 'papaparse'
import type { FileCrs } from '../../../types/mapdata'
import { MAP_IO_MSG, MAP_MSG } from '../messages'
import type { LngLat } from '../points'
import {
  closeRing,
  DESCRIPTION_FIELD,
  fileHoles,
  fileParts,
  KIND_NAMES,
  kindFromName,
  openRing,
  pointGeometry,
  rectangleRing,
  requireAtMost,
  RowCollector,
  unreadable,
  type ExportMarker,
  type AddressPlaces,
  type ExportOptions,
  type FileGeometry,
  type ParsedFile,
} from './rows'
import { MARKER_KIND, isPoint } from '../markerKinds'
import { IMPORT_MSG } from '../importMessages'

const COLUMN_NAMES = {
  name: ['name', 'title', '名称', '标题', '标注名称'],
  lng: ['lng', 'lon', 'long', 'longitude', 'x', '经度'],
  lat: ['lat', 'latitude', 'y', '纬度'],
  wkt: ['wkt', 'geometry', 'geom', 'the_geom', '几何'],
  kind: ['kind'],
  radius: ['radius', '半径'],
  address: ['address', '地址', '详细地址'],
} as const

type Role = keyof typeof COLUMN_NAMES

export function parseCsv(text: string, crs: FileCrs = 'wgs84', maxRows = Infinity, places?: AddressPlaces): ParsedFile {
  // Line by line, stopping once past the header and maxRows records: the rest is never read.
  const lines: string[][] = []
  let filled = 0
  Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), {
    skipEmptyLines: false,
    step: (result, parser) => {
      if (!Array.isArray(result.data)) return
      lines.push(result.data)
      if (!isBlank(result.data) && ++filled > maxRows + 1) parser.abort()
    },
  })
  return parseTable(lines, crs, maxRows, unsafeCell, places)
}

/**
 * A table with a header row, as a CSV file or a spreadsheet's sheet holds it (row i of `lines`
 * is the sheet's row i + 1): the header's roles (name, lng/lat or WKT, kind, radius) and every
 * other column a custom field. `cellText` undoes what our own export did to a cell (safeCell).
 * A table with an address column (地址) and no coordinates answers its addresses first; read
 * again with their places, each row is a point there (GCJ-02, whatever the file's crs).
 */
export function parseTable(lines: readonly (readonly unknown[])[], crs: FileCrs, maxRows: number, cellText: (text: string) => string = (text) => text, places?: AddressPlaces): ParsedFile {
  const headerIndex = lines.findIndex((line) => !isBlank(line))
  if (headerIndex < 0) return unreadable(MAP_MSG.importEmpty)
  const header = lines[headerIndex].map((h) => cellText(String(h ?? '').trim()))
  const columns = rolesOf(header)
  const byAddress = columns.wkt < 0 && (columns.lng < 0 || columns.lat < 0)
  if (byAddress && columns.address < 0) return unreadable(MAP_IO_MSG.importColumnsMissing)

  const body = lines.slice(headerIndex + 1)
  requireAtMost(
    body.reduce((n, line) => (isBlank(line) ? n : n + 1), 0),
    maxRows,
  )
  const cellOf = (line: readonly unknown[], i: number) => (i >= 0 ? cellText(String(line[i] ?? '').trim()) : '')
  if (byAddress && !places) return { rows: [], errors: [], addresses: [...new Set(body.map((line) => cellOf(line, columns.address)).filter(Boolean))] }
  // The address stays a field value too (a layer often has a 地址 field); the other roles do not.
  const roleColumns = Object.entries(columns)
    .filter(([role]) => role !== 'address')
    .map(([, i]) => i)
  const out = new RowCollector(byAddress ? 'gcj02' : crs, maxRows)
  body.forEach((line, index) => {
    if (isBlank(line)) return
    const cell = (role: Role) => cellOf(line, columns[role])
    const fields: Record<string, string> = {}
    header.forEach((name, i) => {
      const value = cellOf(line, i)
      if (name && !roleColumns.includes(i) && value) fields[name.toLowerCase() === DESCRIPTION_FIELD ? DESCRIPTION_FIELD : name] = value
    })
    const geometry = byAddress ? placeOf(cell('address'), places!, kindFromName(cell('kind')), cell('radius')) : geometryOf(cell, kindFromName(cell('kind')))
    out.add(headerIndex + index + 2, cell('name'), geometry, fields)
  })
  return out.result()
}

function isBlank(line: readonly unknown[]): boolean {
  return line.every((cell) => String(cell ?? '').trim() === '')
}

function rolesOf(header: string[]): Record<Role, number> {
  const lower = header.map((h) => h.toLowerCase())
  const find = (role: Role) => lower.findIndex((h) => (COLUMN_NAMES[role] as readonly string[]).includes(h))
  return { name: find('name'), lng: find('lng'), lat: find('lat'), wkt: find('wkt'), kind: find('kind'), radius: find('radius'), address: find('address') }
}

function geometryOf(cell: (role: Role) => string, kind: ReturnType<typeof kindFromName>): FileGeometry | string {
  const wkt = cell('wkt')
  if (wkt) return fromWkt(wkt, kind, cell('radius'))
  const lng = cell('lng')
  const lat = cell('lat')
  if (!lng && !lat) return MAP_MSG.pointsRequired
  return pointGeometry({ lng: number(lng), lat: number(lat) }, kind, cell('radius'))
}

function placeOf(address: string, places: AddressPlaces, kind: ReturnType<typeof kindFromName>, radius: string): FileGeometry | string {
  if (!address) return IMPORT_MSG.addressMissing
  const place = places[address]
  if (!place) return IMPORT_MSG.addressNotFound(address)
  return pointGeometry({ lng: place[0], lat: place[1] }, kind, radius)
}

function number(text: string): number {
  return text === '' ? NaN : Number(text)
}

/** Nested coordinate lists of a WKT body: a position is [x, y(, z ...)]. */
type Nested = number[] | Nested[]

function fromWkt(text: string, kind: ReturnType<typeof kindFromName>, radius: string): FileGeometry | string {
  const match = /^\s*([A-Za-z]+)\s*(?:ZM|Z|M)?\s*(\(.*\))\s*$/s.exec(text)
  const body = match ? parseWktBody(match[2]) : null
  if (!match || !body) return MAP_IO_MSG.wktInvalid
  const type = match[1].toUpperCase()
  const ring = (value: unknown) => (Array.isArray(value) ? (value as Nested[]).map(position) : [])
  switch (type) {
    case 'POINT':
      return pointGeometry(position(body[0] as Nested), kind, radius)
    case 'LINESTRING':
      return { type: kind === MARKER_KIND.dashedLine ? MARKER_KIND.dashedLine : MARKER_KIND.solidLine, parts: [ring(body)] }
    case 'POLYGON': {
      const [outer, ...holes] = (body as Nested[]).map((r) => openRing(ring(r)))
      if (kind === MARKER_KIND.rectangle && outer.length === 4 && !holes.length) return { type: MARKER_KIND.rectangle, parts: [[outer[0], outer[2]]] }
      return { type: MARKER_KIND.polygon, parts: [outer], holes: [holes] }
    }
    case 'MULTIPOLYGON': {
      const polygons = (body as Nested[]).map((polygon) => (polygon as Nested[]).map((r) => openRing(ring(r))))
      return { type: MARKER_KIND.multiPolygon, parts: polygons.map((p) => p[0] ?? []), holes: polygons.map((p) => p.slice(1)) }
    }
    default:
      return MAP_IO_MSG.importGeometryUnsupported(type)
  }
}

function position(value: Nested | undefined): LngLat {
  const p = Array.isArray(value) ? value : []
  return { lng: typeof p[0] === 'number' ? p[0] : NaN, lat: typeof p[1] === 'number' ? p[1] : NaN }
}

/**
 * '(1 2, 3 4)' -> [[1,2],[3,4]]; '((1 2, 3 4))' -> [[[1,2],[3,4]]]. A POINT's '(1 2)' -> [[1,2]].
 * Null when the parentheses or numbers are malformed.
 */
function parseWktBody(text: string): Nested | null {
  let i = 0
  const skip = () => {
    while (i < text.length && /\s/.test(text[i])) i++
  }
  const list = (): Nested | null => {
    skip()
    if (text[i] !== '(') return null
    i++
    const items: Nested[] = []
    for (;;) {
      skip()
      if (text[i] === '(') {
        const inner = list()
        if (!inner) return null
        items.push(inner)
      } else {
        const start = i
        while (i < text.length && !/[,()]/.test(text[i])) i++
        const numbers = text.slice(start, i).trim().split(/\s+/).map(Number)
        if (numbers.length < 2 || numbers.some((n) => !Number.isFinite(n))) return null
        items.push(numbers)
      }
      skip()
      if (text[i] === ',') {
        i++
        continue
      }
      if (text[i] === ')') {
        i++
        return items as Nested
      }
      return null
    }
  }
  const result = list()
  skip()
  return result && i === text.length ? result : null
}

/**
 * The table of a layer's markers, as CSV and Excel write it: plain points as name/lng/lat columns
 * (spreadsheet-friendly), anything else as name/kind/radius/WKT; then the fields in the layer's order.
 */
export function markerTable(markers: ExportMarker[], options: ExportOptions = {}): { header: string[]; rows: (string | number)[][] } {
  const crs = options.crs ?? 'wgs84'
  const fieldNames = options.fieldNames ?? [...new Set(markers.flatMap((m) => Object.keys(m.fields)))]
  const onlyPoints = markers.every((m) => isPoint(m.type))
  const header = onlyPoints ? ['name', 'lng', 'lat', ...fieldNames] : ['name', 'kind', 'radius', 'wkt', ...fieldNames]
  const rows = markers.map((m) => {
    const values = fieldNames.map((f) => m.fields[f] ?? '')
    if (onlyPoints) {
      const p = fileParts(m, crs)[0][0]
      return [m.name, p.lng, p.lat, ...values]
    }
    return [m.name, KIND_NAMES[m.type], m.type === MARKER_KIND.circle ? m.radius : '', toWkt(m, crs), ...values]
  })
  return { header, rows }
}

export function serializeCsv(markers: ExportMarker[], options: ExportOptions = {}): string {
  const { header, rows } = safeTable(markerTable(markers, options))
  // The BOM makes Excel read UTF-8 (Chinese names) correctly.
  return '\uFEFF' + Papa.unparse({ fields: header, data: rows })
}

/**
 * The table with every text cell that a spreadsheet would run as a formula neutralised, the header
 * (field names, which any member with field rights chooses) as well as the values; coordinates stay numbers.
 */
export function safeTable(table: { header: string[]; rows: (string | number)[][] }): { header: string[]; rows: (string | number)[][] } {
  return { header: table.header.map(safeCell), rows: table.rows.map((row) => row.map((cell) => (typeof cell === 'number' ? cell : safeCell(cell)))) }
}

// A leading tab or carriage return is dropped by some spreadsheets on import, which then run what follows.
const FORMULA_START = /^[=+\-@\t\r]/
const PLAIN_NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/

/** Text that Excel and WPS show as text rather than run: a leading ' (which they hide), as OWASP advises for CSV injection. */
export function safeCell(value: string | number): string {
  const text = String(value)
  return FORMULA_START.test(text) && !PLAIN_NUMBER.test(text) ? `'${text}` : text
}

/** The text a cell stood for before safeCell: a file we wrote reads back as it was exported. */
export function unsafeCell(text: string): string {
  return text.startsWith("'") && FORMULA_START.test(text.slice(1)) && !PLAIN_NUMBER.test(text.slice(1)) ? text.slice(1) : text
}

function toWkt(m: ExportMarker, crs: FileCrs): string {
  const parts = fileParts(m, crs)
  const holes = fileHoles(m, crs)
  const xy = (points: LngLat[]) => points.map((p) => `${p.lng} ${p.lat}`).join(', ')
  const polygon = (i: number) => `(${[parts[i], ...(holes[i] ?? [])].map((r) => `(${xy(closeRing(r))})`).join(', ')})`
  switch (m.type) {
    case MARKER_KIND.point:
    case MARKER_KIND.circle:
      return `POINT (${xy(parts[0])})`
    case MARKER_KIND.solidLine:
    case MARKER_KIND.dashedLine:
      return `LINESTRING (${xy(parts[0])})`
    case MARKER_KIND.polygon:
      return `POLYGON ${polygon(0)}`
    case MARKER_KIND.rectangle:
      return `POLYGON ((${xy(closeRing(rectangleRing(m, crs)))}))`
    case MARKER_KIND.multiPolygon:
      return `MULTIPOLYGON (${parts.map((_, i) => polygon(i)).join(', ')})`
  }
}
