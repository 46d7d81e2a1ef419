/**
 * The data list's reads and its bulk actions' writes on markers: a layer's rows as the list shows
 * them (with notes counts and last editors), and changes of many markers made one chunk at a time,
 * each guarded by the revision it was read at, so that a change made meanwhile is never overwritten
 * (PostgreSQL and SQLite alike, without a lock held between the read and the write).
 */
import { sql, type RawBuilder, type SqlBool } from 'kysely'
import type { DataListFilter, DataListQuery } from '../../../types/datalist'
import { sqliteRowArrays, type DialectName, type Executor } from './connection'
import { dialectOf } from './markers'
import type { MarkerRow } from './markers'
import { opRowOf, type NewOp, type OplogRow } from './oplog'
import { bumpRev } from './revisions'

/** What the data list reads of a marker. */
export interface ListedMarker {
  id: number
  layer_id: number
  name: string
  type: number
  /** JSON (MarkerStyle). */
  style: string
  /** JSON of field values by field id. */
  fields: string
  rev: number
  creator_id: number
  updated_at: string
}

const LISTED = ['id', 'layer_id', 'name', 'type', 'style', 'fields', 'rev', 'creator_id', 'updated_at'] as const

/**
 * The live markers of one layer of the group, by id; with a query, only those its search and filters
 * may match (see prefilterOf: the caller still applies the domain's rules to them). On SQLite the
 * rows come as arrays (a layer of 100,000 made into objects property by property costs more than
 * the query itself).
 */
export async function listedMarkersOfLayer(db: Executor, groupId: number, layerId: number, query?: DataListQuery): Promise<ListedMarker[]> {
  let q = db.selectFrom('markers').select(LISTED).where('group_id', '=', groupId).where('layer_id', '=', layerId).where('deleted_at', 'is', null)
  for (const c of prefilterOf(dialectOf(db), query)) q = q.where(c)
  const query2 = q.orderBy('id')
  const arrays = await sqliteRowArrays(db, query2)
  if (!arrays) return query2.execute()
  return arrays.map((r) => ({
    id: r[0] as number,
    layer_id: r[1] as number,
    name: r[2] as string,
    type: r[3] as number,
    style: r[4] as string,
    fields: r[5] as string,
    rev: r[6] as number,
    creator_id: r[7] as number,
    updated_at: r[8] as string,
  }))
}

/** How many live markers the layer holds. */
export async function liveMarkersInLayer(db: Executor, groupId: number, layerId: number): Promise<number> {
  const row = await db
    .selectFrom('markers')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('group_id', '=', groupId)
    .where('layer_id', '=', layerId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst()
  return Number(row?.n ?? 0)
}

/** One stored field value as SQL sees it: its JSON type (NULL when the key is missing), its text (for a string), its number (for a number). */
interface StoredValue {
  dialect: DialectName
  type: RawBuilder<string | null>
  text: RawBuilder<string>
  num: RawBuilder<number>
}

function storedValue(dialect: DialectName, fieldId: number): StoredValue {
  const key = String(Math.trunc(fieldId))
  if (dialect === 'sqlite') {
    const path = `$."${key}"`
    return {
      dialect,
      type: sql<string | null>`json_type(markers.fields, ${path})`,
      text: sql<string>`json_extract(markers.fields, ${path})`,
      num: sql<number>`json_extract(markers.fields, ${path})`,
    }
  }
  const value = sql`(markers.fields::jsonb -> ${key})`
  return {
    dialect,
    type: sql<string | null>`jsonb_typeof(${value})`,
    // Compared byte by byte, as the domain compares code units (the database's collation would not).
    text: sql<string>`((${value} #>> '{}') collate "C")`,
    num: sql<number>`(${value} #>> '{}')::float8`,
  }
}

type Cond = RawBuilder<SqlBool>
const TRUE = sql<SqlBool>`true`
const FALSE = sql<SqlBool>`false`

/**
 * A condition by the value's JSON type, reading the type once: missing or null, a number, a string,
 * anything else (a boolean, an array, an object: the domain decides on those, so they stay in).
 * On SQLite a malformed field set is read by the domain as {} (every value missing), and json_type
 * would raise on it.
 */
function byType(v: StoredValue, c: { missing: Cond; num: Cond; text: Cond }): Cond {
  // A simple CASE reads the type once (neither database shares a repeated expression: PostgreSQL would cast the field set to jsonb again).
  const types = v.dialect === 'sqlite' ? sql`when 'integer' then ${c.num} when 'real' then ${c.num} when 'text' then ${c.text}` : sql`when 'number' then ${c.num} when 'string' then ${c.text}`
  const cond = sql<SqlBool>`(case coalesce(${v.type}, 'null') when 'null' then ${c.missing} ${types} else true end)`
  return v.dialect === 'sqlite' ? sql<SqlBool>`(case when json_valid(markers.fields) then ${cond} else ${c.missing} end)` : cond
}

// Only these two characters lower-case (in JS) to text holding ASCII letters: SQL lower() need not see them as the domain does.
const ASCII_FROM_LOWERCASE = ['\u0130', '\u212a']

/** `text` (an SQL string) lower-cased contains `want` (lower-cased ASCII), or may as the domain lower-cases it. */
function lowerHolds(dialect: DialectName, text: RawBuilder<string>, want: string): Cond {
  const find = (hay: RawBuilder<string>, needle: string) => (dialect === 'sqlite' ? sql<SqlBool>`instr(${hay}, ${needle}) > 0` : sql<SqlBool>`strpos(${hay}, ${needle}) > 0`)
  return sql<SqlBool>`(${find(sql<string>`lower(${text})`, want)} or ${find(text, ASCII_FROM_LOWERCASE[0])} or ${find(text, ASCII_FROM_LOWERCASE[1])})`
}

/** Rows the filter may hold for: never leaves out a row for which the domain's filterHolds is true. */
function filterMayHold(dialect: DialectName, f: DataListFilter): Cond | null {
  const v = storedValue(dialect, f.field_id)
  switch (f.op) {
    case 'empty':
      return byType(v, { missing: TRUE, num: FALSE, text: sql<SqlBool>`${v.text} = ''` })
    case 'not_empty':
      return byType(v, { missing: FALSE, num: TRUE, text: sql<SqlBool>`${v.text} <> ''` })
    case 'in':
      return byType(v, { missing: FALSE, num: TRUE, text: f.values.length ? sql<SqlBool>`${v.text} in (${sql.join(f.values)})` : FALSE })
    case 'range': {
      const parts: Cond[] = [TRUE]
      if (f.min !== undefined) parts.push(sql<SqlBool>`${v.num} >= ${f.min}`)
      if (f.max !== undefined) parts.push(sql<SqlBool>`${v.num} <= ${f.max}`)
      // A string may still be a number to the domain (Number('12')).
      return byType(v, { missing: FALSE, num: sql<SqlBool>`(${sql.join(parts, sql` and `)})`, text: TRUE })
    }
    case 'dates': {
      const parts: Cond[] = [sql<SqlBool>`${v.text} <> ''`]
      if (f.from) parts.push(sql<SqlBool>`${v.text} >= ${f.from}`)
      if (f.to) parts.push(sql<SqlBool>`${v.text} <= ${f.to}`)
      return byType(v, { missing: FALSE, num: TRUE, text: sql<SqlBool>`(${sql.join(parts, sql` and `)})` })
    }
    case 'contains': {
      const want = f.text.trim().toLowerCase()
      if (want === '') return null
      // SQL lower() folds ASCII letters only: a search with other characters is left to the domain.
      const holds = /^[\x20-\x7e]*$/.test(want) ? lowerHolds(dialect, v.text, want) : sql<SqlBool>`${v.text} <> ''`
      return byType(v, { missing: FALSE, num: TRUE, text: holds })
    }
  }
}

/**
 * What SQL can leave out of a layer's rows before the domain's rules (src/domain/dataList.ts) are
 * applied to the rest: reading and parsing every row of a large layer in JS is the list's cost.
 * Each condition is looser than the rule it stands for, never stricter, so the answers are the
 * domain's exactly; where SQL cannot tell as JS does (case folding beyond ASCII, values of another
 * JSON type than the field's kind) it keeps the row.
 */
export function prefilterOf(dialect: DialectName, query: DataListQuery | undefined): Cond[] {
  const out: Cond[] = []
  const kw = query?.kw?.trim().toLowerCase()
  // search_text is the name and the field values, lower-cased by the domain on every save; a
  // keyword without white space cannot match across two values, so there it means the same.
  if (kw && !/\s/.test(kw)) out.push(dialect === 'sqlite' ? sql<SqlBool>`instr(markers.search_text, ${kw}) > 0` : sql<SqlBool>`strpos(markers.search_text, ${kw}) > 0`)
  for (const f of query?.filters ?? []) {
    const c = filterMayHold(dialect, f)
    if (c) out.push(c)
  }
  return out
}

// Ids per IN list: well under SQLite's 32766 bind parameters and PostgreSQL's 65535.
const IDS_PER_QUERY = 5000

async function inSlices<T>(ids: readonly number[], read: (slice: number[]) => Promise<T[]>): Promise<T[]> {
  const out: T[] = []
  for (let i = 0; i < ids.length; i += IDS_PER_QUERY) out.push(...(await read(ids.slice(i, i + IDS_PER_QUERY))))
  return out
}

/** Live notes per marker, for these markers of the layer (all of the layer's when `ids` is left out). */
export async function notesCountsOf(db: Executor, groupId: number, layerId: number, ids?: readonly number[]): Promise<Map<number, number>> {
  const read = (slice?: number[]) => {
    let q = db
      .selectFrom('notes')
      .select((eb) => ['marker_id', eb.fn.countAll().as('n')])
      .where('group_id', '=', groupId)
      .where('deleted_at', 'is', null)
    q = slice ? q.where('marker_id', 'in', slice) : q.where('marker_id', 'in', (eb) => eb.selectFrom('markers').select('id').where('layer_id', '=', layerId).where('deleted_at', 'is', null))
    return q.groupBy('marker_id').execute()
  }
  const rows = ids ? (ids.length ? await inSlices(ids, read) : []) : await read()
  return new Map(rows.map((r) => [r.marker_id, Number(r.n)]))
}

/** Who made the newest op-log entry of each of these markers of the layer (all of the layer's when `ids` is left out), by marker id. */
export async function lastEditorsOf(db: Executor, groupId: number, layerId: number, ids?: readonly number[]): Promise<Map<number, number>> {
  const read = (slice?: number[]) =>
    db
      .selectFrom('oplog')
      .select(['entity_id', 'user_id'])
      .where('id', 'in', (eb) => {
        const q = eb
          .selectFrom('oplog')
          .select((e) => e.fn.max('id').as('id'))
          .where('group_id', '=', groupId)
          .where('entity', '=', 'marker')
        return (
          slice ? q.where('entity_id', 'in', slice) : q.where('entity_id', 'in', (e) => e.selectFrom('markers').select('id').where('layer_id', '=', layerId).where('deleted_at', 'is', null))
        ).groupBy('entity_id')
      })
      .execute()
  const rows = ids ? (ids.length ? await inSlices(ids, read) : []) : await read()
  return new Map(rows.map((r) => [r.entity_id, r.user_id]))
}

/** The group's markers with these ids, live or deleted. */
export function markersWithIdsEvenDeleted(db: Executor, groupId: number, ids: readonly number[]): Promise<MarkerRow[]> {
  if (ids.length === 0) return Promise.resolve([])
  return inSlices(ids, (slice) => db.selectFrom('markers').selectAll().where('group_id', '=', groupId).where('id', 'in', slice).execute())
}

export type BulkPatch = Partial<Pick<MarkerRow, 'fields' | 'search_text' | 'style' | 'width' | 'layer_id'>>

/** Changes a live marker still at revision `rev`; undefined when it has changed or gone meanwhile. */
export function updateMarkerAtRev(trx: Executor, id: number, rev: number, patch: BulkPatch, at: string): Promise<MarkerRow | undefined> {
  return trx
    .updateTable('markers')
    .set({ ...patch, updated_at: at, rev: bumpRev() })
    .where('id', '=', id)
    .where('rev', '=', rev)
    .where('deleted_at', 'is', null)
    .returningAll()
    .executeTakeFirst()
}

/** Deletes a live marker still at revision `rev`; undefined when it has changed or gone meanwhile. */
export function deleteMarkerAtRev(trx: Executor, id: number, rev: number, at: string): Promise<MarkerRow | undefined> {
  return trx
    .updateTable('markers')
    .set({ deleted_at: at, updated_at: at, rev: bumpRev() })
    .where('id', '=', id)
    .where('rev', '=', rev)
    .where('deleted_at', 'is', null)
    .returningAll()
    .executeTakeFirst()
}

/** Brings back a marker still deleted at `deletedAt` (by the entry being restored); undefined otherwise. */
export function undeleteMarker(trx: Executor, id: number, deletedAt: string, at: string): Promise<MarkerRow | undefined> {
  return trx.updateTable('markers').set({ deleted_at: null, updated_at: at, rev: bumpRev() }).where('id', '=', id).where('deleted_at', '=', deletedAt).returningAll().executeTakeFirst()
}

/** Adds each delta to its layer's kept marker count (which the marker limit and the layer panel read). */
export async function shiftLayerCounts(trx: Executor, deltas: ReadonlyMap<number, number>): Promise<void> {
  for (const [layerId, n] of deltas) {
    if (n === 0) continue
    await trx
      .updateTable('layers')
      .set((eb) => ({ marker_count: eb('marker_count', '+', n) }))
      .where('id', '=', layerId)
      .execute()
  }
}

/** Records the op-log entries of one chunk of a bulk action, each naming the action. */
export async function recordBatchOps(trx: Executor, ops: readonly NewOp[], batchId: string): Promise<void> {
  if (ops.length === 0) return
  await trx
    .insertInto('oplog')
    .values(ops.map((op) => ({ ...opRowOf(op), batch_id: batchId })))
    .execute()
}

/** The entries of one bulk action of the group, oldest first. */
export function opsOfBatch(db: Executor, groupId: number, batchId: string): Promise<OplogRow[]> {
  return db.selectFrom('oplog').selectAll().where('group_id', '=', groupId).where('batch_id', '=', batchId).orderBy('id').execute()
}
