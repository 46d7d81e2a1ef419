/**
 * Route planning on the server (RouteApi in types/routes.ts): module_routing gates every
 * call (a VIP module: the free tier refuses even the administrator), routing_add / routing_delete /
 * routing_share gate saving, deleting and sharing; managers see the group's routes, members their
 * own; another group's route is NOT_FOUND; a marker stop must be a live marker the caller may
 * read; legs are measured on the server (straight line without a provider); route shares (type 3)
 * save, and show their routes and, with flag 128, their stop markers to anybody with the link.
 */
import { ErrCode } from '../../types/api'
import { PERM } from '../../src/domain/permissions'
import { TEAM_UI_MSG } from '../../src/domain/messages'
import { ROUTE_MSG } from '../../src/domain/routeMessages'
import { SHARE_MSG } from '../../src/domain/shareMessages'
import { ROUTES_PER_GROUP_MAX, ROUTE_STOPS_MAX, straightLeg } from '../../src/domain/routes'
import { amapLegProvider, cachedLegProvider, measureLegs, parseAmapDirection, type LegProvider } from '../../server/src/services/routes'
import { makeShareWorld, ok, shareBody, type ShareWorld } from './share-fixture'
import type { Person } from './teams-fixture'
import type { Auth } from './helpers'

let w: ShareWorld
/** Holds module_routing, routing_add, routing_delete and routing_share through a role; reads layer A (may share it) and layer C (may not). */
let planner: Person
/** Holds module_routing only. */
let looker: Person
/** Holds no routing module at all. */
let plain: Person
let line: number
const m = { a1: 0, a2: 0, b1: 0, c1: 0, road: 0 }

/** Sharing a route needs the share module too, as every share entry of the app does. */
const ALL_ROUTING = [PERM.MODULE_ROUTING, PERM.ROUTING_ADD, PERM.ROUTING_DELETE, PERM.ROUTING_SHARE, PERM.MODULE_SHARE]
/** The app's page gate message for /route, which the server answers too. */
const MODULE_MISSING = TEAM_UI_MSG.moduleMissing('路线规划')
const MODULE_LOCKED = TEAM_UI_MSG.moduleLocked('路线规划')

async function role(name: string, modules: string[], people: Person[]): Promise<void> {
  const id = ok(await w.call('/api/role/save', { name }, w.owner)).id
  ok(await w.call('/api/role/save/module', { role_id: id, module_ids: modules }, w.owner))
  ok(await w.call('/api/role/save/join', { role_id: id, user_ids: people.map((p) => p.userid) }, w.owner))
}

async function markerAt(layer_id: number, name: string, points: string, type = 0): Promise<number> {
  return ok(await w.call('/api/marker/save', { layer_id, name, type, points }, w.owner)).id
}

beforeEach(async () => {
  w = await makeShareWorld({ a: 0, b: 0, c: 0 })
  planner = await w.join('13800000001', '规划员')
  looker = await w.join('13800000002', '查看员')
  plain = await w.join('13800000003', '普通成员')
  await role('路线员', ALL_ROUTING, [planner])
  await role('只看路线', [PERM.MODULE_ROUTING], [looker])
  line = await w.layer('道路', 2)
  m.a1 = await markerAt(w.layers.a, '客户甲', '116.397428,39.90923')
  m.a2 = await markerAt(w.layers.a, '客户乙', '116.41,39.92')
  m.b1 = await markerAt(w.layers.b, '仓库', '116.45,39.95')
  m.c1 = await markerAt(w.layers.c, '门店', '116.5,39.98')
  m.road = await markerAt(line, '环路', '116.40,39.90|116.42,39.94', 1)
  await w.grant(w.layers.a, { user_id: planner.userid }, [PERM.NOTE_LIST, PERM.LAYER_SHARE])
  await w.grant(w.layers.c, { user_id: planner.userid }, [PERM.NOTE_LIST])
  await w.grant(w.layers.a, { user_id: looker.userid }, [PERM.NOTE_LIST])
})

afterEach(async () => {
  await w?.close()
})

const routeRows = () => w.t.db.kysely.selectFrom('saved_routes').selectAll().execute()
const body = (fields: Record<string, unknown> = {}) => ({ name: '周一拜访', mode: 'driving', stops: [{ marker_id: m.a1 }, { lng: 116.42, lat: 39.93, name: '午饭' }, { marker_id: m.a2 }], ...fields })
const save = (auth: Auth, fields: Record<string, unknown> = {}) => w.call('/api/route/save', body(fields), auth)

async function expectRefused(res: { errcode: number; errmsg: string }, errcode: ErrCode, errmsg: string): Promise<void> {
  expect({ errcode: res.errcode, errmsg: res.errmsg }).toEqual({ errcode, errmsg })
}

describe('modules and permissions (SPEC 6: module_routing, routing add/delete/share)', () => {
  it('refuses every call to a member without module_routing, and writes nothing', async () => {
    await expectRefused(await w.call('/api/route/getlist', {}, plain), ErrCode.FORBIDDEN, MODULE_MISSING)
    await expectRefused(await w.call('/api/route/plan', { mode: 'walking', stops: body().stops }, plain), ErrCode.FORBIDDEN, MODULE_MISSING)
    await expectRefused(await save(plain), ErrCode.FORBIDDEN, MODULE_MISSING)
    const id = ok(await save(w.owner)).id
    await expectRefused(await w.call('/api/route/getbyid', { id }, plain), ErrCode.FORBIDDEN, MODULE_MISSING)
    await expectRefused(await w.call('/api/route/delete', { id }, plain), ErrCode.FORBIDDEN, MODULE_MISSING)
    expect(await routeRows()).toHaveLength(1)
  })

  it('on the free tier refuses even the administrator (module_routing is a VIP module)', async () => {
    await w.t.db.kysely.updateTable('groups').set({ level: 0 }).where('id', '=', w.groupId).execute()
    await expectRefused(await save(w.owner), ErrCode.FORBIDDEN, MODULE_LOCKED)
    await expectRefused(await w.call('/api/route/getlist', {}, w.owner), ErrCode.FORBIDDEN, MODULE_LOCKED)
    expect(await routeRows()).toHaveLength(0)
  })

  it('needs routing_add to save and routing_delete to delete; the module alone lets a member list and plan', async () => {
    await expectRefused(await save(looker, { stops: [{ marker_id: m.a1 }, { marker_id: m.a2 }] }), ErrCode.FORBIDDEN, ROUTE_MSG.addForbidden)
    expect(ok(await w.call('/api/route/getlist', {}, looker))).toEqual({ list: [], total: 0 })
    expect(ok(await w.call('/api/route/plan', { mode: 'walking', stops: [{ marker_id: m.a1 }, { marker_id: m.a2 }] }, looker)).legs).toHaveLength(1)
    const mine = ok(await save(planner))
    ok(await w.call('/api/route/delete', { id: mine.id }, planner))
    // The module_routing-only member cannot delete (and cannot see the planner's route anyway).
    const other = ok(await save(w.owner))
    await expectRefused(await w.call('/api/route/delete', { id: other.id }, looker), ErrCode.FORBIDDEN, ROUTE_MSG.deleteForbidden)
    expect((await routeRows()).map((r) => r.id)).toEqual([other.id])
  })
})

describe('saving, reading and deleting', () => {
  it('saves marker stops as the marker is (name, position) and map points as given, with straight-line legs and their sums', async () => {
    const route = ok(await save(planner))
    expect(route).toMatchObject({ name: '周一拜访', mode: 'driving', creator: { id: planner.userid, nickname: '规划员' } })
    expect(route.stops).toEqual([
      { marker_id: m.a1, name: '客户甲', lng: 116.397428, lat: 39.90923 },
      { marker_id: null, name: '午饭', lng: 116.42, lat: 39.93 },
      { marker_id: m.a2, name: '客户乙', lng: 116.41, lat: 39.92 },
    ])
    const legs = [straightLeg(route.stops[0], route.stops[1], 'driving'), straightLeg(route.stops[1], route.stops[2], 'driving')]
    expect(route.legs).toEqual(legs)
    expect(route.distance).toBe(legs[0].distance + legs[1].distance)
    expect(route.duration).toBe(legs[0].duration + legs[1].duration)
    expect(ok(await w.call('/api/route/getbyid', { id: route.id }, planner))).toEqual(route)
  })

  it('takes a line or an area by the centre of its bounds, and names an unnamed point by its coordinates', async () => {
    const route = ok(await save(w.owner, { stops: [{ marker_id: m.road }, { lng: 116.3, lat: 39.8 }] }))
    expect(route.stops).toEqual([
      { marker_id: m.road, name: '环路', lng: 116.41, lat: 39.92 },
      { marker_id: null, name: '位置 116.30000,39.80000', lng: 116.3, lat: 39.8 },
    ])
  })

  it('refuses a bad route with a Chinese message and writes nothing', async () => {
    const stops = [
      { lng: 116.3, lat: 39.8 },
      { lng: 116.4, lat: 39.9 },
    ]
    await expectRefused(await save(w.owner, { name: '  ' }), ErrCode.VALIDATION, ROUTE_MSG.nameRequired)
    await expectRefused(await save(w.owner, { name: undefined }), ErrCode.VALIDATION, ROUTE_MSG.nameRequired)
    await expectRefused(await save(w.owner, { name: '路'.repeat(31) }), ErrCode.VALIDATION, ROUTE_MSG.nameTooLong(30))
    await expectRefused(await save(w.owner, { mode: 'flying' }), ErrCode.VALIDATION, ROUTE_MSG.modeInvalid)
    await expectRefused(await save(w.owner, { stops: [stops[0]] }), ErrCode.VALIDATION, ROUTE_MSG.stopsTooFew(2))
    await expectRefused(await save(w.owner, { stops: [] }), ErrCode.VALIDATION, ROUTE_MSG.stopsTooFew(2))
    const many = Array.from({ length: ROUTE_STOPS_MAX + 1 }, (_, i) => ({ lng: 116 + i / 100, lat: 39.9 }))
    await expectRefused(await save(w.owner, { stops: many }), ErrCode.VALIDATION, ROUTE_MSG.stopsTooMany(ROUTE_STOPS_MAX))
    await expectRefused(await save(w.owner, { stops: [stops[0], { lng: 116.4 }] }), ErrCode.VALIDATION, ROUTE_MSG.stopInvalid(2))
    await expectRefused(await save(w.owner, { stops: [stops[0], { lng: 116.4, lat: 95 }] }), ErrCode.VALIDATION, ROUTE_MSG.stopInvalid(2))
    await expectRefused(await save(w.owner, { stops: [stops[0], { lng: 0, lat: 0 }] }), ErrCode.VALIDATION, ROUTE_MSG.stopInvalid(2))
    await expectRefused(await save(w.owner, { stops: [stops[0], stops[1], stops[1]] }), ErrCode.VALIDATION, ROUTE_MSG.sameAsPrevious(3))
    expect(await routeRows()).toHaveLength(0)
  })

  it('takes stops only from live markers the caller may read (another layer, another group, deleted: NOT_FOUND naming the stop)', async () => {
    // Layer B is not granted to the planner.
    await expectRefused(await save(planner, { stops: [{ marker_id: m.a1 }, { marker_id: m.b1 }] }), ErrCode.NOT_FOUND, ROUTE_MSG.markerStopMissing(2))
    const stranger = await w.stranger('13900000009', '外人')
    const theirLayer = ok(await w.call('/api/layer/save', { name: '外部', type: 1 }, stranger)).id
    const theirMarker = ok(await w.call('/api/marker/save', { layer_id: theirLayer, name: '外部点', type: 0, points: '116.3,39.8' }, stranger)).id
    await expectRefused(await save(w.owner, { stops: [{ marker_id: theirMarker }, { marker_id: m.a1 }] }), ErrCode.NOT_FOUND, ROUTE_MSG.markerStopMissing(1))
    ok(await w.call('/api/marker/delete', { id: m.a2 }, w.owner))
    await expectRefused(await save(w.owner, { stops: [{ marker_id: m.a1 }, { marker_id: m.a2 }] }), ErrCode.NOT_FOUND, ROUTE_MSG.markerStopMissing(2))
    await expectRefused(await w.call('/api/route/plan', { mode: 'driving', stops: [{ marker_id: m.b1 }, { marker_id: m.a1 }] }, planner), ErrCode.NOT_FOUND, ROUTE_MSG.markerStopMissing(1))
    expect(await routeRows()).toHaveLength(0)
  })

  it('updates a route with id: marker stops are read again, the legs measured again', async () => {
    const route = ok(await save(planner, { stops: [{ marker_id: m.a1 }, { marker_id: m.a2 }] }))
    ok(await w.call('/api/marker/save', { id: m.a2, layer_id: w.layers.a, name: '客户乙（新址）', type: 0, points: '116.43,39.95' }, w.owner))
    w.t.clock.advance(60_000)
    const updated = ok(await save(planner, { id: route.id, name: '周二拜访', mode: 'walking', stops: [{ marker_id: m.a1 }, { marker_id: m.a2 }] }))
    expect(updated).toMatchObject({ id: route.id, name: '周二拜访', mode: 'walking', created_at: route.created_at })
    expect(updated.updated_at > route.updated_at).toBe(true)
    expect(updated.stops[1]).toEqual({ marker_id: m.a2, name: '客户乙（新址）', lng: 116.43, lat: 39.95 })
    expect(updated.legs).toEqual([straightLeg(updated.stops[0], updated.stops[1], 'walking')])
    expect(await routeRows()).toHaveLength(1)
  })

  it('lists the routes last changed first, by name keyword, in pages', async () => {
    for (const name of ['东区巡检', '西区巡检', '送货']) {
      ok(await save(w.owner, { name }))
      w.t.clock.advance(1000)
    }
    const all = ok(await w.call('/api/route/getlist', {}, w.owner))
    expect(all.total).toBe(3)
    expect(all.list.map((r: any) => r.name)).toEqual(['送货', '西区巡检', '东区巡检'])
    expect(ok(await w.call('/api/route/getlist', { kw: '巡检' }, w.owner)).list.map((r: any) => r.name)).toEqual(['西区巡检', '东区巡检'])
    expect(ok(await w.call('/api/route/getlist', { pageindex: 2, pagesize: 2 }, w.owner))).toMatchObject({ total: 3, list: [{ name: '东区巡检' }] })
  })

  it('matches the keyword whatever the case of Latin letters, and takes % and _ literally', async () => {
    for (const name of ['A线_早班', 'B线100%']) ok(await save(w.owner, { name }))
    const names = async (kw: string) => ok(await w.call('/api/route/getlist', { kw }, w.owner)).list.map((r: any) => r.name)
    expect(await names('a线')).toEqual(['A线_早班'])
    expect(await names('%')).toEqual(['B线100%'])
    expect(await names('_')).toEqual(['A线_早班'])
  })

  it('deletes a route (the creator or a manager); it is gone at once', async () => {
    const route = ok(await save(planner))
    ok(await w.call('/api/route/delete', { id: route.id }, w.owner))
    await expectRefused(await w.call('/api/route/getbyid', { id: route.id }, planner), ErrCode.NOT_FOUND, ROUTE_MSG.notFound)
    await expectRefused(await w.call('/api/route/delete', { id: route.id }, planner), ErrCode.NOT_FOUND, ROUTE_MSG.notFound)
    expect(await routeRows()).toHaveLength(0)
  })

  it('refuses a new route beyond the group limit', async () => {
    const at = new Date().toISOString()
    const row = { group_id: w.groupId, creator_id: w.owner.userid, name: '旧路线', mode: 'driving', stops: '[]', legs: '[]', distance: 0, duration: 0, created_at: at, updated_at: at }
    await w.t.db.kysely
      .insertInto('saved_routes')
      .values(Array.from({ length: ROUTES_PER_GROUP_MAX }, () => row))
      .execute()
    await expectRefused(await save(w.owner), ErrCode.LIMIT_REACHED, ROUTE_MSG.tooManyRoutes(ROUTES_PER_GROUP_MAX))
    expect(await routeRows()).toHaveLength(ROUTES_PER_GROUP_MAX)
  })
})

describe('who sees which route', () => {
  it('shows managers every route of the group and members only their own', async () => {
    const mine = ok(await save(planner))
    const owners = ok(await save(w.owner, { name: '管理员的路线' }))
    expect(
      ok(await w.call('/api/route/getlist', {}, w.owner))
        .list.map((r: any) => r.id)
        .sort(),
    ).toEqual([mine.id, owners.id].sort())
    expect(ok(await w.call('/api/route/getlist', {}, planner)).list.map((r: any) => r.id)).toEqual([mine.id])
    await expectRefused(await w.call('/api/route/getbyid', { id: owners.id }, planner), ErrCode.NOT_FOUND, ROUTE_MSG.notFound)
    await expectRefused(await save(planner, { id: owners.id }), ErrCode.NOT_FOUND, ROUTE_MSG.notFound)
    await expectRefused(await w.call('/api/route/delete', { id: owners.id }, planner), ErrCode.NOT_FOUND, ROUTE_MSG.notFound)
    // A manager may change a member's route.
    expect(ok(await save(w.owner, { id: mine.id, name: '改过的' })).creator.id).toBe(planner.userid)
  })

  it("keeps another group's routes invisible: not listed, NOT_FOUND like an unknown id", async () => {
    const route = ok(await save(w.owner))
    const stranger = await w.stranger('13900000009', '外人')
    expect(ok(await w.call('/api/route/getlist', {}, stranger))).toEqual({ list: [], total: 0 })
    for (const res of [
      await w.call('/api/route/getbyid', { id: route.id }, stranger),
      await w.call('/api/route/getbyid', { id: route.id + 999 }, stranger),
      await w.call('/api/route/delete', { id: route.id }, stranger),
      await w.call(
        '/api/route/save',
        {
          ...body({
            stops: [
              { lng: 116.3, lat: 39.8 },
              { lng: 116.4, lat: 39.9 },
            ],
          }),
          id: route.id,
        },
        stranger,
      ),
    ]) {
      await expectRefused(res, ErrCode.NOT_FOUND, ROUTE_MSG.notFound)
    }
    expect((await routeRows())[0]).toMatchObject({ id: route.id, name: '周一拜访' })
  })

  it("removes the groups' routes with the account that owns them (logoff)", async () => {
    ok(await save(w.owner))
    ok(await w.call('/api/user/logoff', {}, w.owner))
    expect(await routeRows()).toHaveLength(0)
  })
})

describe('planning without saving', () => {
  it('measures the legs through the stops and says no provider is configured (straight line)', async () => {
    const plan = ok(await w.call('/api/route/plan', { mode: 'walking', stops: [{ marker_id: m.a1 }, { lng: 116.42, lat: 39.93 }] }, planner))
    expect(plan.provider).toBe(false)
    expect(plan.legs).toEqual([straightLeg(plan.stops[0], plan.stops[1], 'walking')])
    expect(plan.distance).toBe(plan.legs[0].distance)
    expect(await routeRows()).toHaveLength(0)
  })
})

describe('the map provider (AMap web service)', () => {
  const from = { lng: 116.397428, lat: 39.90923 }
  const to = { lng: 116.41, lat: 39.92 }

  it('reads the first path of a direction answer and refuses anything else', () => {
    expect(parseAmapDirection({ status: '1', route: { paths: [{ distance: '2150', duration: '420' }] } })).toEqual({ distance: 2150, duration: 420 })
    expect(parseAmapDirection({ status: '0', info: 'INVALID_USER_KEY' })).toBeNull()
    expect(parseAmapDirection({ status: '1', route: { paths: [] } })).toBeNull()
    expect(parseAmapDirection({ status: '1', route: { paths: [{ distance: 'x', duration: '1' }] } })).toBeNull()
    expect(parseAmapDirection(null)).toBeNull()
  })

  it('asks the driving or walking service with origin, destination and key; a failure is no answer', async () => {
    const urls: string[] = []
    const provider = amapLegProvider('k123', async (url) => {
      urls.push(url)
      return { ok: true, json: async () => ({ status: '1', route: { paths: [{ distance: '2150', duration: '420' }] } }) }
    })
    expect(await provider.measure('driving', from, to)).toEqual({ distance: 2150, duration: 420 })
    expect(await provider.measure('walking', from, to)).toEqual({ distance: 2150, duration: 420 })
    expect(urls[0]).toMatch(/^https:\/\/restapi\.amap\.com\/v3\/direction\/driving\?/)
    expect(urls[1]).toMatch(/^https:\/\/restapi\.amap\.com\/v3\/direction\/walking\?/)
    const q = new URL(urls[0]).searchParams
    expect([q.get('origin'), q.get('destination'), q.get('key')]).toEqual(['116.397428,39.90923', '116.41,39.92', 'k123'])
    const failing = amapLegProvider('k', async () => {
      throw new Error('offline')
    })
    expect(await failing.measure('driving', from, to)).toBeNull()
    const http500 = amapLegProvider('k', async () => ({ ok: false, json: async () => ({}) }))
    expect(await http500.measure('driving', from, to)).toBeNull()
  })

  it('uses the provider per leg and the straight line where it has no answer; answers are cached, failures are not', async () => {
    let asked = 0
    const inner: LegProvider = {
      async measure(_mode, a) {
        asked++
        return a.lng === from.lng ? { distance: 3000, duration: 600 } : null
      },
    }
    const provider = cachedLegProvider(inner)
    const third = { lng: 116.43, lat: 39.95 }
    const legs = await measureLegs(provider, 'driving', [from, to, third])
    expect(legs).toEqual([{ distance: 3000, duration: 600, source: 'provider' }, straightLeg(to, third, 'driving')])
    await measureLegs(provider, 'driving', [from, to, third])
    expect(asked).toBe(3)
    expect(await measureLegs(null, 'walking', [from, to])).toEqual([straightLeg(from, to, 'walking')])
  })
})

describe('route shares (share type 3)', () => {
  const pub = <T = any>(path: string, fields: object) => w.t.call<T>(path, fields, null)

  it('saves a route share with the default mask 172 and shows its routes and stop markers to anybody with the link', async () => {
    const route = ok(await save(planner))
    const id = ok(await w.call<string>('/api/share/save', shareBody({ type: 3, data_ids: [route.id], show_btn: undefined, name: '周一拜访_路线_分享' }), planner))
    expect(ok(await pub('/api/share/getbyid', { id }))).toMatchObject({ type: 3, show_btn: 172, name: '周一拜访_路线_分享' })
    const routes = ok(await pub<any[]>('/api/route/get/share', { share_id: id }))
    expect(routes).toHaveLength(1)
    expect(routes[0]).toMatchObject({ id: route.id, name: '周一拜访', mode: 'driving', stops: route.stops, legs: route.legs, distance: route.distance })
    expect(routes[0].creator).toBeUndefined()
    // Flag 128: the markers the stops were taken from, and their layers.
    expect(
      ok(await pub<any>('/api/marker/get/share', { share_id: id }))
        .list.map((x: any) => x.id)
        .sort(),
    ).toEqual([m.a1, m.a2].sort())
    expect(ok(await pub<any[]>('/api/layer/get/share', { share_id: id })).map((l) => l.id)).toEqual([w.layers.a])
  })

  it('without flag 128 shows the routes but no markers', async () => {
    const route = ok(await save(planner))
    const id = ok(await w.call<string>('/api/share/save', shareBody({ type: 3, data_ids: [route.id], show_btn: 60 }), planner))
    expect(ok(await pub<any[]>('/api/route/get/share', { share_id: id })).map((r) => r.id)).toEqual([route.id])
    expect(ok(await pub<any>('/api/marker/get/share', { share_id: id }))).toEqual({ list: [], total: 0 })
    expect(ok(await pub<any[]>('/api/layer/get/share', { share_id: id }))).toEqual([])
  })

  it('needs routing_share, a route the caller sees, and (with flag 128) layer_share on the stop markers; nothing is written otherwise', async () => {
    const shareRows = () => w.t.db.kysely.selectFrom('shares').selectAll().execute()
    const route = ok(await save(planner, { stops: [{ marker_id: m.a1 }, { marker_id: m.c1 }] }))
    const owners = ok(await save(w.owner))
    await w.t.db.kysely.updateTable('saved_routes').set({ creator_id: looker.userid }).where('id', '=', owners.id).execute()
    // The looker created that route now but holds no routing_share: without the share module they are refused that first.
    await expectRefused(await w.call('/api/share/save', shareBody({ type: 3, data_ids: [owners.id], show_btn: 60 }), looker), ErrCode.FORBIDDEN, TEAM_UI_MSG.moduleMissing('分享'))
    await role('分享', [PERM.MODULE_SHARE], [looker, plain])
    await expectRefused(await w.call('/api/share/save', shareBody({ type: 3, data_ids: [owners.id], show_btn: 60 }), looker), ErrCode.FORBIDDEN, ROUTE_MSG.shareForbidden)
    await expectRefused(await w.call('/api/share/save', shareBody({ type: 3, data_ids: [route.id] }), plain), ErrCode.FORBIDDEN, MODULE_MISSING)
    // Layer C is readable for the planner but not shareable: not with its markers.
    await expectRefused(await w.call('/api/share/save', shareBody({ type: 3, data_ids: [route.id], show_btn: 172 }), planner), ErrCode.FORBIDDEN, ROUTE_MSG.shareMarkersForbidden)
    // Another member's route, an unknown id.
    await expectRefused(await w.call('/api/share/save', shareBody({ type: 3, data_ids: [owners.id], show_btn: 60 }), planner), ErrCode.NOT_FOUND, ROUTE_MSG.notFound)
    await expectRefused(await w.call('/api/share/save', shareBody({ type: 3, data_ids: [route.id + 999], show_btn: 60 }), planner), ErrCode.NOT_FOUND, ROUTE_MSG.notFound)
    expect(await shareRows()).toHaveLength(0)
    ok(await w.call('/api/share/save', shareBody({ type: 3, data_ids: [route.id], show_btn: 60 }), planner))
    expect(await shareRows()).toHaveLength(1)
  })

  it("refuses another group's route in a route share", async () => {
    const route = ok(await save(w.owner))
    const stranger = await w.stranger('13900000009', '外人')
    await expectRefused(await w.call('/api/share/save', shareBody({ type: 3, data_ids: [route.id], show_btn: 60 }), stranger), ErrCode.NOT_FOUND, ROUTE_MSG.notFound)
  })

  it('shows the route as it is now: an edit shows, a deleted route and a deleted stop marker are gone', async () => {
    const route = ok(await save(w.owner))
    const id = await w.share({ type: 3, data_ids: [route.id], show_btn: 172 })
    ok(await save(w.owner, { id: route.id, name: '改名了' }))
    expect(ok(await pub<any[]>('/api/route/get/share', { share_id: id }))[0].name).toBe('改名了')
    ok(await w.call('/api/marker/delete', { id: m.a2 }, w.owner))
    expect(ok(await pub<any>('/api/marker/get/share', { share_id: id })).list.map((x: any) => x.id)).toEqual([m.a1])
    ok(await w.call('/api/route/delete', { id: route.id }, w.owner))
    expect(ok(await pub<any[]>('/api/route/get/share', { share_id: id }))).toEqual([])
    expect(ok(await pub<any>('/api/marker/get/share', { share_id: id })).list).toEqual([])
  })

  it('asks for the password proof like the other share data calls; a layer share has no routes', async () => {
    const route = ok(await save(w.owner))
    const id = await w.share({ type: 3, data_ids: [route.id], need_pwd: true, pwd: '1234' })
    await expectRefused(await pub('/api/route/get/share', { share_id: id }), ErrCode.FORBIDDEN, SHARE_MSG.pwdNeeded)
    const { proof } = ok(await pub<any>('/api/share/check/pwd', { id, pwd: '1234' }))
    expect(ok(await pub<any[]>('/api/route/get/share', { share_id: id, proof })).map((r) => r.id)).toEqual([route.id])
    const layerShare = await w.share({ type: 1, data_ids: [w.layers.a] })
    expect(ok(await pub('/api/route/get/share', { share_id: layerShare }))).toEqual([])
    await expectRefused(await pub('/api/route/get/share', { share_id: 'nope-nope-nope' }), ErrCode.NOT_FOUND, SHARE_MSG.notFound)
  })
})

describe('a route shared with its stop markers cannot be widened afterwards', () => {
  const pub = <T = any>(path: string, fields: object) => w.t.call<T>(path, fields, null)
  const sharedMarkerIds = async (id: string) => (ok(await pub<any>('/api/marker/get/share', { share_id: id })).list as { id: number }[]).map((x) => x.id).sort()

  it('refuses an edit adding a stop from a layer the editor may not share, and the share keeps serving only what was shared', async () => {
    const route = ok(await save(planner, { stops: [{ marker_id: m.a1 }, { lng: 116.42, lat: 39.93, name: '午饭' }] }))
    const id = ok(await w.call<string>('/api/share/save', shareBody({ type: 3, data_ids: [route.id], show_btn: 172 }), planner))
    expect(await sharedMarkerIds(id)).toEqual([m.a1])

    // Layer C is readable for the planner but not shareable.
    await expectRefused(await save(planner, { id: route.id, stops: [{ marker_id: m.a1 }, { marker_id: m.c1 }] }), ErrCode.FORBIDDEN, ROUTE_MSG.sharedRouteMarkerForbidden)
    expect(ok(await w.call('/api/route/getbyid', { id: route.id }, planner)).stops).toEqual(route.stops)
    expect(await sharedMarkerIds(id)).toEqual([m.a1])
    expect(JSON.stringify(ok(await pub<any[]>('/api/route/get/share', { share_id: id })))).not.toContain('门店')

    // A stop the planner may share, and stops kept from before, pass.
    ok(await save(planner, { id: route.id, stops: [{ marker_id: m.a1 }, { marker_id: m.a2 }] }))
    expect(await sharedMarkerIds(id)).toEqual([m.a1, m.a2].sort())
  })

  it('lets the same edit through when no share shows the route’s markers', async () => {
    const route = ok(await save(planner, { stops: [{ marker_id: m.a1 }, { lng: 116.42, lat: 39.93, name: '午饭' }] }))
    ok(await w.call<string>('/api/share/save', shareBody({ type: 3, data_ids: [route.id], show_btn: 60 }), planner))
    expect(ok(await save(planner, { id: route.id, stops: [{ marker_id: m.a1 }, { marker_id: m.c1 }] })).stops.map((s: any) => s.marker_id)).toEqual([m.a1, m.c1])
  })
})
