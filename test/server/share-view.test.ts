/**
 * The public side of a share: /api/share/getbyid, /api/layer/get/share and
 * /api/marker/get/share. A share shows exactly its data (live layers and markers, the markers
 * presented as /api/marker/getlist presents them, layers with their title style), layer_ids and
 * marker_ids only narrow, pages are stable, the share works until the end of its day in China,
 * deleting it kills every call at once, and it belongs to its group (not to its creator).
 */
import { ErrCode } from '../../types/api'
import { MAP_MSG } from '../../src/domain/messages'
import { SHARE_MSG } from '../../src/domain/shareMessages'
import { PERM } from '../../src/domain/permissions'
import { DEFAULT_TITLE_STYLE } from '../../server/src/services/title-style'
import { makeShareWorld, ok, type ShareWorld } from './share-fixture'

let w: ShareWorld

afterEach(async () => {
  await w?.close()
})

const pub = <T = any>(path: string, fields: object) => w.t.call<T>(path, fields, null)
const layersOf = async (share_id: string, extra: object = {}) => ok(await pub<any[]>('/api/layer/get/share', { share_id, ...extra }))
const markersOf = async (share_id: string, extra: object = {}) => ok(await pub<{ list: any[]; total: number }>('/api/marker/get/share', { share_id, ...extra }))
const ids = (list: { id: number }[]) => list.map((x) => x.id)

describe('a layer share', () => {
  beforeEach(async () => {
    w = await makeShareWorld()
  })

  it('shows its meta to anybody holding the link, without a session', async () => {
    const id = await w.share({ name: '巡检点位', data_ids: [w.layers.a], show_btn: 60, exp: '2025-06-30' })
    expect(ok(await pub('/api/share/getbyid', { id }))).toEqual({
      id,
      name: '巡检点位',
      type: 1,
      show_btn: 60,
      need_pwd: false,
      exp: '2025-06-30',
      expired: false,
      style: null,
      group_name: '勘察队',
      op_user: { nickname: '队长' },
    })
  })

  it('answers an unknown id with NOT_FOUND and the share message', async () => {
    for (const id of ['nope', 'A'.repeat(16), '']) {
      const res = await pub('/api/share/getbyid', { id })
      expect(res.errcode).toBe(id ? ErrCode.NOT_FOUND : ErrCode.VALIDATION)
      if (id) expect(res.errmsg).toBe(SHARE_MSG.notFound)
    }
    const layers = await pub('/api/layer/get/share', { share_id: 'A'.repeat(16) })
    const markers = await pub('/api/marker/get/share', { share_id: 'A'.repeat(16) })
    expect([layers.errcode, layers.errmsg, markers.errcode, markers.errmsg]).toEqual([ErrCode.NOT_FOUND, SHARE_MSG.notFound, ErrCode.NOT_FOUND, SHARE_MSG.notFound])
  })

  it('returns only its live non-folder layers, with their title style (their own, else the group default)', async () => {
    const id = await w.share({ data_ids: [w.layers.a, w.layers.b] })
    const layers = await layersOf(id)
    expect(ids(layers)).toEqual([w.layers.a, w.layers.b])
    const defaults = { ...DEFAULT_TITLE_STYLE }
    expect(layers[0]).toEqual({ id: w.layers.a, name: '图层A', type: 1, parent_id: w.folder, sort: expect.any(Number), title_style: defaults })

    ok(await w.call('/api/system/title/style/save', { layer_id: null, font_size: 16, color: '#000000' }, w.owner))
    ok(await w.call('/api/system/title/style/save', { layer_id: w.layers.a, font_size: 20, color: '#FF0000' }, w.owner))
    const styled = await layersOf(id)
    expect(styled[0].title_style).toMatchObject({ font_size: 20, color: '#FF0000' })
    expect(styled[1].title_style).toMatchObject({ font_size: 16, color: '#000000' })
    expect(styled[1].title_style).not.toHaveProperty('id')

    ok(await w.call('/api/layer/delete', { id: w.layers.b }, w.owner))
    expect(ids(await layersOf(id))).toEqual([w.layers.a])
    expect(ids((await markersOf(id)).list)).toEqual(w.markers.a)
  })

  it('returns the markers of its layers presented as /api/marker/getlist does (but not who made them), without deleted ones', async () => {
    const id = await w.share({ data_ids: [w.layers.a, w.layers.b] })
    const page = await markersOf(id)
    const own = ok(await w.call('/api/marker/getlist', { layer_ids: [w.layers.a, w.layers.b] }, w.owner)) as { list: any[]; total: number }
    expect(own.list.some((m) => m.creator_name)).toBe(true)
    expect(page).toEqual({ ...own, list: own.list.map((m) => ({ ...m, creator_id: 0, creator_name: '' })) })
    expect(ids(page.list)).toEqual([...w.markers.a, ...w.markers.b])

    ok(await w.call('/api/marker/delete', { id: w.markers.a[0] }, w.owner))
    const after = await markersOf(id)
    expect(ids(after.list)).toEqual([w.markers.a[1], ...w.markers.b])
    expect(after.total).toBe(3)
  })

  it('lets layer_ids and marker_ids only narrow: forged ids of the group or of another group add nothing and raise no error', async () => {
    const stranger = await w.stranger('13700000001', '外人')
    const theirLayer = ok(await w.call('/api/layer/save', { name: '别人的', type: 1, parent_id: 0 }, stranger)).id
    const theirMarker = ok(await w.call('/api/marker/save', { layer_id: theirLayer, name: 'X', type: 0, points: '116.1,39.9' }, stranger)).id
    const id = await w.share({ data_ids: [w.layers.a] })

    expect(await layersOf(id, { layer_ids: [w.layers.b, w.layers.c, w.folder, theirLayer, 999_999] })).toEqual([])
    expect(ids(await layersOf(id, { layer_ids: [w.layers.a, w.layers.b, theirLayer] }))).toEqual([w.layers.a])
    expect(await markersOf(id, { layer_ids: [w.layers.b, theirLayer] })).toEqual({ list: [], total: 0 })
    expect(await markersOf(id, { marker_ids: [w.markers.b[0], w.markers.c[0], theirMarker, 999_999] })).toEqual({ list: [], total: 0 })
    const narrowed = await markersOf(id, { marker_ids: [w.markers.a[1], w.markers.b[0], theirMarker] })
    expect([ids(narrowed.list), narrowed.total]).toEqual([[w.markers.a[1]], 1])
    expect(ids((await markersOf(id, { layer_ids: [w.layers.a, w.layers.c] })).list)).toEqual(w.markers.a)
  })
})

describe('a marker share', () => {
  beforeEach(async () => {
    w = await makeShareWorld({ a: 3, b: 2, c: 2 })
  })

  it('returns exactly its markers, and only the layers holding them', async () => {
    const shared = [w.markers.b[1], w.markers.a[0], w.markers.a[2]]
    const id = await w.share({ type: 2, data_ids: shared })
    const page = await markersOf(id)
    expect(ids(page.list)).toEqual([w.markers.a[0], w.markers.a[2], w.markers.b[1]])
    expect(page.total).toBe(3)
    const own = ok(await w.call('/api/marker/getbyid', { ids: shared }, w.owner)) as any[]
    // Strangers do not learn who in the team made each marker.
    expect(page.list).toEqual(own.sort((x, y) => x.layer_id - y.layer_id || x.id - y.id).map((m) => ({ ...m, creator_id: 0, creator_name: '' })))
    expect(ids(await layersOf(id))).toEqual([w.layers.a, w.layers.b])
  })

  it('narrows by marker_ids and layer_ids, never widens', async () => {
    const id = await w.share({ type: 2, data_ids: [w.markers.a[0], w.markers.b[0]] })
    expect(ids((await markersOf(id, { marker_ids: [w.markers.a[0], w.markers.a[1], w.markers.c[0]] })).list)).toEqual([w.markers.a[0]])
    expect(ids((await markersOf(id, { layer_ids: [w.layers.b, w.layers.c] })).list)).toEqual([w.markers.b[0]])
    expect(await markersOf(id, { layer_ids: [w.layers.c] })).toEqual({ list: [], total: 0 })
    expect(ids(await layersOf(id, { layer_ids: [w.layers.c, w.layers.b] }))).toEqual([w.layers.b])
  })

  it('drops markers deleted after sharing, and the layers left without shared markers', async () => {
    const id = await w.share({ type: 2, data_ids: [w.markers.a[0], w.markers.b[0]] })
    ok(await w.call('/api/marker/delete', { id: w.markers.b[0] }, w.owner))
    expect(await markersOf(id)).toMatchObject({ total: 1 })
    expect(ids(await layersOf(id))).toEqual([w.layers.a])
  })
})

describe('paging', () => {
  beforeEach(async () => {
    w = await makeShareWorld({ a: 4, b: 3, c: 1 })
  })

  it('pages a layer share by layer then id, with the total, never repeating or skipping', async () => {
    const id = await w.share({ data_ids: [w.layers.b, w.layers.a] })
    const pages = []
    for (let pageindex = 1; pageindex <= 4; pageindex++) pages.push(await markersOf(id, { pageindex, pagesize: 3 }))
    expect(pages.map((p) => p.list.length)).toEqual([3, 3, 1, 0])
    expect(pages.every((p) => p.total === 7)).toBe(true)
    expect(pages.flatMap((p) => ids(p.list))).toEqual([...w.markers.a, ...w.markers.b])
  })

  it('pages a marker share the same way', async () => {
    const shared = [w.markers.a[0], w.markers.a[3], w.markers.b[1], w.markers.b[2], w.markers.c[0]]
    const id = await w.share({ type: 2, data_ids: shared })
    const pages = []
    for (let pageindex = 1; pageindex <= 3; pageindex++) pages.push(await markersOf(id, { pageindex, pagesize: 2 }))
    expect(pages.map((p) => p.list.length)).toEqual([2, 2, 1])
    expect(pages.every((p) => p.total === 5)).toBe(true)
    expect(pages.flatMap((p) => ids(p.list))).toEqual(shared)
  })

  it('takes pages of at most 5000', async () => {
    const id = await w.share({ data_ids: [w.layers.a] })
    const res = await pub('/api/marker/get/share', { share_id: id, pagesize: 5001 })
    expect([res.errcode, res.errmsg]).toEqual([ErrCode.VALIDATION, MAP_MSG.pageSizeTooLarge(5000)])
    expect((await markersOf(id, { pagesize: 5000 })).list).toHaveLength(4)
  })
})

describe('expiry at the end of the China day', () => {
  beforeEach(async () => {
    w = await makeShareWorld()
  })

  it('works until 23:59:59.999 in China (15:59:59.999 UTC) of its exp day, and is EXPIRED from midnight', async () => {
    const id = await w.share({ data_ids: [w.layers.a], exp: '2025-06-01' })
    const pwdShare = await w.share({ data_ids: [w.layers.a], exp: '2025-06-01', need_pwd: true, pwd: '1234' })
    w.t.clock.set('2025-06-01T15:59:59.999Z')
    expect(ok(await pub('/api/share/getbyid', { id }))).toMatchObject({ expired: false })
    expect(ids(await layersOf(id))).toEqual([w.layers.a])
    expect((await markersOf(id)).total).toBe(2)
    expect(ok(await pub('/api/share/check/pwd', { id: pwdShare, pwd: '1234' }))).toHaveProperty('proof')

    w.t.clock.set('2025-06-01T16:00:00.000Z')
    for (const [path, body] of [
      ['/api/share/getbyid', { id }],
      ['/api/layer/get/share', { share_id: id }],
      ['/api/marker/get/share', { share_id: id }],
      ['/api/share/check/pwd', { id: pwdShare, pwd: '1234' }],
    ] as const) {
      const res = await pub(path, body)
      expect([path, res.errcode, res.errmsg, res.data]).toEqual([path, ErrCode.EXPIRED, SHARE_MSG.expired, null])
    }
    // The group still sees it, marked expired.
    const list = ok(await w.call('/api/share/getlist/group', {}, w.owner)).list as any[]
    expect(list.find((s) => s.id === id)).toMatchObject({ exp: '2025-06-01', expired: true })
  })

  it('never expires without an exp', async () => {
    const id = await w.share({ data_ids: [w.layers.a], exp: null })
    w.t.clock.set('2035-01-01T00:00:00.000Z')
    expect(ok(await pub('/api/share/getbyid', { id }))).toMatchObject({ exp: null, expired: false })
  })
})

describe('deletion and the owning group', () => {
  beforeEach(async () => {
    w = await makeShareWorld()
  })

  it('kills the link at once: meta, data and password calls answer NOT_FOUND, even with a proof in hand', async () => {
    const id = await w.share({ data_ids: [w.layers.a], need_pwd: true, pwd: '8888' })
    const { proof } = ok(await pub<any>('/api/share/check/pwd', { id, pwd: '8888' }))
    expect(ids(await layersOf(id, { proof }))).toEqual([w.layers.a])
    ok(await w.call('/api/share/delete', { id }, w.owner))
    for (const [path, body] of [
      ['/api/share/getbyid', { id }],
      ['/api/layer/get/share', { share_id: id, proof }],
      ['/api/marker/get/share', { share_id: id, proof }],
      ['/api/share/check/pwd', { id, pwd: '8888' }],
    ] as const) {
      const res = await pub(path, body)
      expect([path, res.errcode, res.errmsg]).toEqual([path, ErrCode.NOT_FOUND, SHARE_MSG.notFound])
    }
  })

  it('keeps working when its creator leaves the group (it belongs to the group)', async () => {
    const member = await w.join('13900000001', '成员')
    await w.grant(w.layers.a, { user_id: member.userid }, [PERM.LAYER_DATA_LIST, PERM.LAYER_SHARE])
    await w.role('分享员', [PERM.MODULE_SHARE], [member])
    const id = await w.share({ data_ids: [w.layers.a] }, member)
    ok(await w.call('/api/group/quit', {}, member))
    expect(ok(await pub('/api/share/getbyid', { id }))).toMatchObject({ group_name: '勘察队', op_user: { nickname: '成员' } })
    expect(ids((await markersOf(id)).list)).toEqual(w.markers.a)
    const list = ok(await w.call('/api/share/getlist/group', {}, w.owner)).list as any[]
    expect(list.map((s) => s.id)).toEqual([id])
  })

  it('dies with its group (the administrator deletes their account)', async () => {
    const id = await w.share({ data_ids: [w.layers.a] })
    ok(await w.call('/api/user/logoff', {}, w.owner))
    const res = await pub('/api/share/getbyid', { id })
    expect([res.errcode, res.errmsg]).toEqual([ErrCode.NOT_FOUND, SHARE_MSG.notFound])
    expect(await w.t.db.kysely.selectFrom('shares').selectAll().execute()).toEqual([])
  })
})
