/**
 * The data list's rules: what a search and each kind of filter match, the order of every kind of
 * column (numbers as numbers, dates as dates, Chinese by pinyin), what a selection picks (全选
 * over the whole query), the bulk call's target and the count line.
 */
import type { DataListRow } from '../../types/datalist'
import type { LayerField } from '../../types/mapdata'
import {
  allPicked,
  BULK_MAX_IDS,
  bulkTargetOf,
  fieldsById,
  filterHolds,
  findRows,
  isQueryActive,
  isSelected,
  NO_SELECTION,
  pinyinKey,
  queryProblem,
  rowMatches,
  selectAllMatched,
  selectedCount,
  sortRows,
  toggleRow,
} from '../../src/domain/dataList'
import { DATA_LIST_MSG } from '../../src/domain/dataListMessages'

const field = (id: number, name: string, kind: LayerField['kind'], options: string[] = []): LayerField => ({ id, layer_id: 1, name, kind, options, required: false, sort: id, rev: 1 })
const STATUS = field(1, '状态', 'choice', ['待拜访', '已拜访', '无效'])
const AMOUNT = field(2, '金额', 'number')
const VISITED = field(3, '拜访日期', 'date')
const CONTACT = field(4, '联系人', 'text')
const PHOTO = field(5, '照片', 'photo')
const FIELDS = fieldsById([STATUS, AMOUNT, VISITED, CONTACT, PHOTO])

let nextId = 1
function row(name: string, fields: DataListRow['fields'] = {}, extra: Partial<DataListRow> = {}): DataListRow {
  return { id: nextId++, layer_id: 1, name, type: 0, style: {}, fields, rev: 1, notes_count: 0, editor_name: '', edited_at: '2026-01-01T00:00:00.000Z', ...extra }
}

describe('filters by field kind', () => {
  it('a choice filter keeps the rows whose value is one of the picked options', () => {
    const f = { field_id: 1, op: 'in' as const, values: ['待拜访', '无效'] }
    expect(filterHolds(f, '待拜访')).toBe(true)
    expect(filterHolds(f, '已拜访')).toBe(false)
    expect(filterHolds(f, null)).toBe(false)
  })

  it('a number filter is a from–to range on the number, either end open', () => {
    expect(filterHolds({ field_id: 2, op: 'range', min: 10, max: 100 }, 10)).toBe(true)
    expect(filterHolds({ field_id: 2, op: 'range', min: 10, max: 100 }, 100)).toBe(true)
    expect(filterHolds({ field_id: 2, op: 'range', min: 10, max: 100 }, 9)).toBe(false)
    // 9 < 10 as numbers though '9' > '10' as text
    expect(filterHolds({ field_id: 2, op: 'range', min: 10 }, 9)).toBe(false)
    expect(filterHolds({ field_id: 2, op: 'range', max: 10 }, 9)).toBe(true)
    expect(filterHolds({ field_id: 2, op: 'range', min: 0 }, undefined)).toBe(false)
  })

  it('a date filter is a from–to range of days, both ends included', () => {
    const f = { field_id: 3, op: 'dates' as const, from: '2026-03-01', to: '2026-03-31' }
    expect(filterHolds(f, '2026-03-01')).toBe(true)
    expect(filterHolds(f, '2026-03-31')).toBe(true)
    expect(filterHolds(f, '2026-04-01')).toBe(false)
    expect(filterHolds(f, '2026-02-28')).toBe(false)
  })

  it('a text filter matches a part of the value whatever the case', () => {
    expect(filterHolds({ field_id: 4, op: 'contains', text: 'wang' }, 'Mr WANG')).toBe(true)
    expect(filterHolds({ field_id: 4, op: 'contains', text: '张' }, '李四')).toBe(false)
  })

  it('empty and not empty work on every kind, photos included', () => {
    expect(filterHolds({ field_id: 5, op: 'empty' }, [])).toBe(true)
    expect(filterHolds({ field_id: 5, op: 'empty' }, undefined)).toBe(true)
    expect(filterHolds({ field_id: 5, op: 'not_empty' }, ['/files/a.jpg'])).toBe(true)
    expect(filterHolds({ field_id: 4, op: 'empty' }, '')).toBe(true)
    expect(filterHolds({ field_id: 2, op: 'not_empty' }, 0)).toBe(true)
  })

  it('the search box matches the name and the field values, and every filter must hold', () => {
    const shop = row('朝阳门店', { 1: '待拜访', 4: '王经理' })
    expect(rowMatches(shop, { kw: '朝阳' })).toBe(true)
    expect(rowMatches(shop, { kw: '王经理' })).toBe(true)
    expect(rowMatches(shop, { kw: '海淀' })).toBe(false)
    expect(
      rowMatches(shop, {
        filters: [
          { field_id: 1, op: 'in', values: ['待拜访'] },
          { field_id: 4, op: 'contains', text: '王' },
        ],
      }),
    ).toBe(true)
    expect(
      rowMatches(shop, {
        filters: [
          { field_id: 1, op: 'in', values: ['待拜访'] },
          { field_id: 4, op: 'contains', text: '李' },
        ],
      }),
    ).toBe(false)
  })

  it('refuses a filter that does not fit its field, on an unknown field, or a sort on an unknown column', () => {
    expect(queryProblem(FIELDS, { filters: [{ field_id: 2, op: 'in', values: ['1'] }] })).toBe(DATA_LIST_MSG.filterNotFitting('金额'))
    expect(queryProblem(FIELDS, { filters: [{ field_id: 5, op: 'contains', text: 'x' }] })).toBe(DATA_LIST_MSG.filterNotFitting('照片'))
    expect(queryProblem(FIELDS, { filters: [{ field_id: 99, op: 'empty' }] })).toBe(DATA_LIST_MSG.filterUnknownField)
    expect(queryProblem(FIELDS, { sort: { key: 'field:99', dir: 'asc' } })).toBe(DATA_LIST_MSG.sortUnknown)
    expect(queryProblem(FIELDS, { filters: [{ field_id: 1, op: 'in', values: ['无效'] }], sort: { key: 'field:2', dir: 'desc' } })).toBeNull()
  })

  it('a query is on only with a search text or a filter', () => {
    expect(isQueryActive({})).toBe(false)
    expect(isQueryActive({ kw: '  ', sort: { key: 'name', dir: 'asc' } })).toBe(false)
    expect(isQueryActive({ kw: '店' })).toBe(true)
    expect(isQueryActive({ filters: [{ field_id: 1, op: 'empty' }] })).toBe(true)
  })
})

describe('sort', () => {
  const names = (rows: DataListRow[]) => rows.map((r) => r.name)

  it('sorts Chinese names in pinyin order, not by code point', () => {
    const rows = ['重庆店', '北京店', '长沙店', '安庆店', '郑州店'].map((n) => row(n))
    expect(names(sortRows(rows, { sort: { key: 'name', dir: 'asc' } }, FIELDS))).toEqual(['安庆店', '北京店', '长沙店', '重庆店', '郑州店'])
    expect(names(sortRows(rows, { sort: { key: 'name', dir: 'desc' } }, FIELDS))).toEqual(['郑州店', '重庆店', '长沙店', '北京店', '安庆店'])
  })

  it('reads polyphonic characters the way the word says them', () => {
    expect(pinyinKey('重庆')).toBe('chong qing')
    expect(pinyinKey('银行')).toBe('yin hang')
    expect(pinyinKey('银行长沙店')).toBe('yin hang chang sha dian')
    expect(pinyinKey('Shop A')).toBe('shop a')
  })

  it('sorts a number field as numbers and puts empty values last in both directions', () => {
    const rows = [row('a', { 2: 9 }), row('b', { 2: 100 }), row('c', {}), row('d', { 2: 10 }), row('e', { 2: -1 })]
    expect(names(sortRows(rows, { sort: { key: 'field:2', dir: 'asc' } }, FIELDS))).toEqual(['e', 'a', 'd', 'b', 'c'])
    expect(names(sortRows(rows, { sort: { key: 'field:2', dir: 'desc' } }, FIELDS))).toEqual(['b', 'd', 'a', 'e', 'c'])
  })

  it('sorts a date field and the last change by time', () => {
    const rows = [
      row('a', { 3: '2026-10-01' }, { edited_at: '2026-05-01T08:00:00.000Z' }),
      row('b', { 3: '2026-02-15' }, { edited_at: '2026-05-01T07:00:00.000Z' }),
      row('c', { 3: '2025-12-31' }, { edited_at: '2026-06-01T00:00:00.000Z' }),
    ]
    expect(names(sortRows(rows, { sort: { key: 'field:3', dir: 'asc' } }, FIELDS))).toEqual(['c', 'b', 'a'])
    expect(names(sortRows(rows, { sort: { key: 'edited_at', dir: 'desc' } }, FIELDS))).toEqual(['c', 'a', 'b'])
  })

  it('sorts by notes count, equal values staying in id order', () => {
    const rows = [row('a', {}, { notes_count: 2 }), row('b', {}, { notes_count: 0 }), row('c', {}, { notes_count: 2 }), row('d', {}, { notes_count: 1 })]
    expect(names(sortRows(rows, { sort: { key: 'notes', dir: 'desc' } }, FIELDS))).toEqual(['a', 'c', 'd', 'b'])
  })

  it('sorts a choice field by its text in pinyin order', () => {
    const rows = [row('a', { 1: '无效' }), row('b', { 1: '待拜访' }), row('c', { 1: '已拜访' })]
    expect(names(sortRows(rows, { sort: { key: 'field:1', dir: 'asc' } }, FIELDS))).toEqual(['b', 'a', 'c'])
  })

  it('findRows filters, then sorts; without a sort rows keep id order', () => {
    const rows = [row('乙店', { 1: '待拜访' }), row('甲店', { 1: '已拜访' }), row('丙店', { 1: '待拜访' })]
    const query = { filters: [{ field_id: 1, op: 'in' as const, values: ['待拜访'] }] }
    expect(names(findRows(rows, query, FIELDS))).toEqual(['乙店', '丙店'])
    expect(names(findRows(rows, { ...query, sort: { key: 'name', dir: 'asc' } }, FIELDS))).toEqual(['丙店', '乙店'])
  })
})

describe('selection', () => {
  it('ticks and unticks single rows', () => {
    let sel = toggleRow(NO_SELECTION, 7)
    sel = toggleRow(sel, 8)
    expect(isSelected(sel, 7)).toBe(true)
    expect(selectedCount(sel, 40)).toBe(2)
    sel = toggleRow(sel, 7)
    expect(isSelected(sel, 7)).toBe(false)
    expect(selectedCount(sel, 40)).toBe(1)
  })

  it('全选 picks every row the query matched, also those not on screen, and unticking one leaves the rest', () => {
    let sel = selectAllMatched()
    expect(isSelected(sel, 123456)).toBe(true)
    expect(selectedCount(sel, 40)).toBe(40)
    expect(allPicked(sel, 40)).toBe(true)
    sel = toggleRow(sel, 5)
    expect(isSelected(sel, 5)).toBe(false)
    expect(selectedCount(sel, 40)).toBe(39)
    expect(allPicked(sel, 40)).toBe(false)
    expect(allPicked(selectAllMatched(), 0)).toBe(false)
  })

  it('a bulk call names the picked rows with the rev each showed', () => {
    const rows = [row('a', {}, { rev: 3 }), row('b', {}, { rev: 1 }), row('c', {}, { rev: 2 })]
    const sel = toggleRow(toggleRow(NO_SELECTION, rows[0].id), rows[2].id)
    expect(bulkTargetOf(sel, rows, true, 1, {}, 't')).toEqual({
      layer_id: 1,
      items: [
        { id: rows[0].id, rev: 3 },
        { id: rows[2].id, rev: 2 },
      ],
    })
    expect(bulkTargetOf(toggleRow(selectAllMatched(), rows[1].id), rows, true, 1, {}, 't')).toEqual({
      layer_id: 1,
      items: [
        { id: rows[0].id, rev: 3 },
        { id: rows[2].id, rev: 2 },
      ],
    })
  })

  it('全选 over rows the phone has not loaded, or over more than one call names, sends the query and the unticked rows', () => {
    const query = { filters: [{ field_id: 1, op: 'in' as const, values: ['待拜访'] }] }
    const sel = toggleRow(selectAllMatched(), 42)
    expect(bulkTargetOf(sel, [], false, 9, query, '2026-01-01T00:00:00.000Z')).toEqual({ layer_id: 9, query, except_ids: [42], listed_at: '2026-01-01T00:00:00.000Z' })
    const many = Array.from({ length: BULK_MAX_IDS + 1 }, (_, i) => ({ id: i + 1, rev: 1 }))
    expect(bulkTargetOf(selectAllMatched(), many, true, 9, query, 't')).toMatchObject({ layer_id: 9, except_ids: [] })
  })
})

describe('count line', () => {
  it('groups thousands and says what the filter found', () => {
    expect(DATA_LIST_MSG.countLine(3214, 40, true)).toBe('共 3,214 条 · 筛选出 40 条')
    expect(DATA_LIST_MSG.countLine(3214, 3214, false)).toBe('共 3,214 条')
    expect(DATA_LIST_MSG.countLine(1234567, 0, true)).toBe('共 1,234,567 条 · 筛选出 0 条')
  })
})
