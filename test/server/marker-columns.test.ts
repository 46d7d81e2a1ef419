/**
 * The columnar page (types/api.ts MarkerColumnsPage) of /api/marker/getlist and /api/marker/get/share,
 * asked for with format 'columns': decoded, every page is the SPEC-shape page of the same request
 * (rows, order, paging by index and by cursor, permissions, total), on SQLite and on PostgreSQL.
 */
import { ErrCode, type MarkerColumnsPage } from '../../types/api'
import type { Marker } from '../../types/mapdata'
import { decodeMarkerColumns } from '../../src/domain/markerColumns'
import { inTransaction } from '../../server/src/db/connection'
import { insertMarkers, searchTextOf, softDeleteMarkers, type NewMarker } from '../../server/src/db/markers'
import type { Auth } from './helpers'
import { PERM } from '../../src/domain/permissions'
import { expectOk, grant, makeLayer, makeMarker, makeTeam, type Team } from './mapdata-fixture'

// A seeded group is a dozen saves and a few hundred rows: on a busy machine's PostgreSQL that takes more than jest's 5 s.
jest.setTimeout(60_000)

let team: Team
afterEach(() => team.t.close())

const STYLES = ['{"color":"#165DFF","size":32}', '{"color":"#FF0000","size":24}', '{}', '{"icon":"/files/1/0123456789abcdef0123456789abcdef.png","size":40}']

/** Markers written straight to the table: many creators, styles, field sets, times and client ids, as a real group's pile up. */
function rowsFor(groupId: number, layerId: number, creatorIds: number[], n: number, from: number): NewMarker[] {
  const base = Date.parse('2026-03-01T00:00:00.000Z')
  return Array.from({ length: n }, (_, k) => {
    const i = from + k
    const lng = 116 + (i % 97) / 1000
    const lat = 39 + (i % 89) / 1000
    const fields: Record<string, string | number> = i % 3 ? {} : { '1': `负责人${i % 4}`, '2': i % 7 }
    const created = new Date(base + i * 157_000 + (i % 2) * 123).toISOString()
    return {
      group_id: groupId,
      layer_id: layerId,
      name: i % 11 ? `网点${i}` : '',
      type: 0,
      points: `${lng.toFixed(6)},${lat.toFixed(6)}`,
      style: STYLES[i % STYLES.length],
      width: i % 5 ? 32 : 24,
      radius: 0,
      sort: i % 13 === 0 ? 3 : 0,
      fields: JSON.stringify(fields),
      search_text: searchTextOf(`网点${i}`, fields),
      min_lng: lng,
      min_lat: lat,
      max_lng: lng,
      max_lat: lat,
      creator_id: creatorIds[i % creatorIds.length],
      created_at: created,
      updated_at: i % 4 ? created : new Date(base + i * 200_000).toISOString(),
      deleted_at: null,
      client_id: i % 6 === 1 ? `client-${i}` : null,
    }
  })
}

interface World {
  layers: number[]
}

async function seed(): Promise<World> {
  team = await makeTeam()
  const { t, owner, member } = team
  await t.db.kysely.updateTable('groups').set({ marker_limit: 100_000 }).execute()
  const points = await makeLayer(t, owner, '点位', 1)
  const lines = await makeLayer(t, owner, '线路', 2)
  const areas = await makeLayer(t, owner, '区域', 3)
  const field = expectOk(await t.call('/api/layer/field/save', { layer_id: points, name: '负责人', kind: 'text' }, owner))
  await makeMarker(t, owner, points, { name: '引号"与\\反斜杠', fields: { [field.id]: '张三' } })
  await makeMarker(t, owner, lines, { name: '巡检路线', type: 1, points: '116.1,39.1|116.2,39.2' })
  await makeMarker(t, owner, lines, { name: '虚线', type: 2, points: '116.1,39.1|116.2,39.2|116.3,39.25' })
  await makeMarker(t, owner, areas, { name: '面', type: 3, points: '116.4,39.9|116.5,39.95|116.6,39.9' })
  await makeMarker(t, owner, areas, { name: '矩形', type: 4, points: '116.4,39.9|116.5,39.95' })
  await makeMarker(t, owner, areas, { name: '圆', type: 5, points: '116.4,39.9', radius: 123.5 })
  await makeMarker(t, owner, areas, { name: '多面', type: 6, points: '116.4,39.9|116.5,39.95|116.6,39.9;117.4,39.9|117.5,39.95|117.6,39.9' })
  const phone = expectOk(await t.call('/api/marker/save', { layer_id: points, name: '手机上加的', type: 0, points: '116.3,39.8', client_id: 'phone-1-abc' }, owner))
  t.clock.advance(61_000)
  expectOk(
    await t.call('/api/marker/save', { id: phone.id, rev: phone.rev, layer_id: points, name: '改过的', type: 0, points: '116.31,39.81', style: { color: '#123456', opacity: 0.5 }, sort: 7 }, owner),
  )
  await inTransaction(t.db, async (trx) => {
    const creators = [owner.userid as number, member.userid as number, 999_999]
    await insertMarkers(trx, rowsFor(team.groupId, points, creators, 60, 0))
    await insertMarkers(trx, rowsFor(team.groupId, areas, creators, 25, 1000))
    const gone = await insertMarkers(trx, rowsFor(team.groupId, points, creators, 5, 2000))
    await softDeleteMarkers(
      trx,
      gone.map((m) => m.id),
      t.clock.now().toISOString(),
    )
  })
  return { layers: [areas, points, lines] }
}

/** The same call twice, as the SPEC shape and in columns (decoded). */
async function bothShapes(path: string, body: object, auth: Auth | null): Promise<{ spec: { list: Marker[]; total: number }; columns: { list: Marker[]; total: number }; page: MarkerColumnsPage }> {
  const spec = expectOk(await team.t.call<{ list: Marker[]; total: number }>(path, body, auth))
  const page = expectOk(await team.t.call<MarkerColumnsPage>(path, { ...body, format: 'columns' }, auth))
  return { spec, columns: decodeMarkerColumns(page), page }
}

describe('/api/marker/getlist in columns', () => {
  it('should decode every page, by index, to the SPEC-shape page', async () => {
    const { layers } = await seed()
    let seen = 0
    for (let pageindex = 1; pageindex <= 6; pageindex++) {
      const { spec, columns, page } = await bothShapes('/api/marker/getlist', { layer_ids: layers, pageindex, pagesize: 20 }, team.owner)
      expect(page.v).toBe(1)
      expect(columns).toEqual(spec)
      expect(columns.list.map((m) => 'client_id' in m)).toEqual(spec.list.map((m) => 'client_id' in m))
      seen += spec.list.length
    }
    expect(seen).toBe(93)
    // Many markers, a few styles, creators and field sets: each goes once.
    const whole = await bothShapes('/api/marker/getlist', { layer_ids: layers, pageindex: 1, pagesize: 5000 }, team.owner)
    expect(whole.columns).toEqual(whole.spec)
    expect(whole.page.creators.map(([id, name]) => [id, name])).toEqual(
      expect.arrayContaining([
        [team.owner.userid, '队长'],
        [team.member.userid, '队员'],
        [999_999, ''],
      ]),
    )
    expect(whole.page.creators).toHaveLength(3)
    // By content: PostgreSQL's SPEC page orders the keys of a marker with a client id its own way (jsonb).
    const distinct = (values: object[]) => new Set(values.map((v) => JSON.stringify(v, Object.keys(v).sort()))).size
    expect(whole.page.field_sets).toHaveLength(distinct(whole.spec.list.map((m) => m.fields)))
    expect(whole.page.styles).toHaveLength(distinct(whole.spec.list.map((m) => m.style)))
  })

  it('should decode every page, by cursor, to the SPEC-shape page', async () => {
    const { layers } = await seed()
    let body: Record<string, unknown> = { layer_ids: layers, pageindex: 1, pagesize: 17 }
    let pages = 0
    for (;;) {
      const { spec, columns } = await bothShapes('/api/marker/getlist', body, team.owner)
      expect(columns).toEqual(spec)
      pages++
      if (spec.list.length < 17) break
      const last = spec.list[spec.list.length - 1]
      body = { ...body, after_layer_id: last.layer_id, after_id: last.id }
    }
    expect(pages).toBe(6)
  })

  it("should give a member only what the SPEC page gives them, and nobody another group's markers", async () => {
    const { layers } = await seed()
    // The member may read the areas layer only.
    await grant(team, layers[0], team.member, [PERM.LAYER_DATA_LIST])
    const member = await bothShapes('/api/marker/getlist', { layer_ids: layers, pageindex: 1, pagesize: 5000 }, team.member)
    expect(member.columns).toEqual(member.spec)
    expect(new Set(member.spec.list.map((m) => m.layer_id))).toEqual(new Set([layers[0]]))
    const outsider = await bothShapes('/api/marker/getlist', { layer_ids: layers, pageindex: 1, pagesize: 5000 }, team.outsider)
    expect(outsider.columns).toEqual({ list: [], total: 0 })
    expect(outsider.spec).toEqual({ list: [], total: 0 })
  })

  it('should answer an empty page past the end with the total', async () => {
    const { layers } = await seed()
    const { columns, page } = await bothShapes('/api/marker/getlist', { layer_ids: layers, pageindex: 99, pagesize: 5000 }, team.owner)
    expect(columns).toEqual({ list: [], total: 93 })
    expect(page.n).toBe(0)
  })

  it('should refuse a format it does not know', async () => {
    team = await makeTeam()
    const res = await team.t.call('/api/marker/getlist', { layer_ids: [1], format: 'protobuf' }, team.owner)
    expect(res).toMatchObject({ status: 200, errcode: ErrCode.VALIDATION })
  })
})

describe('/api/marker/get/share in columns', () => {
  const shareOf = async (fields: object) => expectOk(await team.t.call<string>('/api/share/save', { name: '分享', show_btn: 60, need_pwd: false, exp: null, data_ids: [], ...fields }, team.owner))

  it("should decode a layer share's pages to its SPEC-shape pages, without creators or client ids", async () => {
    const { layers } = await seed()
    const share_id = await shareOf({ type: 1, data_ids: layers.slice(0, 2) })
    for (let pageindex = 1; pageindex <= 5; pageindex++) {
      const { spec, columns, page } = await bothShapes('/api/marker/get/share', { share_id, pageindex, pagesize: 20 }, null)
      expect(columns).toEqual(spec)
      if (spec.list.length) expect(page.creators).toEqual([[0, '']])
      expect(page.client_id).toEqual([])
    }
  })

  it("should decode a marker share's page to its SPEC-shape page", async () => {
    const { layers } = await seed()
    const all = expectOk(await team.t.call<{ list: Marker[] }>('/api/marker/getlist', { layer_ids: layers, pageindex: 1, pagesize: 5000 }, team.owner)).list
    const share_id = await shareOf({ type: 2, data_ids: all.filter((_, i) => i % 3 === 0).map((m) => m.id) })
    const { spec, columns } = await bothShapes('/api/marker/get/share', { share_id, pageindex: 1, pagesize: 5000 }, null)
    expect(spec.list.length).toBe(31)
    expect(columns).toEqual(spec)
  })
})
