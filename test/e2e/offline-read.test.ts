/**
 * The map's copy in IndexedDB on H5 against the real server: the map loads online and is saved in
 * the browser's IndexedDB; after a reload with every API call failing as without network, the map
 * shows the same markers from there, says once that it shows what this phone saved, and search
 * still finds a marker. Waits are for DOM changes (timeouts only guard failures).
 */
import type { Page } from 'playwright-core'
import { apiOk, apiSignIn, input, notice, on, openWorld, savedKeys, shot, signUp, type ApiAuth, type Server, type World } from './harness'

jest.setTimeout(300_000)

const PHONE = '13800000701'
const SEEN = { timeout: 20_000 }

let world: World
let server: Server
let page: Page
let auth: Required<ApiAuth>

beforeAll(async () => {
  world = await openWorld()
  ;({ server } = world)
  page = await world.newPage()
})

afterAll(async () => {
  await world?.close()
})

const api = (path: string, body: Record<string, unknown>) => apiOk(server, path, body, auth)

describe('reading the map without network on H5 (IndexedDB)', () => {
  it('saves the loaded map in IndexedDB', async () => {
    await signUp(page, server, PHONE, '王五')
    auth = await apiSignIn(server, PHONE)
    const layer = await api('/api/layer/save', { name: '水井', parent_id: 0, type: 1 })
    await api('/api/marker/save', { layer_id: layer.id, name: '三号井', type: 0, points: '116.397428,39.90923' })
    await api('/api/marker/save', { layer_id: layer.id, name: '四号井', type: 0, points: '116.407428,39.91923' })
    await page.goto(`${server.url}/map`)
    await page.locator('.map-count[data-loaded="2"]').waitFor(SEEN)
    // Written a moment after the load, outside it: wait for the key to appear.
    let keys: string[] = []
    for (let i = 0; i < 40 && !keys.some((k) => k.endsWith(`markers:${layer.id}`)); i++) {
      await page.waitForTimeout(500)
      keys = await savedKeys(page)
    }
    expect(keys).toEqual(expect.arrayContaining([expect.stringMatching(new RegExp(`markers:${layer.id}$`))]))
    expect((await savedKeys(page)).some((k) => k.endsWith(':layers'))).toBe(true)
  })

  it('after a reload with no network for the API, shows the saved markers, says they are what this phone saved, and searches them', async () => {
    // HTTP calls to the API fail as without network (the push socket is not an HTTP call: it may stay).
    await page.route('**/api/**', (r) => r.abort('internetdisconnected'))
    await page.reload()
    await page.locator('.map-count[data-loaded="2"]').waitFor(SEEN)
    await notice(page, '地图显示的是本机保存的数据').waitFor(SEEN)
    await shot(page, '95-offline-map-from-indexeddb')
    await on(page, '.map-search-entry').click()
    await input(page, '搜索标注名称、备注、字段内容').fill('四号')
    await on(page, '.map-search__go').click()
    await on(page, '.map-search__results .nut-cell', '四号井').first().waitFor(SEEN)
    expect(await on(page, '.map-search__results .nut-cell', '三号井').count()).toBe(0)
    await page.unroute('**/api/**')
  })
})
