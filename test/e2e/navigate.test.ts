/**
 * 导航 and measuring on the H5 map against the real server (Leaflet, no AMap key): a field worker
 * opens a marker and taps 导航 — in a phone browser AMap's navigation address opens in a new tab,
 * inside our host app it goes to the host as `open_url`; a route's stop navigates the same way; and
 * on the map's 测量 tool they measure a distance and an area by tapping, with undo and clear,
 * without a marker being made.
 */
import type { Page } from 'playwright-core'
import { amapNavigationUri } from '../../src/domain/directions'
import { MEASURE_MSG } from '../../src/domain/measureMessages'
import { apiCall, apiSignIn, button, closeTrialWelcome, expectTapTarget, on, openWorld, quiet, shot, signIn, signUp, tapPoint, tileZoom, type ApiAuth, type Server, type World } from './harness'

jest.setTimeout(300_000)

let world: World
let server: Server
let page: Page
let auth: Required<ApiAuth>
let layerId: number

const PHONE = '13866660051'
const SHOP = { name: '东单门店', lng: 116.418, lat: 39.914 }
const WAREHOUSE = { name: '西单仓库', lng: 116.374, lat: 39.913 }
/** What AMap's address answers here: a page of our own (the machine has no way out), recorded. */
const amapOpened: string[] = []

beforeAll(async () => {
  world = await openWorld()
  ;({ server } = world)
  page = await world.newPage()
  await page.context().route(
    (url) => url.hostname === 'uri.amap.com',
    (route) => {
      amapOpened.push(route.request().url())
      return route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: '<html><body>高德地图</body></html>' })
    },
  )
  await signUp(page, server, PHONE, '钱外勤')
  auth = await apiSignIn(server, PHONE)
  const layer = await apiCall(server, '/api/layer/save', { name: '客户', type: 1 }, auth)
  layerId = layer.data.id
  for (const p of [SHOP, WAREHOUSE]) {
    const saved = await apiCall(server, '/api/marker/save', { layer_id: layer.data.id, type: 0, name: p.name, points: `${p.lng},${p.lat}` }, auth)
    expect(saved.header.errcode).toBe(0)
  }
})

afterAll(() => world?.close())

const markers = async () => (await apiCall(server, '/api/marker/getlist', { layer_ids: [layerId], pageindex: 1, pagesize: 100 }, auth)).data.list as { id: number; name: string }[]
const markerCount = async () => (await markers()).length

async function openShopDetail(p: Page): Promise<void> {
  await tapPoint(p, { title: SHOP.name })
  await on(p, '.marker-detail__name', SHOP.name).waitFor()
}

describe('导航', () => {
  it("opens AMap's navigation to the marker's GCJ-02 place, by car, in a new tab", async () => {
    await page.goto(`${server.url}/map`)
    await openShopDetail(page)
    await quiet(page)
    await shot(page, '51-marker-detail-navigate')
    await expectTapTarget(on(page, '.marker-detail__navigate'))
    const [tab] = await Promise.all([page.waitForEvent('popup'), on(page, '.marker-detail__navigate').click()])
    await tab.waitForLoadState()
    expect(tab.url()).toBe(amapNavigationUri(SHOP))
    expect(amapOpened).toEqual([amapNavigationUri(SHOP)])
    const to = new URL(tab.url()).searchParams
    expect(to.get('to')).toBe('116.418000,39.914000,东单门店')
    expect(to.get('coordinate')).toBe('gaode')
    expect(to.get('mode')).toBe('car')
    await tab.close()
    // The map is still where it was, the detail open.
    await on(page, '.marker-detail__name', SHOP.name).waitFor()
  })

  it('inside the host app, hands the same address to the host as open_url and opens no tab', async () => {
    const p = await world.newPage()
    // The Android host's JavaScript interface, recording what the page posts.
    await p.addInitScript(() => {
      const posted: string[] = []
      ;(window as unknown as { __posted: string[] }).__posted = posted
      ;(window as unknown as { TeamMapHost: unknown }).TeamMapHost = { postMessage: (m: string) => void posted.push(m) }
    })
    await signUpAgain(p)
    await p.goto(`${server.url}/map`)
    await openShopDetail(p)
    let popups = 0
    p.on('popup', () => popups++)
    await on(p, '.marker-detail__navigate').click()
    const posted = await p.waitForFunction(() => (window as unknown as { __posted: string[] }).__posted.map((m) => JSON.parse(m)).filter((m) => m.type === 'open_url'))
    expect(await posted.jsonValue()).toEqual([{ v: 1, type: 'open_url', data: { url: amapNavigationUri(SHOP) } }])
    expect(popups).toBe(0)
    await p.context().close()
  })

  it("navigates to a route's stop from the route's page", async () => {
    const ids = (await markers()).map((m) => m.id)
    const route = await apiCall(server, '/api/route/save', { name: '送货', mode: 'driving', stops: ids.map((marker_id) => ({ marker_id })) }, auth)
    expect(route.header.errcode).toBe(0)
    await page.goto(`${server.url}/route/add?id=${route.data.id}`)
    const stop = on(page, '.route-stop', WAREHOUSE.name)
    await stop.waitFor()
    await quiet(page)
    await shot(page, '51-route-stop-navigate')
    await expectTapTarget(stop.locator('.route-stop__navigate'))
    const [tab] = await Promise.all([page.waitForEvent('popup'), stop.locator('.route-stop__navigate').click()])
    expect(tab.url()).toBe(amapNavigationUri(WAREHOUSE))
    await tab.close()
  })

  it("navigates to a task's marker from the task's detail", async () => {
    const shop = (await markers()).find((m) => m.name === SHOP.name)!
    const task = await apiCall(server, '/api/task/save', { title: '东单门店补货', marker_id: shop.id, user_ids: [auth.userid], department_ids: [] }, auth)
    expect(task.header.errcode).toBe(0)
    await page.goto(`${server.url}/task`)
    await on(page, '.task-card', '东单门店补货').click()
    const nav = on(page, '.task-detail__navigate')
    await nav.waitFor()
    await quiet(page)
    await shot(page, '51-task-navigate')
    await expectTapTarget(nav)
    const [tab] = await Promise.all([page.waitForEvent('popup'), nav.click()])
    expect(tab.url()).toBe(amapNavigationUri(SHOP))
    await tab.close()
  })

  it("navigates from a shared marker's detail on the public share view, signed out", async () => {
    const ids = (await markers()).map((m) => m.id)
    const share = await apiCall(server, '/api/share/save', { name: '门店分布', type: 2, data_ids: ids, show_btn: 61, need_pwd: false, exp: null }, auth)
    expect(share.header.errcode).toBe(0)
    const p = await world.newPage()
    await p.context().route(
      (url) => url.hostname === 'uri.amap.com',
      (route) => route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: '<html><body>高德地图</body></html>' }),
    )
    const apiCalls: string[] = []
    p.on('request', (r) => void (r.url().includes('/api/') && apiCalls.push(new URL(r.url()).pathname)))
    await p.goto(`${server.url}/share/view?id=${share.data}`)
    await tapPoint(p, { title: WAREHOUSE.name })
    await on(p, '.share-detail__name', WAREHOUSE.name).waitFor()
    await quiet(p)
    await shot(p, '51-share-view-navigate')
    await expectTapTarget(on(p, '.share-detail__navigate'))
    const before = apiCalls.length
    const [tab] = await Promise.all([p.waitForEvent('popup'), on(p, '.share-detail__navigate').click()])
    expect(tab.url()).toBe(amapNavigationUri(WAREHOUSE))
    // The tap asked our server for nothing: the place went to AMap only.
    expect(apiCalls.slice(before)).toEqual([])
    await p.context().close()
  })
})

/** Signs the same user in on another phone (the code cooldown is 1 s). */
async function signUpAgain(p: Page): Promise<void> {
  await new Promise((r) => setTimeout(r, 1100))
  await signIn(p, server, PHONE)
  await p.waitForURL(/\/map$/)
  // A new phone: the trial's greeting shows once on it too.
  await closeTrialWelcome(p)
}

/** Metres per CSS pixel of the map at its tile zoom, at a latitude (Web Mercator, 256-px tiles). */
async function metresPerPx(p: Page, lat: number): Promise<number> {
  return (156_543.033_92 * Math.cos((lat * Math.PI) / 180)) / 2 ** (await tileZoom(p))
}

/** The map's middle on the screen, away from the cards and tools. */
async function mapMiddle(p: Page): Promise<{ x: number; y: number }> {
  const box = (await p.locator('.leaflet-container').boundingBox())!
  return { x: box.x + box.width * 0.4, y: box.y + box.height * 0.55 }
}

const figure = (p: Page) => on(p, '.map-measure__figure')
const vertices = (p: Page) => p.locator('.map-draft-vertex')

/** The figure's number in metres or square metres ('总长 1.23公里' → 1230). */
function metres(text: string): number {
  const n = Number(/([\d,.]+)/.exec(text)![1].replace(/,/g, ''))
  if (text.includes('平方公里')) return n * 1e6
  if (text.includes('公里')) return n * 1000
  return n
}

describe('测距 and 测面积', () => {
  it('measures a distance by tapping the map, with undo and clear, and makes no marker', async () => {
    await page.goto(`${server.url}/map`)
    await tapPoint(page, { title: SHOP.name })
    await on(page, '.marker-detail__name', SHOP.name).waitFor()
    await on(page, '.marker-detail .draggable-panel__close').click()
    await on(page, '.marker-detail').waitFor({ state: 'hidden' })
    const before = await markerCount()

    await on(page, '.map-tool', MEASURE_MSG.tool).click()
    for (const b of [MEASURE_MSG.undo, MEASURE_MSG.clear, MEASURE_MSG.done]) await expectTapTarget(button(page, b))
    await expectTapTarget(on(page, '.map-measure__mode', MEASURE_MSG.areaMode))
    await on(page, '.map-measure__mode--on', MEASURE_MSG.lengthMode).waitFor()
    await on(page, '.map-measure__hint', MEASURE_MSG.lengthStart).waitFor()
    const res = await metresPerPx(page, SHOP.lat)
    const o = await mapMiddle(page)
    await page.mouse.click(o.x, o.y)
    await on(page, '.map-measure__hint', MEASURE_MSG.lengthNext).waitFor()
    await page.mouse.click(o.x + 150, o.y)
    await figure(page).waitFor()
    const one = metres(await figure(page).innerText())
    expect(Math.abs(one - 150 * res) / (150 * res)).toBeLessThan(0.03)
    await page.mouse.click(o.x + 150, o.y - 200)
    await on(page, '.map-measure__detail', /^最后一段 /).waitFor()
    await page.waitForFunction((before) => Number(/([\d,.]+)/.exec(document.querySelector('.map-measure__figure')?.textContent ?? '')?.[1]?.replace(/,/g, '')) !== before, one)
    const two = metres(await figure(page).innerText())
    expect(Math.abs(two - 350 * res) / (350 * res)).toBeLessThan(0.03)
    await expect(vertices(page).count()).resolves.toBe(3)
    await quiet(page)
    await shot(page, '52-measure-length')

    await button(page, MEASURE_MSG.undo).click()
    await expect(vertices(page).count()).resolves.toBe(2)
    expect(metres(await figure(page).innerText())).toBe(one)
    await button(page, MEASURE_MSG.clear).click()
    await figure(page).waitFor({ state: 'hidden' })
    await on(page, '.map-measure__hint', MEASURE_MSG.lengthStart).waitFor()
    await expect(vertices(page).count()).resolves.toBe(0)

    // A tap on a marker's pin is a point at the marker, and opens nothing.
    await page.mouse.click(o.x, o.y)
    await tapPoint(page, { title: SHOP.name })
    await figure(page).waitFor()
    await expect(on(page, '.marker-detail').count()).resolves.toBe(0)
    expect(await markerCount()).toBe(before)
  })

  it('measures an area in the unit of the settings, and 完成 gives the map its taps back', async () => {
    await on(page, '.map-measure__mode', MEASURE_MSG.areaMode).click()
    await button(page, MEASURE_MSG.clear).click()
    const res = await metresPerPx(page, SHOP.lat)
    const o = await mapMiddle(page)
    const side = 160
    await page.mouse.click(o.x - side / 2, o.y - side / 2)
    await page.mouse.click(o.x + side / 2, o.y - side / 2)
    await on(page, '.map-measure__hint', MEASURE_MSG.areaNeeds(1)).waitFor()
    await page.mouse.click(o.x + side / 2, o.y + side / 2)
    await figure(page).waitFor()
    await page.mouse.click(o.x - side / 2, o.y + side / 2)
    await expect(vertices(page).count()).resolves.toBe(4)
    await page.waitForFunction(() => document.querySelectorAll('.leaflet-overlay-pane path').length > 0)
    const expected = (side * res) ** 2
    await page.waitForFunction((want) => {
      const text = document.querySelector('.map-measure__figure')?.textContent ?? ''
      const n = Number(/([\d,.]+)/.exec(text)?.[1]?.replace(/,/g, '') ?? 0) * (text.includes('平方公里') ? 1e6 : 1)
      return Math.abs(n - want) / want < 0.05
    }, expected)
    expect(await on(page, '.map-measure__detail').innerText()).toMatch(/^周长 /)
    await quiet(page)
    await shot(page, '53-measure-area')

    await button(page, MEASURE_MSG.done).click()
    await on(page, '.map-measure').waitFor({ state: 'hidden' })
    await expect(vertices(page).count()).resolves.toBe(0)
    await openShopDetail(page)
  })
})
