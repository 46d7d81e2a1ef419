/** /api/marker/getlist: pages of up to 5000 that return every live marker of the given layers exactly once. */
import { ErrCode } from '../../types/api'
import { MARKER_PAGE_SIZE } from '../../src/domain/constants'
import { MAP_MSG } from '../../src/domain/messages'
import { inTransaction } from '../../server/src/db/connection'
import { insertMarkers, searchTextOf, softDeleteMarkers, type NewMarker } from '../../server/src/db/markers'
import { expectOk, makeLayer, makeMarker, makeTeam, type Team } from './mapdata-fixture'

let team: Team
beforeEach(async () => {
  team = await makeTeam()
})
afterEach(() => team.t.close())

const getlist = (body: object, auth = team.owner) => team.t.call('/api/marker/getlist', body, auth)

function rowsFor(groupId: number, layerId: number, creatorId: number, n: number, from = 0): NewMarker[] {
  const now = team.t.clock.now().toISOString()
  return Array.from({ length: n }, (_, k) => {
    const i = from + k
    const lng = 116 + (i % 1000) / 1000
    const lat = 39 + Math.floor(i / 1000) / 100
    return {
      group_id: groupId,
      layer_id: layerId,
      name: `网点${i}`,
      type: 0,
      points: `${lng},${lat}`,
      style: '{"color":"#165DFF","size":32}',
      width: 32,
      radius: 0,
      sort: 0,
      fields: '{}',
      search_text: searchTextOf(`网点${i}`, {}),
      min_lng: lng,
      min_lat: lat,
      max_lng: lng,
      max_lat: lat,
      creator_id: creatorId,
      created_at: now,
      updated_at: now,
      deleted_at: null,
    }
  })
}

describe('/api/marker/getlist paging', () => {
  it('should return each of 12,000 markers exactly once across pages of 5000, with the total on every page', async () => {
    const { t, owner, outsider } = team
    await t.db.kysely.updateTable('groups').set({ marker_limit: 100_000 }).execute()
    const a = await makeLayer(t, owner, 'A', 1)
    const b = await makeLayer(t, owner, 'B', 1)
    const notAsked = await makeLayer(t, owner, '不在请求里', 1)
    const theirs = await makeLayer(t, outsider, '别人的', 1)
    // Interleaved layers, so that id order and layer order differ.
    await inTransaction(t.db, async (trx) => {
      for (let chunk = 0; chunk < 12; chunk++) {
        await insertMarkers(trx, rowsFor(team.groupId, chunk % 2 ? b : a, owner.userid as number, 1000, chunk * 1000))
      }
      await insertMarkers(trx, rowsFor(team.groupId, notAsked, owner.userid as number, 300))
      await insertMarkers(trx, rowsFor(team.outsiderGroupId, theirs, outsider.userid as number, 300))
      // Deleted markers are never listed.
      const extra = await insertMarkers(trx, rowsFor(team.groupId, a, owner.userid as number, 200, 50_000))
      await softDeleteMarkers(
        trx,
        extra.map((m) => m.id),
        t.clock.now().toISOString(),
      )
    })

    const seen = new Map<number, number>()
    const sizes: number[] = []
    for (let pageindex = 1; ; pageindex++) {
      const page = expectOk(await getlist({ layer_ids: [a, b, theirs], pageindex, pagesize: MARKER_PAGE_SIZE }))
      expect(page.total).toBe(12_000)
      sizes.push(page.list.length)
      for (const m of page.list) seen.set(m.id, (seen.get(m.id) ?? 0) + 1)
      if (page.list.length < MARKER_PAGE_SIZE) break
    }
    expect(sizes).toEqual([5000, 5000, 2000])
    expect(seen.size).toBe(12_000)
    expect([...seen.values()].every((n) => n === 1)).toBe(true)

    const live = await t.db.kysely.selectFrom('markers').select('id').where('layer_id', 'in', [a, b]).where('deleted_at', 'is', null).execute()
    expect(new Set(live.map((r) => r.id))).toEqual(new Set(seen.keys()))

    // A page past the end is empty and still says how many there are.
    expect(expectOk(await getlist({ layer_ids: [a, b], pageindex: 4, pagesize: MARKER_PAGE_SIZE }))).toEqual({ list: [], total: 12_000 })
  }, 60_000)

  it('should list markers exactly as getbyid presents them', async () => {
    const { t, owner } = team
    const points = await makeLayer(t, owner, '点', 1)
    const areas = await makeLayer(t, owner, '面', 3)
    const field = expectOk(await t.call('/api/layer/field/save', { layer_id: points, name: '照片', kind: 'photo' }, owner))
    const ids = [
      await makeMarker(t, owner, points, { name: '引号"与\\反斜杠', fields: { [field.id]: ['/files/1/0123456789abcdef0123456789abcdef.jpg', '/files/1/abcdef0123456789abcdef0123456789.png'] } }),
      await makeMarker(t, owner, areas, { name: '圆', type: 5, points: '116.4,39.9', radius: 123.5 }),
      await makeMarker(t, owner, areas, { name: '多面', type: 6, points: '116.4,39.9|116.5,39.95|116.6,39.9;117.4,39.9|117.5,39.95|117.6,39.9' }),
    ]
    expectOk(await t.call('/api/marker/save', { id: ids[0], layer_id: points, name: '改过的', type: 0, points: '116.1,39.1', style: { color: '#123456', opacity: 0.5 }, sort: 7 }, owner))
    const listed = expectOk(await getlist({ layer_ids: [areas, points], pageindex: 1, pagesize: 10 }))
    const presented = expectOk(await t.call('/api/marker/getbyid', { ids }, owner))
    expect(listed).toEqual({ list: presented, total: 3 })
  })

  it('should order a page by layer, then by id, whatever order the layer ids come in', async () => {
    const { t, owner } = team
    const a = await makeLayer(t, owner, 'A', 1)
    const b = await makeLayer(t, owner, 'B', 1)
    const m1 = await makeMarker(t, owner, b)
    const m2 = await makeMarker(t, owner, a)
    const m3 = await makeMarker(t, owner, b)
    const page = expectOk(await getlist({ layer_ids: [b, a, b], pageindex: 1, pagesize: 2 }))
    expect(page).toMatchObject({ total: 3 })
    expect(page.list.map((m: any) => m.id)).toEqual([m2, m1])
    expect(expectOk(await getlist({ layer_ids: [b, a], pageindex: 2, pagesize: 2 })).list.map((m: any) => m.id)).toEqual([m3])
  })

  it('should page by cursor through every marker once, in layer then id order, while markers come and go between pages', async () => {
    const { t, owner } = team
    const a = await makeLayer(t, owner, 'A', 1)
    const b = await makeLayer(t, owner, 'B', 1)
    const ids: number[] = []
    for (let i = 0; i < 7; i++) ids.push(await makeMarker(t, owner, i % 2 ? b : a))
    const expected = [...ids.filter((_, i) => i % 2 === 0), ...ids.filter((_, i) => i % 2 === 1)]

    const first = expectOk(await getlist({ layer_ids: [a, b], pageindex: 1, pagesize: 3 })).list
    expect(first.map((m: any) => m.id)).toEqual(expected.slice(0, 3))
    // A marker of the first page deleted and a new one added to layer A: later pages do not shift back onto a marker already sent.
    expectOk(await t.call('/api/marker/delete', { id: expected[0] }, owner))
    const added = await makeMarker(t, owner, a)
    const listed = [...first]
    let last = first[first.length - 1]
    for (;;) {
      const page = expectOk(await getlist({ layer_ids: [a, b], pageindex: 1, pagesize: 3, after_layer_id: last.layer_id, after_id: last.id })).list
      listed.push(...page)
      if (page.length < 3) break
      last = page[page.length - 1]
    }
    // The new marker's id is the highest, after the last of layer A already sent: it comes before layer B.
    expect(listed.map((m: any) => m.id)).toEqual([...expected.slice(0, 4), added, ...expected.slice(4)])
  })

  it('should refuse a cursor with only one of its two ids', async () => {
    expect(await getlist({ layer_ids: [1], after_id: 5 })).toMatchObject({ status: 200, errcode: ErrCode.VALIDATION })
  })

  it('should leave out folders, unknown and deleted layers', async () => {
    const { t, owner } = team
    const folder = await makeLayer(t, owner, '夹', 0)
    const inside = await makeLayer(t, owner, '里面', 1, folder)
    const gone = await makeLayer(t, owner, '删了', 1)
    await makeMarker(t, owner, inside)
    await makeMarker(t, owner, gone)
    expectOk(await t.call('/api/layer/delete', { id: gone }, owner))
    expect(expectOk(await getlist({ layer_ids: [folder, gone, 999_999], pageindex: 1, pagesize: 10 }))).toEqual({ list: [], total: 0 })
    expect(expectOk(await getlist({ layer_ids: [], pageindex: 1, pagesize: 10 }))).toEqual({ list: [], total: 0 })
  })

  it.each([
    ['a page size over 5000', { pagesize: MARKER_PAGE_SIZE + 1 }, MAP_MSG.pageSizeTooLarge(MARKER_PAGE_SIZE)],
    ['a page index of 0', { pageindex: 0 }, undefined],
    ['a page size of 0', { pagesize: 0 }, undefined],
    ['layer ids that are not numbers', { layer_ids: ['a'] }, undefined],
  ])('should refuse %s', async (_what, over, message) => {
    const res = await getlist({ layer_ids: [1], pageindex: 1, pagesize: 10, ...over })
    expect(res).toMatchObject({ status: 200, errcode: ErrCode.VALIDATION })
    if (message) expect(res.errmsg).toBe(message)
  })

  it('should default to the first page of 5000', async () => {
    const layer = await makeLayer(team.t, team.owner, 'A', 1)
    await makeMarker(team.t, team.owner, layer)
    expect(expectOk(await getlist({ layer_ids: [layer] })).total).toBe(1)
  })

  it('should require a session', async () => {
    const res = await team.t.call('/api/marker/getlist', { layer_ids: [1], pageindex: 1, pagesize: 10 })
    expect(res.status).toBe(401)
    expect(res.errcode).toBe(ErrCode.UNAUTHORIZED)
  })
})
