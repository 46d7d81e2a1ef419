/**
 * The columnar marker page (types/api.ts MarkerColumnsPage): the server encodes a page of markers
 * into it, the phone decodes it back into the very Marker objects the SPEC page gives. A page of
 * 5000 SPEC-shape markers repeats every key 5000 times and every style, creator and empty field set
 * as text, which the phone parses into objects and then collects; in columns the keys go once, the
 * repeated values once in a dictionary, ids and times as small differences, and JSON.parse makes a
 * few arrays instead of 15,000 objects.
 *
 * Markers decoded from one page share their style and field-set objects (a page holds a handful of
 * distinct ones): like every marker the stores hold, they are replaced on an edit, never changed in place.
 */
import type { MarkerColumnsPage, Paged } from '../../types/api'
import type { Marker } from '../../types/mapdata'
import { MARKER_WIRE, type WireColumn } from './markerWire'

export const MARKER_COLUMNS_VERSION = 1

/** A page that is not a version-1 columnar page as encodeMarkerColumns makes it; nothing of it is used. */
export class MarkerColumnsError extends Error {
  constructor(what: string) {
    super(`marker columns page refused: ${what}`)
    this.name = 'MarkerColumnsError'
  }
}

/** [value, count] pairs of the values as they follow one another. */
function runsOf(values: readonly number[]): number[] {
  const runs: number[] = []
  for (let i = 0; i < values.length;) {
    let j = i + 1
    while (j < values.length && values[j] === values[i]) j++
    runs.push(values[i], j - i)
    i = j
  }
  return runs
}

/** Indexes of values in a dictionary of the distinct ones, told apart by `keyOf`. */
class Dictionary<T> {
  readonly values: T[] = []
  private readonly byKey = new Map<string, number>()
  // Markers presented from rows share the objects parsed from one JSON text: those are known without serialising them again.
  private readonly byObject = new Map<T, number>()

  constructor(private readonly keyOf: (value: T) => string) {}

  indexOf(value: T): number {
    const known = this.byObject.get(value)
    if (known !== undefined) return known
    const key = this.keyOf(value)
    let index = this.byKey.get(key)
    if (index === undefined) {
      index = this.values.length
      this.values.push(value)
      this.byKey.set(key, index)
    }
    this.byObject.set(value, index)
    return index
  }
}

const DAY_MS = 86_400_000
// Years 0000-9999, where toISOString writes 'YYYY-MM-DDTHH:MM:SS.mmmZ'.
const FIRST_MS = -62_167_219_200_000
const END_MS = 253_402_300_800_000

const ZERO = 48

const isWritableTime = (ms: number) => Number.isInteger(ms) && ms >= FIRST_MS && ms < END_MS

/**
 * Writes times as toISOString does, the date part once per day: a page has 10,000 times, mostly of a
 * few days. The text is made from its character codes in one go: a template literal would leave each
 * time as a rope of a dozen pieces, five times the memory of the flat text JSON.parse makes.
 */
class IsoTimes {
  // The day the last text read was of ('YYYY-MM-DDT') and its first millisecond (msOf).
  private dayText = ''
  private dayMs = NaN
  private day = NaN
  // 'YYYY-MM-DDTHH:MM:SS.mmmZ'
  private readonly codes = Array.from('0000-00-00T00:00:00.000Z', (c) => c.charCodeAt(0))

  text(ms: number): string {
    const codes = this.codes
    const day = Math.floor(ms / DAY_MS)
    if (day !== this.day) {
      this.day = day
      const date = new Date(day * DAY_MS).toISOString()
      for (let i = 0; i < 10; i++) codes[i] = date.charCodeAt(i)
    }
    let rest = ms - day * DAY_MS
    const h = Math.floor(rest / 3_600_000)
    rest -= h * 3_600_000
    const m = Math.floor(rest / 60_000)
    rest -= m * 60_000
    const sec = Math.floor(rest / 1000)
    rest -= sec * 1000
    codes[11] = ZERO + Math.floor(h / 10)
    codes[12] = ZERO + (h % 10)
    codes[14] = ZERO + Math.floor(m / 10)
    codes[15] = ZERO + (m % 10)
    codes[17] = ZERO + Math.floor(sec / 10)
    codes[18] = ZERO + (sec % 10)
    codes[20] = ZERO + Math.floor(rest / 100)
    codes[21] = ZERO + (Math.floor(rest / 10) % 10)
    codes[22] = ZERO + (rest % 10)
    return String.fromCharCode.apply(null, codes)
  }

  /**
   * The time of a text exactly as `text` would write it back, else undefined. A text of the day
   * before is read from its digits (Date.parse and the check cost more than the rest of a page's encoding).
   */
  msOf(text: string): number | undefined {
    if (text.length !== 24) return undefined
    if (this.dayText && text.startsWith(this.dayText)) {
      const h = digits(text, 11, 2)
      const m = digits(text, 14, 2)
      const sec = digits(text, 17, 2)
      const milli = digits(text, 20, 3)
      const marks = text.charCodeAt(13) === 58 && text.charCodeAt(16) === 58 && text.charCodeAt(19) === 46 && text.charCodeAt(23) === 90
      if (marks && h < 24 && m < 60 && sec < 60 && milli >= 0) return this.dayMs + h * 3_600_000 + m * 60_000 + sec * 1000 + milli
    }
    const ms = Date.parse(text)
    if (!isWritableTime(ms) || this.text(ms) !== text) return undefined
    this.dayText = text.slice(0, 11)
    this.dayMs = Math.floor(ms / DAY_MS) * DAY_MS
    return ms
  }
}

/** The number written by `count` decimal digits at `at`; NaN when one is not a digit. */
function digits(text: string, at: number, count: number): number {
  let n = 0
  for (let i = at; i < at + count; i++) {
    const d = text.charCodeAt(i) - ZERO
    if (d < 0 || d > 9) return NaN
    n = n * 10 + d
  }
  return n
}

/** Times as differences from the last one sent as a number; a text that does not come back exactly from its number goes as it is. */
function timesOf(texts: readonly string[]): (number | string)[] {
  const out = new Array<number | string>(texts.length)
  const iso = new IsoTimes()
  let last = 0
  for (let i = 0; i < texts.length; i++) {
    const text = texts[i]
    const ms = iso.msOf(text)
    if (ms === undefined) out[i] = text
    else {
      out[i] = ms - last
      last = ms
    }
  }
  return out
}

/** [gap, value] pairs of the markers that have a value for `key` (gap: how many without one came before it since the last). */
function sparseOf(markers: readonly Marker[], key: keyof Marker): (number | string)[] {
  const pairs: (number | string)[] = []
  let since = 0
  for (const m of markers) {
    const value = m[key] as string | undefined
    if (value === undefined) since++
    else {
      pairs.push(since, value)
      since = 0
    }
  }
  return pairs
}

/** Indexes of the distinct [a, b] pairs of the markers (creator id and name): known pairs are found without serialising them. */
function pairsOf(markers: readonly Marker[], a: keyof Marker, b: keyof Marker): { values: [unknown, unknown][]; index: number[] } {
  const pairs = new Dictionary<[unknown, unknown]>((p) => JSON.stringify(p))
  const known = new Map<unknown, Map<unknown, number>>()
  const index = new Array<number>(markers.length)
  for (let i = 0; i < markers.length; i++) {
    const m = markers[i]
    let byB = known.get(m[a])
    if (!byB) known.set(m[a], (byB = new Map()))
    let ix = byB.get(m[b])
    if (ix === undefined) byB.set(m[b], (ix = pairs.indexOf([m[a], m[b]])))
    index[i] = ix
  }
  return { values: pairs.values, index }
}

/** The page of these markers (in the order given) in columns, coded as MARKER_WIRE says; `total` as the SPEC page's. */
export function encodeMarkerColumns(markers: readonly Marker[], total: number): MarkerColumnsPage {
  const n = markers.length
  const page: Record<string, unknown> = { v: MARKER_COLUMNS_VERSION, total, n }
  const valuesOf = (key: keyof Marker) => {
    const out = new Array<unknown>(n)
    for (let i = 0; i < n; i++) out[i] = markers[i][key]
    return out
  }
  for (const column of MARKER_WIRE as readonly WireColumn[]) {
    const { key, columnar } = column
    switch (columnar.kind) {
      case 'delta': {
        const values = valuesOf(key) as number[]
        page[key] = values.map((v, i) => v - (i > 0 ? values[i - 1] : 0))
        break
      }
      case 'runs':
        page[key] = runsOf(valuesOf(key) as number[])
        break
      case 'texts':
        page[key] = valuesOf(key)
        break
      case 'dictionary': {
        const dictionary = new Dictionary<unknown>((o) => JSON.stringify(o))
        page[key] = runsOf(markers.map((m) => dictionary.indexOf(m[key])))
        page[columnar.values] = dictionary.values
        break
      }
      case 'pair': {
        const { values, index } = pairsOf(markers, key, columnar.with)
        page[columnar.values] = values
        page[columnar.wire] = runsOf(index)
        break
      }
      case 'times':
        page[key] = timesOf(valuesOf(key) as string[])
        break
      case 'sparse':
        page[key] = sparseOf(markers, key)
        break
      case 'paired':
        break
    }
  }
  return page as unknown as MarkerColumnsPage
}

// ---- decoding: every column is checked before any marker is made --------------------------------

type Column = Record<string, unknown>

function arrayOf(page: Column, key: string, length?: number): unknown[] {
  const value = page[key]
  if (!Array.isArray(value)) throw new MarkerColumnsError(`${key} is not an array`)
  if (length !== undefined && value.length !== length) throw new MarkerColumnsError(`${key} has ${value.length} values for ${length} markers`)
  return value
}

function numbersOf(page: Column, key: string, n: number): number[] {
  const values = arrayOf(page, key, n)
  for (const v of values) if (!Number.isInteger(v)) throw new MarkerColumnsError(`${key} holds ${JSON.stringify(v)}, not an integer`)
  return values as number[]
}

function stringsOf(page: Column, key: string, n: number): string[] {
  const values = arrayOf(page, key, n)
  for (const v of values) if (typeof v !== 'string') throw new MarkerColumnsError(`${key} holds ${JSON.stringify(v)}, not a string`)
  return values as string[]
}

/** The n values of a runs column; `ok` checks each run's value. */
function expandRuns(page: Column, key: string, n: number, ok: (v: number) => boolean): number[] {
  const runs = arrayOf(page, key)
  if (runs.length % 2) throw new MarkerColumnsError(`${key} has an odd number of run values`)
  const out = new Array<number>(n)
  let at = 0
  for (let r = 0; r < runs.length; r += 2) {
    const value = runs[r] as number
    const count = runs[r + 1] as number
    if (typeof value !== 'number' || !ok(value)) throw new MarkerColumnsError(`${key} holds the value ${JSON.stringify(value)}`)
    if (!Number.isInteger(count) || count < 1 || at + count > n) throw new MarkerColumnsError(`${key} runs go past ${n} markers`)
    out.fill(value, at, at + count)
    at += count
  }
  if (at !== n) throw new MarkerColumnsError(`${key} runs cover ${at} of ${n} markers`)
  return out
}

function objectsOf<T>(page: Column, key: string): T[] {
  const values = arrayOf(page, key)
  for (const v of values) if (!v || typeof v !== 'object' || Array.isArray(v)) throw new MarkerColumnsError(`${key} holds ${JSON.stringify(v)}, not an object`)
  return values as T[]
}

function timesFrom(page: Column, key: string, n: number): string[] {
  const values = arrayOf(page, key, n)
  const out = new Array<string>(n)
  const iso = new IsoTimes()
  let last = 0
  let lastText = ''
  let lastMs = NaN
  for (let i = 0; i < n; i++) {
    const v = values[i]
    if (typeof v === 'string') out[i] = v
    else if (typeof v === 'number' && Number.isInteger(v)) {
      last += v
      // Imported markers and unchanged ones share their times: the text is made once per run of equal times.
      if (last !== lastMs) {
        if (!isWritableTime(last)) throw new MarkerColumnsError(`${key} reaches a time outside the years 0-9999`)
        lastText = iso.text(last)
        lastMs = last
      }
      out[i] = lastText
    } else throw new MarkerColumnsError(`${key} holds ${JSON.stringify(v)}`)
  }
  return out
}

/** Checks a run's value is an index into `list`. */
const indexInto = (list: readonly unknown[]) => (v: number) => Number.isInteger(v) && v >= 0 && v < list.length

/**
 * The markers of a columnar page, deep-equal to the SPEC page's list, and its total. Anything but a
 * well-formed version-1 page (another version, a column too short or of the wrong kind, runs that do not
 * add up, an index outside its dictionary) throws MarkerColumnsError before a single marker is made.
 */
export function decodeMarkerColumns(input: unknown): Paged<Marker> {
  const steps = markerColumnsDecoding(input)
  for (;;) {
    const step = steps.next()
    if (step.done) return step.value
  }
}

/** Markers made between two of the decoding's steps. */
const MARKERS_PER_STEP = 500
/** A slice of decodeInSlices gives the page back after this long: a frame's share of a slow phone's time. */
const SLICE_MS = 8

/**
 * markerColumnsDecoding run in slices of a few milliseconds, each after `nextTask` (the platform's
 * turn of the page: its taps, frames and other answers are handled between them).
 */
export async function decodeInSlices(input: unknown, nextTask: () => Promise<void>): Promise<Paged<Marker>> {
  const steps = markerColumnsDecoding(input)
  for (;;) {
    await nextTask()
    const from = Date.now()
    for (;;) {
      const step = steps.next()
      if (step.done) return step.value
      if (Date.now() - from >= SLICE_MS) break
    }
  }
}

/**
 * decodeMarkerColumns in steps: the generator yields after each column's check and after each few
 * hundred markers made, and returns the page when it is whole. A caller on a slow phone's page runs it
 * in tasks of a few milliseconds: a page of 5000 decoded at once is one task of tens of milliseconds,
 * and over a hundred the first time, before the engine has compiled the decoder. A malformed page
 * still throws before any marker is made.
 */
export function* markerColumnsDecoding(input: unknown): Generator<void, Paged<Marker>, void> {
  if (!input || typeof input !== 'object' || Array.isArray(input)) throw new MarkerColumnsError('not an object')
  const page = input as Column
  if (page.v !== MARKER_COLUMNS_VERSION) throw new MarkerColumnsError(`version ${JSON.stringify(page.v)} is not ${MARKER_COLUMNS_VERSION}`)
  const n = page.n
  if (!Number.isInteger(n) || (n as number) < 0) throw new MarkerColumnsError(`n is ${JSON.stringify(n)}`)
  if (typeof page.total !== 'number' || !Number.isInteger(page.total)) throw new MarkerColumnsError(`total is ${JSON.stringify(page.total)}`)
  const count = n as number
  // Each column's n values, checked, in MARKER_WIRE's order (the markers' keys come in that order).
  const keys: (keyof Marker)[] = []
  const values: unknown[][] = []
  const sparse: { key: keyof Marker; byIndex: Map<number, string> }[] = []
  // The second member of each pair, by its key, until its own entry comes.
  const paired = new Map<keyof Marker, unknown[]>()
  for (const column of MARKER_WIRE as readonly WireColumn[]) {
    const { key, columnar } = column
    switch (columnar.kind) {
      case 'delta': {
        const deltas = numbersOf(page, key, count)
        const out = new Array<number>(count)
        for (let i = 0, sum = 0; i < count; i++) out[i] = sum += deltas[i]
        keys.push(key)
        values.push(out)
        break
      }
      case 'runs':
        keys.push(key)
        values.push(expandRuns(page, key, count, columnar.check))
        break
      case 'texts':
        keys.push(key)
        values.push(stringsOf(page, key, count))
        break
      case 'dictionary': {
        const dictionary = objectsOf<object>(page, columnar.values)
        keys.push(key)
        values.push(expandRuns(page, key, count, indexInto(dictionary)).map((ix) => dictionary[ix]))
        break
      }
      case 'pair': {
        // A pair is an id and its text (the creator's id and nickname).
        const pairs = arrayOf(page, columnar.values) as [number, string][]
        for (const c of pairs) {
          if (!Array.isArray(c) || c.length !== 2 || !Number.isInteger(c[0]) || typeof c[1] !== 'string') throw new MarkerColumnsError(`${columnar.values} holds ${JSON.stringify(c)}`)
        }
        const index = expandRuns(page, columnar.wire, count, indexInto(pairs))
        keys.push(key)
        values.push(index.map((ix) => pairs[ix][0]))
        paired.set(
          columnar.with,
          index.map((ix) => pairs[ix][1]),
        )
        break
      }
      case 'paired': {
        const second = paired.get(key)
        if (!second) throw new Error(`${key} is paired with no column before it`)
        keys.push(key)
        values.push(second)
        break
      }
      case 'times':
        keys.push(key)
        values.push(timesFrom(page, key, count))
        break
      case 'sparse':
        sparse.push({ key, byIndex: sparseFrom(page, key, count) })
        break
    }
    yield
  }

  const list = new Array<Marker>(count)
  for (let i = 0; i < count; i++) {
    const m: Record<string, unknown> = {}
    for (let c = 0; c < keys.length; c++) m[keys[c]] = values[c][i]
    for (const s of sparse) {
      const value = s.byIndex.get(i)
      if (value !== undefined) m[s.key] = value
    }
    list[i] = m as unknown as Marker
    if ((i + 1) % MARKERS_PER_STEP === 0) yield
  }
  return { list, total: page.total }
}

/** The values of a sparse column ([gap, value] pairs) by marker index. */
function sparseFrom(page: Column, key: string, count: number): Map<number, string> {
  const pairs = arrayOf(page, key)
  if (pairs.length % 2) throw new MarkerColumnsError(`${key} has an odd number of values`)
  const byIndex = new Map<number, string>()
  for (let p = 0, at = -1; p < pairs.length; p += 2) {
    const gap = pairs[p]
    const value = pairs[p + 1]
    if (!Number.isInteger(gap) || (gap as number) < 0 || typeof value !== 'string') throw new MarkerColumnsError(`${key} holds ${JSON.stringify([gap, value])}`)
    at += (gap as number) + 1
    if (at >= count) throw new MarkerColumnsError(`${key} goes past ${count} markers`)
    byIndex.set(at, value)
  }
  return byIndex
}
