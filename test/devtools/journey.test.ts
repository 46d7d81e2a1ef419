/**
 * The mini-program's main journey in WeChat DevTools (miniprogram-automator), against the real
 * server: sign in with the development SMS code, the map with a layer's markers, add a point by
 * tapping the map, open its detail, share the layer and open the share page. Runs only through
 * `npm run test:devtools` on a machine with DevTools (see session.ts and the README).
 */
import { apiCall, apiSignIn, type ApiAuth } from '../e2e/harness'
import { byText, findAll, findOne, onPage, openDevtools, shot, tapText, typeInto, until, waitText, type Devtools, type MiniProgram, type Page } from './session'

jest.setTimeout(600_000)

const PHONE = '13800138066'
const NICKNAME = '真机小王'

let dt: Devtools
let mp: MiniProgram
let auth: Required<ApiAuth>
let layerId = 0

beforeAll(async () => {
  dt = await openDevtools()
  mp = dt.mp
})

afterAll(() => dt?.close())

/**
 * Records what the map page hands WeChat's map context (markers go through addMarkers and
 * removeMarkers, never through setData): id -> marker, readable with drawnMarkers().
 */
const RECORD_MARKERS = `function (id) {
  var ctx = this.origin(id)
  var app = getApp()
  app.__drawnMarkers = app.__drawnMarkers || {}
  var add = ctx.addMarkers, remove = ctx.removeMarkers
  ctx.addMarkers = function (o) {
    (o.markers || []).forEach(function (m) { app.__drawnMarkers[m.id] = { id: m.id, iconPath: m.iconPath, latitude: m.latitude, longitude: m.longitude } })
    return add.call(ctx, o)
  }
  ctx.removeMarkers = function (o) {
    (o.markerIds || []).forEach(function (i) { delete app.__drawnMarkers[i] })
    return remove.call(ctx, o)
  }
  return ctx
}`

const drawnMarkers = async () => Object.values((await mp.evaluate('function () { return getApp().__drawnMarkers || {} }')) as Record<string, { id: number }>).map((m) => m.id)

async function markersOfLayer(): Promise<{ id: number; name: string }[]> {
  const res = await apiCall(dt.server, '/api/marker/getlist', { layer_ids: [layerId], pageindex: 1, pagesize: 100 }, auth)
  return res.data.list
}

const mapElement = (page: Page) => findOne(page, '#main-map')

/** Closes the marker detail (a draggable panel; the notes list is one too). */
async function closeDetail(page: Page): Promise<void> {
  const detail = await findOne(page, '.marker-detail')
  await (await findAll(detail, '.draggable-panel__close'))[0].tap()
}

describe('the mini-program in WeChat DevTools', () => {
  it('signs a new user in with the SMS code the development server prints, creates their map and reaches /map', async () => {
    const login = (await mp.reLaunch('/pages/login/index'))!
    await typeInto(login, '请输入手机号', PHONE)
    await tapText(login, '.nut-button', '获取验证码')
    const code = await dt.server.codeFor(PHONE)
    await typeInto(login, '请输入验证码', code)
    await shot(mp, '01-login')
    await tapText(login, '.nut-button', '登录')

    // A new user has no map yet: the guide, then the nickname.
    const guide = await onPage(mp, 'pages/guide/index')
    await tapText(guide, '.nut-button', '创建我的地图')
    const init = await onPage(mp, 'pages/guide/init/index')
    await typeInto(init, '请输入昵称', NICKNAME)
    await tapText(init, '.nut-button', '完成')
    const map = await onPage(mp, 'pages/map/index')
    await waitText(map, '.map-nickname', NICKNAME)
    // The trial welcome greets a new map's administrator once.
    await waitText(map, '.vip-welcome', '欢迎试用团队地图')
    await (await findOne(map, '.nut-dialog-close')).tap()
    await shot(mp, '02-map-empty')
  })

  it("draws a layer's markers on WeChat's map through the map context", async () => {
    auth = await apiSignIn(dt.server, PHONE)
    const layer = await apiCall(dt.server, '/api/layer/save', { name: '网点', type: 1 }, auth)
    layerId = layer.data.id
    for (const [i, name] of ['一号泵站', '二号泵站', '三号泵站'].entries()) {
      const saved = await apiCall(dt.server, '/api/marker/save', { layer_id: layerId, type: 0, name, points: `116.${390 + i * 5},39.9${i}` }, auth)
      expect(saved.header.errcode).toBe(0)
    }
    await mp.mockWxMethod('createMapContext', RECORD_MARKERS)
    const map = (await mp.reLaunch('/pages/map/index'))!
    await waitText(map, '.map-count', /视野内 3个点/, 30_000)
    const ids = (await markersOfLayer()).map((m) => m.id)
    await until('the three markers on the map', async () => {
      const drawn = await drawnMarkers()
      return ids.every((id) => drawn.includes(id))
    })
    await shot(mp, '03-map-markers')
  })

  it('adds a point by tapping the map, saves it on /addinfo and shows its detail on the map', async () => {
    const map = (await mp.currentPage())!
    await tapText(map, '.map-tool', '添加')
    await tapText(map, '.nut-actionsheet-item', '绘制点')
    await waitText(map, '.map-drawing__title', '正在绘制点')
    // What WeChat's map reports for a tap: the tapped coordinates (GCJ-02).
    await (await mapElement(map)).trigger('tap', { latitude: 39.915, longitude: 116.404 })
    const addinfo = await onPage(mp, 'pages/addinfo/index')
    await typeInto(addinfo, '请输入标注名称', '新泵站')
    await shot(mp, '04-addinfo')
    await tapText(addinfo, '.nut-button', '保存标注')
    const back = await onPage(mp, 'pages/map/index')
    await waitText(back, '.marker-detail__name', '新泵站')
    const added = (await markersOfLayer()).find((m) => m.name === '新泵站')
    expect(added).toBeDefined()
    await until('the new point on the map', async () => (await drawnMarkers()).includes(added!.id))
    await shot(mp, '05-added-point')
  })

  it('opens the detail of a marker tapped on the map', async () => {
    const map = (await mp.currentPage())!
    await closeDetail(map)
    await until('the detail closed', async () => !(await byText(map, '.marker-detail__name', '新泵站')))
    const target = (await markersOfLayer()).find((m) => m.name === '二号泵站')!
    await (await mapElement(map)).trigger('markertap', { markerId: target.id })
    await waitText(map, '.marker-detail__name', '二号泵站')
    await shot(mp, '06-marker-detail')
    await closeDetail(map)
  })

  it('shares the layer from the layer panel and opens its share page', async () => {
    const map = (await mp.currentPage())!
    await tapText(map, '.map-tool', '图层')
    const row = await waitText(map, '.layer-row', '网点')
    await (await findAll(row, '.layer-row__more'))[0].tap()
    await tapText(map, '.nut-actionsheet-item', '分享图层')
    await waitText(map, '.share-dialog', '图层数据分享')
    await tapText(map, '.share-submit', '创建分享')
    const link = await (await waitText(map, '.share-link', /share\/view\?id=/)).text()
    await shot(mp, '07-share-created')
    const id = decodeURIComponent(link.match(/[?&]id=([^&\s]+)/)![1])

    // The share page is public: what the link opens in the mini-program.
    const view = (await mp.reLaunch(`/pages/share/view/index?id=${encodeURIComponent(id)}`))!
    await waitText(view, '.share-head__count', '共4个标注', 30_000)
    await shot(mp, '08-share-view')
  })
})
