/**
 * The data list's rules, shared by the phone (a layer it holds) and the server (larger layers and
 * bulk actions over a query): which rows a search and per-field filters match, their order, and
 * what a selection picks.
 *
 * Sorting is the same everywhere: numbers as numbers, dates as dates, text by its pinyin (through
 * pinyin-pro: `Intl.Collator('zh')` does not sort by pinyin in many phones' WebViews nor in WeChat's
 * JS engine, while Node does, so tests would pass on an order the phone never shows). Empty values
 * come last in either direction, and equal values keep id order, so pages never shuffle.
 */
import { pinyin } from 'pinyin-pro'
import type { BulkTarget, DataListFilter, DataListQuery, DataListRow, DataListSortKey } from '../../types/datalist'
import type { FieldKind, FieldValue, LayerField } from '../../types/mapdata'
import { DATA_LIST_MSG } from './dataListMessages'

/** Rows the list asks the server for at a time (a screen holds ~15; a page is a few screens of scrolling). */
export const DATA_LIST_PAGE_SIZE = 200
/** At most this many markers of a layer are filtered on the phone; a larger layer is filtered by the server, in pages. */
export const DATA_LIST_PHONE_MAX = 5000
/** One bulk action changes at most this many markers (全选 over a query included). */
export const BULK_MAX = 50_000
/** A bulk action naming its rows sends at most this many ids (more go through the query). */
export const BULK_MAX_IDS = 5000

type FieldsById = ReadonlyMap<number, Pick<LayerField, 'id' | 'name' | 'kind'>>

/** The filter ops each field kind offers (every kind also offers empty / not empty). */
export const FILTER_OPS: Record<FieldKind, DataListFilter['op'][]> = {
  choice: ['in', 'empty', 'not_empty'],
  number: ['range', 'empty', 'not_empty'],
  date: ['dates', 'empty', 'not_empty'],
  text: ['contains', 'empty', 'not_empty'],
  phone: ['contains', 'empty', 'not_empty'],
  photo: ['empty', 'not_empty'],
}

export function fieldsById(fields: readonly Pick<LayerField, 'id' | 'name' | 'kind'>[]): FieldsById {
  return new Map(fields.map((f) => [f.id, f]))
}

/** A search or a filter is on (the count line then says how many it found). */
export function isQueryActive(query: DataListQuery | undefined): boolean {
  return !!(query?.kw?.trim() || query?.filters?.length)
}

/** The problem with a query on these fields (a filter on an unknown field, or not fitting its kind; an unknown sort column); null when fine. */
export function queryProblem(fields: FieldsById, query: DataListQuery | undefined): string | null {
  for (const f of query?.filters ?? []) {
    const field = fields.get(f.field_id)
    if (!field) return DATA_LIST_MSG.filterUnknownField
    if (!FILTER_OPS[field.kind].includes(f.op)) return DATA_LIST_MSG.filterNotFitting(field.name)
  }
  const key = query?.sort?.key
  if (key && !['name', 'notes', 'edited_at', 'editor'].includes(key)) {
    const id = fieldIdOfKey(key)
    if (id === null || !fields.has(id)) return DATA_LIST_MSG.sortUnknown
  }
  return null
}

function fieldIdOfKey(key: DataListSortKey): number | null {
  const m = /^field:(\d+)$/.exec(key)
  return m ? Number(m[1]) : null
}

function isEmptyValue(v: FieldValue | undefined): boolean {
  return v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0)
}

function textOf(v: FieldValue | undefined): string {
  if (isEmptyValue(v)) return ''
  return Array.isArray(v) ? '' : String(v)
}

/** Whether one filter holds for a row's value. */
export function filterHolds(filter: DataListFilter, value: FieldValue | undefined): boolean {
  switch (filter.op) {
    case 'empty':
      return isEmptyValue(value)
    case 'not_empty':
      return !isEmptyValue(value)
    case 'in':
      return !isEmptyValue(value) && filter.values.includes(textOf(value))
    case 'range': {
      if (isEmptyValue(value)) return false
      const n = typeof value === 'number' ? value : Number(value)
      if (!Number.isFinite(n)) return false
      return (filter.min === undefined || n >= filter.min) && (filter.max === undefined || n <= filter.max)
    }
    case 'dates': {
      const d = textOf(value)
      if (!d) return false
      return (!filter.from || d >= filter.from) && (!filter.to || d <= filter.to)
    }
    case 'contains': {
      const want = filter.text.trim().toLowerCase()
      return want === '' || textOf(value).toLowerCase().includes(want)
    }
  }
}

type Matchable = Pick<DataListRow, 'name' | 'fields'>

/** The text the search box matches: the name and the field values (not photos), lower-cased. */
export function searchableText(row: Matchable): string {
  const parts = [row.name]
  for (const v of Object.values(row.fields)) if (!isEmptyValue(v) && !Array.isArray(v)) parts.push(String(v))
  return parts.join(' ').toLowerCase()
}

/** Whether the row meets the search and every filter. */
export function rowMatches(row: Matchable, query: DataListQuery | undefined): boolean {
  const kw = query?.kw?.trim().toLowerCase()
  if (kw && !searchableText(row).includes(kw)) return false
  for (const f of query?.filters ?? []) if (!filterHolds(f, row.fields[String(f.field_id)])) return false
  return true
}

// Keys already worked out: pinyin costs ~10 µs a name, and a list is sorted again on every tap of a
// column and on every page of a large layer. Bounded, and simply emptied when full.
const PINYIN_KEYS_MAX = 100_000
const pinyinKeys = new Map<string, string>()

/** The key text sorts by: its pinyin for Chinese characters, the text itself (lower-cased) otherwise. */
export function pinyinKey(text: string): string {
  if (!/[\u3400-\u9fff]/.test(text)) return text.toLowerCase()
  let key = pinyinKeys.get(text)
  if (key === undefined) {
    // Forward maximum matching reads place names as words (银行长沙店: 长沙 chang sha, not 行长 hang zhang) and is the quicker segmentation.
    key = pinyin(text, { toneType: 'none', type: 'array', nonZh: 'consecutive', v: true, segmentit: 3 }).join(' ').toLowerCase()
    if (pinyinKeys.size >= PINYIN_KEYS_MAX) pinyinKeys.clear()
    pinyinKeys.set(text, key)
  }
  return key
}

type SortValue = number | string | null

type Sortable = DataListRow

function sortValueOf(row: Sortable, key: DataListSortKey, fields: FieldsById): SortValue {
  switch (key) {
    case 'name':
      return pinyinKey(row.name)
    case 'notes':
      return row.notes_count
    case 'edited_at':
      return row.edited_at
    case 'editor':
      return row.editor_name ? pinyinKey(row.editor_name) : null
    default: {
      const id = fieldIdOfKey(key)
      const field = id === null ? undefined : fields.get(id)
      const v = row.fields[String(id)]
      if (!field || isEmptyValue(v) || Array.isArray(v)) return null
      if (field.kind === 'number') {
        const n = typeof v === 'number' ? v : Number(v)
        return Number.isFinite(n) ? n : null
      }
      // Dates are YYYY-MM-DD: their text order is their time order.
      return field.kind === 'date' ? String(v) : pinyinKey(String(v))
    }
  }
}

function compareValues(a: SortValue, b: SortValue): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b
  const sa = String(a)
  const sb = String(b)
  return sa < sb ? -1 : sa > sb ? 1 : 0
}

/**
 * The rows in the query's order (id order without a sort). Each row's sort value is worked out once,
 * not once per comparison: pinyin of 5,000 names per comparison would take seconds on a phone.
 */
export function sortRows<R extends Sortable>(rows: readonly R[], query: DataListQuery | undefined, fields: FieldsById): R[] {
  const sort = query?.sort
  if (!sort) return [...rows].sort((a, b) => a.id - b.id)
  const keyed = rows.map((row) => ({ row, value: sortValueOf(row, sort.key, fields) }))
  const dir = sort.dir === 'desc' ? -1 : 1
  keyed.sort((a, b) => {
    if (a.value === null || b.value === null) {
      if (a.value === b.value) return a.row.id - b.row.id
      return a.value === null ? 1 : -1
    }
    return dir * compareValues(a.value, b.value) || a.row.id - b.row.id
  })
  return keyed.map((k) => k.row)
}

/** What the list shows for a query: the matching rows, in order. */
export function findRows<R extends Sortable>(rows: readonly R[], query: DataListQuery | undefined, fields: FieldsById): R[] {
  return sortRows(
    rows.filter((r) => rowMatches(r, query)),
    query,
    fields,
  )
}

/**
 * Rows picked in 选择 mode. `all` is 全选: every row the query matched, whether or not it is on
 * screen or even loaded, but those unticked since (`except`); otherwise the ids ticked one by one.
 */
export type DataListSelection = { all: false; ids: ReadonlySet<number> } | { all: true; except: ReadonlySet<number> }

export const NO_SELECTION: DataListSelection = { all: false, ids: new Set() }

export function isSelected(sel: DataListSelection, id: number): boolean {
  return sel.all ? !sel.except.has(id) : sel.ids.has(id)
}

/** Ticks or unticks one row. */
export function toggleRow(sel: DataListSelection, id: number): DataListSelection {
  const flip = (set: ReadonlySet<number>) => {
    const next = new Set(set)
    if (next.has(id)) next.delete(id)
    else next.add(id)
    return next
  }
  return sel.all ? { all: true, except: flip(sel.except) } : { all: false, ids: flip(sel.ids) }
}

/** 全选: everything the query matched. */
export function selectAllMatched(): DataListSelection {
  return { all: true, except: new Set() }
}

/** How many rows the selection picks, given how many the query matched. */
export function selectedCount(sel: DataListSelection, matched: number): number {
  return sel.all ? Math.max(0, matched - sel.except.size) : sel.ids.size
}

/** Every matched row is picked (the 全选 box shows ticked). */
export function allPicked(sel: DataListSelection, matched: number): boolean {
  return matched > 0 && selectedCount(sel, matched) === matched
}

/**
 * What a bulk call names: the picked rows with the revision each showed, or, after 全选 over more
 * rows than one call may name (or than the phone holds), the layer's query and the rows unticked.
 */
export function bulkTargetOf(sel: DataListSelection, rows: readonly Pick<DataListRow, 'id' | 'rev'>[], allRowsLoaded: boolean, layerId: number, query: DataListQuery, listedAt: string): BulkTarget {
  if (sel.all && (!allRowsLoaded || rows.length - sel.except.size > BULK_MAX_IDS)) return { layer_id: layerId, query, except_ids: [...sel.except], listed_at: listedAt }
  return { layer_id: layerId, items: rows.filter((r) => isSelected(sel, r.id)).map((r) => ({ id: r.id, rev: r.rev })) }
}

/** What a filter chip says: 状态: 待拜访、已拜访 / 金额: 10–100 / 日期: 2024-01-01 起. */
export function filterLabel(filter: DataListFilter, fieldName: string): string {
  switch (filter.op) {
    case 'empty':
      return `${fieldName}: ${DATA_LIST_MSG.emptyValue}`
    case 'not_empty':
      return `${fieldName}: ${DATA_LIST_MSG.notEmptyValue}`
    case 'in':
      return `${fieldName}: ${filter.values.join('、')}`
    case 'contains':
      return `${fieldName}: ${DATA_LIST_MSG.contains}“${filter.text}”`
    case 'range':
      return `${fieldName}: ${filter.min ?? ''}–${filter.max ?? ''}`
    case 'dates':
      return `${fieldName}: ${filter.from ?? ''}–${filter.to ?? ''}`
  }
}
