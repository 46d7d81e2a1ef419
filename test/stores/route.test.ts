/**
 * The route-planning client: RouteStore's list (load, search, delete, share as type 3)
 * and permissions from the user's modules, and RouteDraft: stops from markers, typed coordinates
 * and the position, reordering, live straight-line figures replaced by the server's measurement
 * when it is for the same stops, validation before any call, saving and editing.
 */
import type { Marker } from '../../types/mapdata'
import type { RoutePlan, SavedRoute } from '../../types/routes'
import { PERM } from '../../src/domain/permissions'
import { ROUTE_MSG } from '../../src/domain/routeMessages'
import { formatRouteSummary, straightPlan } from '../../src/domain/routes'
import { ROUTE_PLAN_DELAY_MS, stopInput } from '../../src/stores/RouteStore'
import { fail, makeRoot, ok, buildLogin, type Handler } from '../support/fakes'
import { buildMarker } from '../support/mapBuilders'

const ALL = [PERM.MODULE_MAP, PERM.MODULE_ROUTING, PERM.ROUTING_ADD, PERM.ROUTING_DELETE, PERM.ROUTING_SHARE, PERM.MODULE_SHARE]

async function signedIn(handlers: Record<string, Handler> = {}, modules: string[] = ALL, admin = false) {
  const login = buildLogin({ modules: modules.map((id) => ({ id })) })
  login.is_admin = admin
  const made = makeRoot({ '/api/user/login': () => ok(login), ...handlers })
  expect(await made.root.session.login('13800138000', '123456')).toBe(true)
  made.root.groupRefresh.stop()
  made.calls.length = 0
  return made
}

const texts = (root: { app: { notices: { text: string }[] } }) => root.app.notices.map((n) => n.text)
const sent = (calls: { path: string; body: any }[], path: string) => calls.filter((c) => c.path === path).map(({ body: { header: _h, ...rest } }) => rest)

const NOW = '2026-11-22T08:00:00.000Z'
const A = { lng: 116.397428, lat: 39.90923 }
const B = { lng: 116.41, lat: 39.92 }
const C = { lng: 116.45, lat: 39.95 }

function buildRoute(over: Partial<SavedRoute> = {}): SavedRoute {
  const plan = straightPlan('driving', [
    { marker_id: 11, name: '客户甲', ...A },
    { marker_id: null, name: '午饭', ...B },
  ])
  return { id: 1, name: '周一拜访', creator: { id: 7, nickname: '小王' }, created_at: NOW, updated_at: NOW, ...plan, ...over }
}

const pointMarker = (id: number, name: string, p: { lng: number; lat: number }): Marker => buildMarker({ id, name, type: 0, points: `${p.lng},${p.lat}` })

describe('RouteStore: the list of routes', () => {
  it('loads pages of routes, searches by name, and tells whether more are left', async () => {
    const r1 = buildRoute({ id: 1 })
    const r2 = buildRoute({ id: 2, name: '送货' })
    const { root, calls } = await signedIn({
      '/api/route/getlist': (b) => ok(b.kw ? { list: [r2], total: 1 } : b.pageindex === 1 ? { list: [r1], total: 2 } : { list: [r2], total: 2 }),
    })
    expect(await root.route.load()).toBe(true)
    expect(root.route.list.map((r) => r.id)).toEqual([1])
    expect(root.route.hasMore).toBe(true)
    await root.route.loadMore()
    expect(root.route.list.map((r) => r.id)).toEqual([1, 2])
    expect(root.route.hasMore).toBe(false)
    await root.route.search('送货')
    expect(root.route.list.map((r) => r.name)).toEqual(['送货'])
    expect(sent(calls, '/api/route/getlist')).toEqual([
      { pageindex: 1, pagesize: 20 },
      { pageindex: 2, pagesize: 20 },
      { pageindex: 1, pagesize: 20, kw: '送货' },
    ])
  })

  it('deletes a route (after the page confirmed) and drops it from the list; a refusal keeps it', async () => {
    let refuse = false
    const { root } = await signedIn({
      '/api/route/getlist': () => ok({ list: [buildRoute({ id: 1 }), buildRoute({ id: 2 })], total: 2 }),
      '/api/route/delete': () => (refuse ? fail(1003, ROUTE_MSG.deleteForbidden) : ok(null)),
    })
    await root.route.load()
    expect(await root.route.remove(1)).toBe(true)
    expect(root.route.list.map((r) => r.id)).toEqual([2])
    expect(root.route.total).toBe(1)
    expect(texts(root)).toContain(ROUTE_MSG.deleted)
    refuse = true
    expect(await root.route.remove(2)).toBe(false)
    expect(root.route.list.map((r) => r.id)).toEqual([2])
    expect(texts(root).at(-1)).toBe(ROUTE_MSG.deleteForbidden)
  })

  it('opens the share dialog for a route as share type 3 (mask 172 with route markers)', async () => {
    const { root } = await signedIn()
    root.route.share(buildRoute({ id: 5, name: '周一拜访' }))
    expect(root.app.share_request).toEqual({ type: 3, ids: [5], name: '周一拜访' })
    const r = root.app.takeShareRequest()!
    root.shares.open(r.type, r.ids, r.name)
    expect(root.shares.form).toMatchObject({ type: 3, data_ids: [5], name: '周一拜访_路线_分享', show_btn: 172 })
  })

  it('allows adding, deleting and sharing by the routing ids the user holds (sharing also needs the share module)', async () => {
    const all = (await signedIn()).root.route
    expect([all.canUse, all.canAdd, all.canDelete, all.canShare]).toEqual([true, true, true, true])
    const looker = (await signedIn({}, [PERM.MODULE_ROUTING, PERM.ROUTING_SHARE])).root.route
    expect([looker.canUse, looker.canAdd, looker.canDelete, looker.canShare]).toEqual([true, false, false, false])
    const none = (await signedIn({}, [PERM.MODULE_MAP, PERM.ROUTING_ADD])).root.route
    expect([none.canUse, none.canAdd]).toEqual([false, false])
  })
})

describe('RouteDraft: building a route', () => {
  it('adds stops from markers (where they stand), typed coordinates and the position, refusing the same place twice in a row', async () => {
    const { root } = await signedIn()
    const d = root.route.draft
    d.startNew()
    expect(d.addMarker(pointMarker(11, '客户甲', A))).toBeNull()
    expect(d.addMarker(pointMarker(11, '客户甲', A))).toBe(ROUTE_MSG.sameAsLast)
    expect(d.addMarker(buildMarker({ id: 12, name: '环路', type: 1, points: '116.40,39.90|116.42,39.94' }))).toBeNull()
    expect(d.addCoordinate('116.45，39.95', '仓库')).toBeNull()
    expect(d.addCoordinate('abc')).toBe(ROUTE_MSG.coordInvalid)
    expect(d.addMarker(buildMarker({ id: 13, points: '0,0' }))).toBe(ROUTE_MSG.markerNoPosition)
    expect(d.addPosition({ lng: 116.5, lat: 39.98 })).toBeNull()
    expect(d.stops.map(({ key: _k, ...s }) => s)).toEqual([
      { marker_id: 11, name: '客户甲', ...A },
      { marker_id: 12, name: '环路', lng: 116.41, lat: 39.92 },
      { marker_id: null, name: '仓库', ...C },
      { marker_id: null, name: ROUTE_MSG.myPosition, lng: 116.5, lat: 39.98 },
    ])
    expect(d.hasMarker(12)).toBe(true)
    expect(d.stops.map(stopInput)).toEqual([{ marker_id: 11 }, { marker_id: 12 }, { name: '仓库', ...C }, { name: ROUTE_MSG.myPosition, lng: 116.5, lat: 39.98 }])
  })

  it('reorders: up, down, remove, reverse, nearest next; the straight-line figures follow at once', async () => {
    const { root } = await signedIn()
    const d = root.route.draft
    d.startNew()
    d.addCoordinate('116.397428,39.90923', '甲')
    d.addCoordinate('116.45,39.95', '丙')
    d.addCoordinate('116.41,39.92', '乙')
    const names = () => d.stops.map((s) => s.name)
    d.sortByDistance()
    expect(names()).toEqual(['甲', '乙', '丙'])
    d.moveUp(2)
    expect(names()).toEqual(['甲', '丙', '乙'])
    d.moveDown(0)
    expect(names()).toEqual(['丙', '甲', '乙'])
    d.reverse()
    expect(names()).toEqual(['乙', '甲', '丙'])
    d.remove(1)
    expect(names()).toEqual(['乙', '丙'])
    expect(d.plan).toEqual(straightPlan('driving', d.stops))
    expect(d.estimate).toBe(true)
    d.setMode('walking')
    expect(d.plan.duration).toBe(straightPlan('walking', d.stops).duration)
  })

  it('checks the name, the stops and the mode before calling the server', async () => {
    const { root, calls } = await signedIn()
    const d = root.route.draft
    d.startNew()
    expect(await d.save()).toBeUndefined()
    expect(texts(root).at(-1)).toBe(ROUTE_MSG.nameRequired)
    d.setName('路'.repeat(31))
    await d.save()
    expect(texts(root).at(-1)).toBe(ROUTE_MSG.nameTooLong(30))
    d.setName('巡检')
    d.addCoordinate('116.41,39.92')
    await d.save()
    expect(texts(root).at(-1)).toBe(ROUTE_MSG.stopsTooFew(2))
    expect(calls).toHaveLength(0)
  })

  it('saves new stops as markers by id and points as given, puts the route at the top of the list, and edits it by id', async () => {
    const saved = buildRoute({ id: 9, name: '周一拜访' })
    const { root, calls } = await signedIn({ '/api/route/save': () => ok(saved), '/api/route/getbyid': () => ok(saved) })
    const d = root.route.draft
    d.startNew()
    d.setName(' 周一拜访 ')
    d.addMarker(pointMarker(11, '客户甲', A))
    d.addCoordinate('116.41,39.92', '午饭')
    expect((await d.save())?.id).toBe(9)
    expect(sent(calls, '/api/route/save')).toEqual([{ name: '周一拜访', mode: 'driving', stops: [{ marker_id: 11 }, { name: '午饭', ...B }] }])
    expect(root.route.list.map((r) => r.id)).toEqual([9])
    expect(root.route.total).toBe(1)
    expect(texts(root).at(-1)).toBe(ROUTE_MSG.saved)

    expect(await d.startEdit(9)).toBe(true)
    expect([d.id, d.name, d.stops.length]).toEqual([9, '周一拜访', 2])
    d.setMode('walking')
    await d.save()
    expect(sent(calls, '/api/route/save').at(-1)).toMatchObject({ id: 9, mode: 'walking' })
    expect(root.route.list.map((r) => r.id)).toEqual([9])
    expect(root.route.total).toBe(1)
  })

  it('keeps what the user built when the server refuses to save', async () => {
    const { root } = await signedIn({ '/api/route/save': () => fail(1002, ROUTE_MSG.markerStopMissing(1)) })
    const d = root.route.draft
    d.startNew()
    d.setName('巡检')
    d.addMarker(pointMarker(11, '客户甲', A))
    d.addCoordinate('116.41,39.92')
    expect(await d.save()).toBeUndefined()
    expect(texts(root).at(-1)).toBe(ROUTE_MSG.markerStopMissing(1))
    expect(d.stops).toHaveLength(2)
    expect(root.route.list).toEqual([])
  })
})

describe('RouteDraft: distance and time from the server', () => {
  beforeEach(() => jest.useFakeTimers())
  afterEach(() => jest.useRealTimers())

  const providerPlan = (body: any): RoutePlan & { provider: boolean } => {
    const stops = body.stops.map((s: any, i: number) => ({ marker_id: null, name: s.name ?? `点${i}`, lng: s.lng, lat: s.lat }))
    const legs = stops.slice(1).map(() => ({ distance: 5000, duration: 900, source: 'provider' as const }))
    return { mode: body.mode, stops, legs, distance: 5000 * legs.length, duration: 900 * legs.length, provider: true }
  }

  it('measures a quiet moment after the last change, and shows the provider figures only for the stops they were measured for', async () => {
    const { root, calls } = await signedIn({ '/api/route/plan': (b) => ok(providerPlan(b)) })
    const d = root.route.draft
    d.startNew()
    d.addCoordinate('116.397428,39.90923', '甲')
    d.addCoordinate('116.41,39.92', '乙')
    d.addCoordinate('116.45,39.95', '丙')
    expect(sent(calls, '/api/route/plan')).toHaveLength(0)
    await jest.advanceTimersByTimeAsync(ROUTE_PLAN_DELAY_MS)
    expect(sent(calls, '/api/route/plan')).toHaveLength(1)
    expect(formatRouteSummary(d.plan.distance, d.plan.duration)).toBe('10公里 · 约30分钟')
    expect(d.estimate).toBe(false)
    // Another order: the straight line at once, the provider's again after the wait.
    d.moveUp(2)
    expect(d.estimate).toBe(true)
    await jest.advanceTimersByTimeAsync(ROUTE_PLAN_DELAY_MS)
    expect(d.estimate).toBe(false)
    expect(sent(calls, '/api/route/plan')).toHaveLength(2)
    // Loading indicator untouched: the measurement runs in the background.
    expect(root.app.show_loading).toBe(false)
  })

  it('stops asking once the server says no provider is configured, and keeps the straight line when offline', async () => {
    const { root, calls } = await signedIn({
      '/api/route/plan': (b) =>
        ok({
          ...straightPlan(
            b.mode,
            b.stops.map((s: any) => ({ marker_id: null, name: s.name, lng: s.lng, lat: s.lat })),
          ),
          provider: false,
        }),
    })
    const d = root.route.draft
    d.startNew()
    d.addCoordinate('116.397428,39.90923', '甲')
    d.addCoordinate('116.41,39.92', '乙')
    await jest.advanceTimersByTimeAsync(ROUTE_PLAN_DELAY_MS)
    expect(d.noProvider).toBe(true)
    d.addCoordinate('116.45,39.95', '丙')
    await jest.advanceTimersByTimeAsync(ROUTE_PLAN_DELAY_MS * 2)
    expect(sent(calls, '/api/route/plan')).toHaveLength(1)

    // Offline: the transport fails; no notice, the straight line stays.
    const other = (
      await signedIn({
        '/api/route/plan': () => {
          throw new Error('offline')
        },
      })
    ).root
    const e = other.route.draft
    e.startNew()
    e.addCoordinate('116.397428,39.90923', '甲')
    e.addCoordinate('116.41,39.92', '乙')
    await jest.advanceTimersByTimeAsync(ROUTE_PLAN_DELAY_MS)
    expect(e.noProvider).toBe(false)
    expect(e.plan).toEqual(straightPlan('driving', e.stops))
    expect(texts(root)).toEqual([])
    expect(texts(other)).toEqual([])
  })
})
