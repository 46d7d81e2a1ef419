/**
 * The data list's server page leaves out in SQL the rows a query cannot match, then applies the
 * domain's rules to the rest. These tests hold the SQL side to the domain: on a layer with every
 * field kind, Chinese names, every kind of empty value and stored values the SQL cannot read as JS
 * does (numbers kept as text, letters that lower-case beyond ASCII, a malformed field set), each
 * query's page is exactly what src/domain/dataList.ts makes of the whole layer.
 */
import type { DataListFilter, DataListQuery, DataListRow } from '../../types/datalist'
import type { FieldKind, FieldValue } from '../../types/mapdata'
import { fieldsById, findRows } from '../../src/domain/dataList'
import { searchTextOf } from '../../server/src/db/markers'
import { makeWorld, ok, type TeamWorld } from './teams-fixture'

jest.setTimeout(60_000)

let w: TeamWorld
let layer: number
const field: Record<FieldKind, number> = { choice: 0, number: 0, date: 0, text: 0, phone: 0, photo: 0 }
const KINDS: FieldKind[] = ['choice', 'number', 'date', 'text', 'phone', 'photo']
const NAMES: Record<FieldKind, string> = { choice: '状态', number: '金额', date: '拜访日', text: '备注', phone: '电话', photo: '照片' }

/** Field values by kind for each marker; `undefined` leaves the key out. */
type Values = Partial<Record<FieldKind, unknown>>

const MARKERS: { name: string; values: Values }[] = [
  { name: '北京王府井店', values: { choice: '待拜访', number: 120, date: '2024-03-01', text: 'Open 24h', phone: '13800138000', photo: ['/files/a.jpg'] } },
  { name: '重庆解放碑店', values: { choice: '已拜访', number: 0, date: '2024-01-15', text: '老板姓张', phone: '' } },
  { name: '长沙五一广场店', values: { choice: '无效', number: -5.5, date: '', text: '', photo: [] } },
  { name: 'Shanghai Pudong', values: { choice: '', number: null, date: null, text: null } },
  { name: '安庆店', values: {} },
  { name: '郑州二七店', values: { choice: '待拜访', number: 800, date: '2023-12-31', text: 'KELVIN 温度', phone: '021-5555' } },
  // Values of another JSON type than the field's kind, and letters that JS lower-cases to ASCII (İ → i̇, K → k).
  { name: 'İstanbul 店', values: { choice: 7, number: '300', date: 20240101, text: '\u212Aelvin \u0130zmir', phone: 13900139000 } },
  { name: '成都春熙路店', values: { choice: '待拜访', number: '12abc', date: '2024-02-29', text: 'BIG Sale 大促', phone: '028-6666', photo: ['/files/b.jpg'] } },
  { name: '广州天河店', values: { choice: true, number: true, date: '2024-03-01T08:00', text: ['x'], phone: '' } },
  { name: '深圳南山店', values: { choice: '已拜访', number: 1e21, date: '2025-06-01', text: 'open', phone: '0755' } },
]

/** Writes the values as stored (not through the save call, which would refuse the odd ones), with the search text a save keeps. */
async function store(id: number, name: string, fields: Record<string, unknown> | string) {
  const search_text = typeof fields === 'string' ? name.toLowerCase() : searchTextOf(name, fields as Record<string, FieldValue>)
  await w.t.db.kysely
    .updateTable('markers')
    .set({ fields: typeof fields === 'string' ? fields : JSON.stringify(fields), search_text })
    .where('id', '=', id)
    .execute()
}

beforeAll(async () => {
  w = await makeWorld()
  layer = await w.layer('门店')
  for (const kind of KINDS) {
    field[kind] = ok(await w.call('/api/layer/field/save', { layer_id: layer, name: NAMES[kind], kind, ...(kind === 'choice' ? { options: ['待拜访', '已拜访', '无效'] } : {}) }, w.owner)).id
  }
  for (let i = 0; i < MARKERS.length; i++) {
    const { name, values } = MARKERS[i]
    const id = ok(await w.call('/api/marker/save', { layer_id: layer, name, type: 0, points: `116.${400 + i},39.9` }, w.owner)).id
    const fields: Record<string, unknown> = {}
    for (const kind of KINDS) if (kind in values) fields[String(field[kind])] = values[kind]
    await store(id, name, fields)
  }
  // Only SQLite could hold a malformed field set (PostgreSQL's reads cast it to jsonb, and every write is JSON.stringify's).
  const broken = ok(await w.call('/api/marker/save', { layer_id: layer, name: '坏数据店', type: 0, points: '116.5,39.9' }, w.owner)).id
  if (w.t.db.dialect === 'sqlite') await store(broken, '坏数据店', '{"1": broken')
})
afterAll(() => w.close())

const page = async (query?: DataListQuery) => ok(await w.call('/api/marker/datalist', { layer_id: layer, query, pagesize: 5000 }, w.owner))

/** What the domain makes of the whole layer for this query (the rows as the list reads them without one). */
async function domainAnswer(query: DataListQuery): Promise<{ ids: number[]; matched: number }> {
  const all = (await page()).list as DataListRow[]
  const fields = fieldsById(KINDS.map((kind) => ({ id: field[kind], name: NAMES[kind], kind })))
  const rows = findRows(all, query, fields)
  return { ids: rows.map((r) => r.id), matched: rows.length }
}

async function expectSameAsDomain(query: DataListQuery) {
  const answer = await page(query)
  const expected = await domainAnswer(query)
  expect({ ids: answer.list.map((r: DataListRow) => r.id), matched: answer.matched }).toEqual(expected)
  expect(answer.total).toBe(MARKERS.length + 1)
  return expected
}

const filter = (kind: FieldKind, f: { op: DataListFilter['op'] } & Record<string, unknown>) => ({ field_id: field[kind], ...f }) as DataListFilter

describe('the SQL side of a data list page', () => {
  it('should read every row of the layer without a query', async () => {
    const answer = await page()
    expect(answer.list).toHaveLength(MARKERS.length + 1)
    expect(answer.matched).toBe(MARKERS.length + 1)
  })

  it.each(KINDS)('should find the empty and the filled values of a %s field as the domain does', async (kind) => {
    const empty = await expectSameAsDomain({ filters: [filter(kind, { op: 'empty' })] })
    const filled = await expectSameAsDomain({ filters: [filter(kind, { op: 'not_empty' })] })
    expect(empty.matched + filled.matched).toBe(MARKERS.length + 1)
    expect(empty.matched).toBeGreaterThan(0)
    expect(filled.matched).toBeGreaterThan(0)
  })

  it.each([[['待拜访']], [['已拜访', '无效']], [['7']], [['true']], [['']]])('should pick the options %j of a choice field as the domain does', async (values) => {
    await expectSameAsDomain({ filters: [filter('choice', { op: 'in', values })] })
  })

  it('should pick 待拜访 rows by their option', async () => {
    const { matched } = await expectSameAsDomain({ filters: [filter('choice', { op: 'in', values: ['待拜访'] })] })
    expect(matched).toBe(3)
  })

  it.each([{ min: 0, max: 200 }, { min: 100 }, { max: 0 }, { min: -10, max: -5.5 }, { min: 250, max: 350 }, { min: 1, max: 1 }, {}])(
    'should take the number range %j as the domain does (numbers kept as text and booleans included)',
    async (range) => {
      await expectSameAsDomain({ filters: [filter('number', { op: 'range', ...range })] })
    },
  )

  it('should find a number kept as text inside a range', async () => {
    const { ids } = await expectSameAsDomain({ filters: [filter('number', { op: 'range', min: 250, max: 350 })] })
    expect(ids).toHaveLength(1)
  })

  it.each([{ from: '2024-01-01', to: '2024-03-01' }, { from: '2024-03-01' }, { to: '2023-12-31' }, {}, { from: '2024-03-01', to: '2024-03-01' }])(
    'should take the date range %j as the domain does',
    async (dates) => {
      await expectSameAsDomain({ filters: [filter('date', { op: 'dates', ...dates })] })
    },
  )

  it.each(['open', 'OPEN', 'kelvin', 'k', 'i̇', 'i', '大促', '张', '  sale ', '', 'x', '138'])('should find text containing %j as the domain does', async (text) => {
    await expectSameAsDomain({ filters: [filter('text', { op: 'contains', text })] })
    await expectSameAsDomain({ filters: [filter('phone', { op: 'contains', text })] })
  })

  it('should find the Kelvin sign under a Latin k, as the domain lower-cases it', async () => {
    const { matched } = await expectSameAsDomain({ filters: [filter('text', { op: 'contains', text: 'kelvin' })] })
    expect(matched).toBe(2)
  })

  it.each(['店', '北京', 'open', 'İstanbul', 'istanbul', 'i', '13800138000', '待拜访', '2024-03', 'sale 大促', 'big sale', 'broken', '坏数据', 'pudong'])(
    'should search names and field values for %j as the domain does',
    async (kw) => {
      await expectSameAsDomain({ kw })
    },
  )

  it('should combine a search, several filters and a pinyin sort as the domain does', async () => {
    const queries: DataListQuery[] = [
      { kw: '店', filters: [filter('choice', { op: 'in', values: ['待拜访', '已拜访'] }), filter('number', { op: 'range', min: 0 })], sort: { key: 'name', dir: 'asc' } },
      { filters: [filter('date', { op: 'not_empty' }), filter('text', { op: 'empty' })], sort: { key: `field:${field.number}`, dir: 'desc' } },
      { kw: 'o', filters: [filter('photo', { op: 'not_empty' })], sort: { key: `field:${field.date}`, dir: 'asc' } },
      { filters: [filter('phone', { op: 'contains', text: '0' })], sort: { key: `field:${field.text}`, dir: 'desc' } },
    ]
    for (const q of queries) await expectSameAsDomain(q)
  })
})
