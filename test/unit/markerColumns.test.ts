import type { MarkerColumnsPage } from '../../types/api'
import type { Marker } from '../../types/mapdata'
import { decodeMarkerColumns, encodeMarkerColumns, MarkerColumnsError } from '../../src/domain/markerColumns'
import { decodedData } from '../../src/api/columns'
import { buildMarker } from '../support/mapBuilders'

const T0 = '2026-11-22T08:00:00.000Z'

// The house's marker fixture, at the same time (T0), with the id each case gives.
const marker = (over: Partial<Marker>): Marker => buildMarker({ id: 1, ...over })

/** Every kind of marker as the SPEC page gives them, in layer then id order, with what varies between real markers. */
const VARIED: Marker[] = [
  marker({ id: 3, name: '加油站', client_id: 'c-7-1' }),
  marker({ id: 4, name: '', created_at: '2026-11-22T08:00:01.250Z', updated_at: '2026-11-23T17:45:09.999Z', rev: 4 }),
  marker({ id: 9, name: 'Gas station "north"\n二号', fields: { '1': '负责人甲', '2': 42, '3': ['红', '蓝'], '4': null }, creator_id: 8, creator_name: '' }),
  marker({ id: 10, layer_id: 2, type: 1, points: '116.1,39.1|116.2,39.2', style: { color: '#FF0000', size: 2 }, width: 2, client_id: 'c-8-3' }),
  marker({ id: 12, layer_id: 2, type: 2, points: '116.1,39.1|116.2,39.2|116.3,39.25', style: { color: '#165DFF', size: 2, dashed: true }, width: 3, sort: 5 }),
  marker({ id: 13, layer_id: 5, type: 3, points: '1,1|2,1|2,2', style: { color: '#165DFF', fill_color: '#165DFF', fill_opacity: 0.2, size: 2 }, width: 2 }),
  marker({ id: 14, layer_id: 5, type: 4, points: '1,1|2,2', style: { fill_color: '#00FF00', opacity: 0.5 }, width: 2 }),
  marker({ id: 20, layer_id: 5, type: 5, points: '116.4,39.9', radius: 1250.5, width: 2, fields: { '1': '负责人甲', '2': 42, '3': ['红', '蓝'], '4': null } }),
  marker({ id: 21, layer_id: 5, type: 6, points: '1,1|2,1|2,2;3,3|4,3|4,4;5,5|6,5|6,6', style: { icon: '/files/icon-1.png', dashed: true }, width: 2, client_id: '' }),
  // Another layer with a smaller id after a bigger one, and times a Date cannot write back the same way.
  marker({ id: 2, layer_id: 3, created_at: '2026-11-22 08:00:00', updated_at: '2026-11-22T08:00:00Z', creator_id: 0, creator_name: '' }),
]

const roundTrip = (list: Marker[], total = list.length) => decodeMarkerColumns(JSON.parse(JSON.stringify(encodeMarkerColumns(list, total))))

describe('columnar marker pages', () => {
  it('decode to markers deep-equal to the ones encoded: every kind, circles, multi-part areas, fields, Chinese and empty names, odd times', () => {
    const { list, total } = roundTrip(VARIED, 1234)
    expect(total).toBe(1234)
    expect(list).toEqual(VARIED)
  })

  it('give client_id only to the markers that have one, as the SPEC page does', () => {
    const { list } = roundTrip(VARIED)
    expect(list.map((m) => 'client_id' in m)).toEqual(VARIED.map((m) => m.client_id !== undefined))
    expect(list[8].client_id).toBe('')
  })

  it('write back every time as toISOString does, across days, years and the epoch', () => {
    const times = [
      '1969-12-31T23:59:59.999Z',
      '1970-01-01T00:00:00.000Z',
      '2024-02-29T12:34:56.789Z',
      '2026-12-31T23:59:59.001Z',
      '2027-01-01T00:00:00.010Z',
      '0001-01-01T00:00:00.000Z',
      '9999-12-31T23:59:59.999Z',
    ]
    const list = times.map((t, i) => marker({ id: i + 1, created_at: t, updated_at: times[times.length - 1 - i] }))
    const page = encodeMarkerColumns(list, list.length)
    expect(page.created_at.every((t) => typeof t === 'number')).toBe(true)
    expect(roundTrip(list).list).toEqual(list)
  })

  it('send a time as its text when no number writes it back exactly', () => {
    const odd = [
      '2026-11-22T24:00:00.000Z',
      '2026-11-22T08:60:00.000Z',
      '2026-11-22T08:00:00.000z',
      '2026-11-22T08:00:00,000Z',
      '2026-11-22T0a:00:00.000Z',
      '2026-02-30T00:00:00.000Z',
      '+02026-11-22T08:00:00.000',
    ]
    // Each after a good time of the same day, which is read from its digits.
    const list = odd.flatMap((t, i) => [marker({ id: 2 * i + 1, created_at: '2026-11-22T07:00:00.000Z' }), marker({ id: 2 * i + 2, created_at: t })])
    const page = encodeMarkerColumns(list, list.length)
    expect(page.created_at.filter((t) => typeof t === 'string')).toEqual(odd)
    expect(roundTrip(list).list).toEqual(list)
  })

  it('carry an empty page', () => {
    expect(roundTrip([], 0)).toEqual({ list: [], total: 0 })
  })

  it('send each distinct style, field set and creator once, and a page of alike markers in a fraction of the SPEC bytes', () => {
    const many = Array.from({ length: 5000 }, (_, i) =>
      marker({
        id: 100 + i * 3,
        layer_id: 1 + Math.floor(i / 2000),
        name: `网点${i}`,
        points: `${(116 + i / 7919).toFixed(6)},${(39.5 + i / 10007).toFixed(6)}`,
        fields: i % 5 ? {} : { '1': `负责人${i % 3}` },
        created_at: new Date(Date.parse(T0) - i * 157_000).toISOString(),
        updated_at: new Date(Date.parse(T0) - i * 61_000).toISOString(),
      }),
    )
    const page = encodeMarkerColumns(many, 5000)
    expect(page.styles).toHaveLength(1)
    expect(page.field_sets).toHaveLength(4)
    expect(page.creators).toEqual([[7, '小王']])
    expect(page.layer_id).toEqual([1, 2000, 2, 2000, 3, 1000])
    expect(JSON.stringify(page).length).toBeLessThan(JSON.stringify(many).length / 3)
    expect(decodeMarkerColumns(JSON.parse(JSON.stringify(page))).list).toEqual(many)
  })

  describe('refuse a malformed page as a whole, saying what is wrong', () => {
    const good = () => JSON.parse(JSON.stringify(encodeMarkerColumns(VARIED, VARIED.length))) as MarkerColumnsPage & Record<string, unknown>
    const cases: [string, (p: MarkerColumnsPage & Record<string, unknown>) => unknown, RegExp][] = [
      ['not an object', () => [], /not an object/],
      ['a later version', (p) => ({ ...p, v: 2 }), /version 2/],
      ['the SPEC shape', () => ({ list: VARIED, total: VARIED.length }), /version/],
      ['a missing column', (p) => ({ ...p, points: undefined }), /points is not an array/],
      ['a column shorter than the page', (p) => ({ ...p, name: p.name.slice(1) }), /name has 9 values for 10 markers/],
      ['runs that do not add up', (p) => ({ ...p, layer_id: [1, 3] }), /layer_id runs cover 3 of 10/],
      ['runs past the page', (p) => ({ ...p, rev: [1, 11] }), /rev runs go past 10/],
      ['an index outside its dictionary', (p) => ({ ...p, style: [99, 10] }), /style holds the value 99/],
      ['an unknown marker kind', (p) => ({ ...p, type: [7, 10] }), /type holds the value 7/],
      ['a text where an id goes', (p) => ({ ...p, id: p.id.map(String) }), /not an integer/],
      ['a client id past the page', (p) => ({ ...p, client_id: [10, 'x'] }), /client_id goes past 10/],
      ['a time that is neither', (p) => ({ ...p, created_at: p.created_at.map(() => null) }), /created_at holds null/],
      ['a time past the year 9999', (p) => ({ ...p, updated_at: [1e15, ...p.updated_at.slice(1)] }), /updated_at reaches a time outside/],
    ]
    it.each(cases)('%s', (_, spoil, message) => {
      let thrown: unknown
      try {
        decodeMarkerColumns(spoil(good()))
      } catch (e) {
        thrown = e
      }
      expect(thrown).toBeInstanceOf(MarkerColumnsError)
      expect((thrown as Error).message).toMatch(message)
    })
  })

  describe('in the api client', () => {
    it('are decoded when asked for in columns', async () => {
      const page = JSON.parse(JSON.stringify(encodeMarkerColumns(VARIED, 40)))
      expect(await decodedData({ format: 'columns' }, page)).toEqual({ list: VARIED, total: 40 })
    })

    it('leave the SPEC page of a server that predates the field, and every other answer, as they are', () => {
      const spec = { list: VARIED, total: 10 }
      expect(decodedData({ format: 'columns' }, spec)).toBe(spec)
      expect(decodedData({ layer_ids: [1] }, spec)).toBe(spec)
      expect(decodedData({}, null)).toBeNull()
    })

    it('refuse a malformed page', async () => {
      await expect(decodedData({ format: 'columns' }, { v: 1, n: 1 })).rejects.toBeInstanceOf(MarkerColumnsError)
    })

    // A big page decoded at once holds a slow phone's taps and frames: the page's other tasks run between its slices.
    it('decode a big page in slices, with the page’s other tasks run between them, to the same markers', async () => {
      const many = Array.from({ length: 3000 }, (_, i) => marker({ id: i + 1, name: `点${i}`, points: `${116 + i / 1e4},39.9` }))
      const page = JSON.parse(JSON.stringify(encodeMarkerColumns(many, 3000)))
      // Every reading of the clock is a slice's worth later: each step of the decoding ends its slice.
      let clock = 0
      const now = jest.spyOn(Date, 'now').mockImplementation(() => (clock += 10))
      try {
        let otherTasks = 0
        let decoded = false
        const other = () =>
          setTimeout(() => {
            otherTasks++
            if (!decoded) other()
          }, 0)
        other()
        const done = (decodedData({ format: 'columns' }, page) as Promise<unknown>).then((res) => {
          decoded = true
          return res
        })
        expect(await done).toEqual({ list: many, total: 3000 })
        expect(otherTasks).toBeGreaterThan(3)
      } finally {
        now.mockRestore()
      }
    })

    it('decode pages answered together each whole, and a malformed one fails alone', async () => {
      const first = VARIED.slice(0, 4)
      const last = VARIED.slice(4)
      const pages = [
        decodedData({ format: 'columns' }, JSON.parse(JSON.stringify(encodeMarkerColumns(first, 10)))) as Promise<unknown>,
        (decodedData({ format: 'columns' }, { v: 1, n: 2 }) as Promise<unknown>).catch((e: unknown) => e),
        decodedData({ format: 'columns' }, JSON.parse(JSON.stringify(encodeMarkerColumns(last, 10)))) as Promise<unknown>,
      ]
      const [a, bad, b] = await Promise.all(pages)
      expect(a).toEqual({ list: first, total: 10 })
      expect(bad).toBeInstanceOf(MarkerColumnsError)
      expect(b).toEqual({ list: last, total: 10 })
    })
  })
})
