/**
 * The keyless map's tile source (地图样式 → 底图来源) in headless Chromium against the real server:
 * 高德 and 无底图 replace the tiles without a reload and stay chosen after one; a stored GCJ-02
 * point lands on AMap's tile grid where AMap puts it, and on OpenStreetMap's where its WGS-84
 * position is; where the tiles fail, the notice's 切换底图 opens the choice. Every tile request
 * is answered on this machine (the harness's local tile).
 */
import fs from 'node:fs'
import path from 'node:path'
import type { Page } from 'playwright-core'
import { fitTarget } from '../../src/domain/fit'
import { gcj02ToWgs84, type LngLat } from '../../src/domain/geo'
import { apiOk, apiSignIn, closePopup, drawnPoint, exact, failTiles, mapSettledAt, notice, on, openWorld, shot, signIn, signUp, type Server, type World } from './harness'

jest.setTimeout(300_000)

const PHONE = '13800000801'
/** A stored (GCJ-02) point in Beijing, where GCJ-02 and WGS-84 differ by some 500 m: hundreds of pixels at the map's zoom. */
const WELL: LngLat = { lng: 116.397428, lat: 39.90923 }
const AMAP_TILE = /^https:\/\/webrd0[1-4]\.is\.autonavi\.com\/appmaptile\?/
const LOCAL_TILE = fs.readFileSync(path.join(__dirname, 'fixtures/tile.png'))

let world: World
let server: Server
let page: Page
let markerId: number
/** AMap tile requests the browser made (each answered with the local tile). */
const amapRequests: string[] = []

beforeAll(async () => {
  world = await openWorld()
  ;({ server } = world)
  page = await world.newPage()
  // Routes added later win over the harness's: AMap's tiles are answered here, as OSM's are there.
  await page.context().route(
    (url) => AMAP_TILE.test(url.href),
    (route) => {
      amapRequests.push(route.request().url())
      return route.fulfill({ status: 200, contentType: 'image/png', headers: { 'access-control-allow-origin': '*' }, body: LOCAL_TILE })
    },
  )
})

afterAll(() => world?.close())

const visible = (selector: string, text?: string | RegExp) => on(page, selector, text)

/** The hosts of the tile images on the map now. */
const tileHosts = () => page.locator('.leaflet-tile-pane img').evaluateAll((imgs) => [...new Set(imgs.map((i) => new URL((i as HTMLImageElement).src).host.replace(/^webrd0\d/, 'webrd0*')))].sort())

/** Waits until every tile image on the map comes from `host` and one of them has loaded. */
async function tilesFrom(host: string): Promise<void> {
  await page.waitForFunction(
    (h) => {
      const imgs = [...document.querySelectorAll('.leaflet-tile-pane img')] as HTMLImageElement[]
      return imgs.length > 0 && imgs.every((i) => new URL(i.src).host.replace(/^webrd0\d/, 'webrd0*') === h) && imgs.some((i) => i.classList.contains('leaflet-tile-loaded'))
    },
    host,
    { timeout: 20_000 },
  )
}

async function openSheet(): Promise<void> {
  await visible('.map-tool', '底图').click()
  await visible('.basemap-sheet').waitFor()
}

async function closeSheet(): Promise<void> {
  await closePopup(page, '.basemap-sheet')
}

const choose = (label: string) => visible('.basemap-source .nut-radio', exact(label)).click()
const chosen = () => visible('.basemap-source .nut-radio-button-active').innerText()

/** Web Mercator pixel of a point at zoom z (256-px tiles), on whichever datum the point is given in. */
function worldPixel(p: LngLat, z: number): { x: number; y: number } {
  const scale = 256 * 2 ** z
  const phi = (p.lat * Math.PI) / 180
  return { x: ((p.lng + 180) / 360) * scale, y: ((1 - Math.log(Math.tan(phi) + 1 / Math.cos(phi)) / Math.PI) / 2) * scale }
}

/**
 * How far (screen px) the marker's point is from where the tile grid on screen has `at`: the
 * marker's place read from the point layer's drawing (its pin's anchor, bottom centre),
 * the grid's from a loaded tile (its screen box, its z/x/y from its URL).
 */
async function offsetFromGrid(at: LngLat): Promise<{ dx: number; dy: number }> {
  const pin = (await drawnPoint(page, { id: markerId })).pin
  const tiles = await page.evaluate(() =>
    ([...document.querySelectorAll('.leaflet-tile-pane img.leaflet-tile-loaded')] as HTMLImageElement[]).map((img) => {
      const u = new URL(img.src)
      const zxy = u.searchParams.has('x') ? [u.searchParams.get('z'), u.searchParams.get('x'), u.searchParams.get('y')] : u.pathname.split('/').slice(-3)
      const [z, x, y] = zxy.map((v) => parseInt(v!, 10))
      const r = img.getBoundingClientRect()
      return { z, x, y, left: r.left, top: r.top, width: r.width }
    }),
  )
  const seen = { marker: { x: pin.left + pin.width / 2, y: pin.top + pin.height }, tiles }
  // The tiles of one level lie on one grid: any loaded one of the level shown places every world pixel.
  const z = Math.max(...seen.tiles.map((t) => t.z))
  const t = seen.tiles.find((tile) => tile.z === z)
  if (!t) throw new Error('no tile has loaded')
  const p = worldPixel(at, z)
  const k = t.width / 256
  return { dx: seen.marker.x - (t.left + (p.x - t.x * 256) * k), dy: seen.marker.y - (t.top + (p.y - t.y * 256) * k) }
}

/** The zoom a first look frames the lone stored point at (the team's data, SPEC 4). */
const FRAMED_ZOOM = fitTarget([WELL.lng, WELL.lat, WELL.lng, WELL.lat]).zoom

/** Within the pixel the point layer rounds to. */
function expectOnGrid(o: { dx: number; dy: number }): void {
  expect(Math.abs(o.dx)).toBeLessThan(1.5)
  expect(Math.abs(o.dy)).toBeLessThan(1.5)
}

describe('the tile source of the keyless map', () => {
  it('starts on OpenStreetMap, the stored point drawn at its WGS-84 place on those tiles', async () => {
    await signUp(page, server, PHONE, '赵六')
    const auth = await apiSignIn(server, PHONE)
    const layer = await apiOk(server, '/api/layer/save', { name: '水井', parent_id: 0, type: 1 }, auth)
    markerId = (await apiOk(server, '/api/marker/save', { layer_id: layer.id, name: '一号井', type: 0, points: `${WELL.lng},${WELL.lat}` }, auth)).id
    await page.goto(`${server.url}/map`)
    // Loaded, and in the draw index the view is drawn from (what the bench's first view waits for).
    await page.locator('.map-count[data-loaded="1"][data-indexed="1"]').waitFor()
    await drawnPoint(page, { id: markerId })
    await tilesFrom('tile.openstreetmap.org')
    await mapSettledAt(page, FRAMED_ZOOM)
    expectOnGrid(await offsetFromGrid(gcj02ToWgs84(WELL)))
    // The check means something: unshifted, the point would be far off these tiles' place for it.
    expect(Math.abs((await offsetFromGrid(WELL)).dx)).toBeGreaterThan(100)
  })

  it("frames the team's data on a first look also when the map's own code comes in after the markers (a slow phone)", async () => {
    // A second phone of the same user, whose Leaflet chunk (the one file of the build with Leaflet's
    // '_leaflet_id') arrives well after the markers: the framing is asked for before there is a map.
    const late = await world.newPage()
    let markersIn: Promise<unknown> = new Promise(() => undefined)
    await late.context().route(/\/js\/[^/]+\.js$/, async (route) => {
      // A chunk still on its way when the phone is put away below has nowhere to go: nothing to report.
      try {
        const response = await route.fetch()
        const body = await response.body()
        if (body.includes('_leaflet_id')) await markersIn.then(() => new Promise((resolve) => setTimeout(resolve, 1500)))
        await route.fulfill({ response, body })
      } catch (e) {
        if (!late.isClosed()) throw e
      }
    })
    markersIn = late.waitForResponse((r) => r.url().includes('/api/marker/getlist'))
    await signIn(late, server, PHONE)
    await late.waitForURL(/\/map$/)
    await drawnPoint(late, { id: markerId })
    await mapSettledAt(late, FRAMED_ZOOM)
    await late.context().unrouteAll({ behavior: 'ignoreErrors' })
    await late.context().close()
  })

  it('switches to 高德 tiles from 地图样式 without a reload, the point unshifted on their GCJ-02 grid', async () => {
    await page.evaluate(() => ((window as any).__sameDocument = true))
    await openSheet()
    await visible('.basemap-source', '底图来源').waitFor()
    expect(await visible('.basemap-source .nut-radio').allInnerTexts()).toEqual(['OpenStreetMap', '高德', '无底图'])
    // The one control for the tiles: no 底图 on/off switch beside 无底图.
    expect(await page.locator('.basemap-sheet .nut-switch').count()).toBe(0)
    expect(await chosen()).toBe('OpenStreetMap')
    await choose('高德')
    await tilesFrom('webrd0*.is.autonavi.com')
    expect(await chosen()).toBe('高德')
    await shot(page, '37b-basemap-source')
    await closeSheet()
    expect(await page.evaluate(() => (window as any).__sameDocument)).toBe(true)
    expect(amapRequests.length).toBeGreaterThan(0)
    expect((await visible('.leaflet-control-attribution').innerText()).trim()).toBe('© 高德地图')
    // Where AMap itself puts the stored point: no GCJ-02 to WGS-84 shift on AMap's tiles.
    expectOnGrid(await offsetFromGrid(WELL))
    expect(Math.abs((await offsetFromGrid(gcj02ToWgs84(WELL))).dx)).toBeGreaterThan(100)
  })

  it('keeps 高德 after a reload', async () => {
    await page.reload()
    await drawnPoint(page, { id: markerId })
    await tilesFrom('webrd0*.is.autonavi.com')
    expectOnGrid(await offsetFromGrid(WELL))
    await openSheet()
    expect(await chosen()).toBe('高德')
    await closeSheet()
  })

  it('shows no tiles and credits nobody with 无底图, also after a reload, and goes back to OpenStreetMap', async () => {
    await openSheet()
    await choose('无底图')
    await page.locator('.leaflet-tile-pane img').first().waitFor({ state: 'detached' })
    await visible('.leaflet-control-attribution').waitFor({ state: 'hidden' })
    await closeSheet()
    // The markers stay, on the plain background.
    await drawnPoint(page, { id: markerId })
    await shot(page, '37c-map-no-tiles')
    await page.reload()
    await drawnPoint(page, { id: markerId })
    await visible('.map-count', '视野内 1个点').waitFor()
    expect(await page.locator('.leaflet-tile-pane img').count()).toBe(0)
    expect(await tileHosts()).toEqual([])
    await openSheet()
    expect(await chosen()).toBe('无底图')
    await choose('OpenStreetMap')
    await tilesFrom('tile.openstreetmap.org')
    await closeSheet()
    expectOnGrid(await offsetFromGrid(gcj02ToWgs84(WELL)))
  })

  it('offers 切换底图 in the notice when the tiles fail, opening the choice', async () => {
    await failTiles(page.context())
    // The service worker keeps the tiles seen so far and serves them without network: the tiles of
    // this view, loaded in the test before, would hide the failure. A worker that never got the
    // tiles through (OpenStreetMap blocked where they are) has none kept.
    await page.evaluate(() => caches.delete('teammap-tiles'))
    await page.reload()
    const failed = notice(page, '底图加载失败，标注仍可查看和编辑')
    await failed.waitFor()
    await shot(page, '37d-tiles-failed-notice')
    await failed.locator('.notice-bar__action', { hasText: '切换底图' }).click()
    await visible('.basemap-sheet').waitFor()
    await visible('.basemap-source', '底图来源').waitFor()
    await choose('高德')
    await tilesFrom('webrd0*.is.autonavi.com')
    await closeSheet()
    await drawnPoint(page, { id: markerId })
  })
})
