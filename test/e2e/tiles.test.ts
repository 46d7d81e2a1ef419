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
 * Where (page px) the tile grid on screen has `at`, given in the tiles' own datum: from a loaded tile of
 * the level shown (its screen box, its z/x/y from its URL).
 */
async function onGrid(at: LngLat): Promise<{ x: number; y: number }> {
  const tiles = await page.evaluate(() =>
    ([...document.querySelectorAll('.leaflet-tile-pane img.leaflet-tile-loaded')] as HTMLImageElement[]).map((img) => {
      const u = new URL(img.src)
      const zxy = u.searchParams.has('x') ? [u.searchParams.get('z'), u.searchParams.get('x'), u.searchParams.get('y')] : u.pathname.split('/').slice(-3)
      const [z, x, y] = zxy.map((v) => parseInt(v!, 10))
      const r = img.getBoundingClientRect()
      return { z, x, y, left: r.left, top: r.top, width: r.width }
    }),
  )
  // The tiles of one level lie on one grid: any loaded one of the level shown places every world pixel.
  const z = Math.max(...tiles.map((t) => t.z))
  const t = tiles.find((tile) => tile.z === z)
  if (!t) throw new Error('no tile has loaded')
  const p = worldPixel(at, z)
  const k = t.width / 256
  return { x: t.left + (p.x - t.x * 256) * k, y: t.top + (p.y - t.y * 256) * k }
}

/** How far (screen px) the marker's point, read from the point layer's drawing (its pin's anchor, bottom centre), is from where the tile grid has `at`. */
async function offsetFromGrid(at: LngLat): Promise<{ dx: number; dy: number }> {
  const pin = (await drawnPoint(page, { id: markerId })).pin
  const grid = await onGrid(at)
  return { dx: pin.left + pin.width / 2 - grid.x, dy: pin.top + pin.height - grid.y }
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

  it("draws a crowd of areas on their canvas where AMap's tiles have them, and a tap there opens the area", async () => {
    // More areas in view than are drawn as SVG (300), so they go on the shapes' canvas: a paid map, as the trial stops at 300 markers.
    server.sql('update groups set marker_limit = 5000, level = 4, vip_exp = ?', new Date(Date.now() + 30 * 24 * 3600_000).toISOString())
    const auth = await apiSignIn(server, PHONE)
    const layer = await apiOk(server, '/api/layer/save', { name: '片区', parent_id: 0, type: 3 }, auth)
    const square = (lng: number, lat: number, half: number) =>
      [
        [lng - half, lat - half],
        [lng + half, lat - half],
        [lng + half, lat + half],
        [lng - half, lat + half],
      ]
        .map(([x, y]) => `${x.toFixed(6)},${y.toFixed(6)}`)
        .join('|')
    // 南区: a square of some 110 m, 330 m south of the well (clear of its pin and title); GCJ-02 against WGS-84
    // is some 500 m here, so drawn on the wrong datum it would lie well away from where the tiles have it.
    const south = { lng: WELL.lng, lat: WELL.lat - 0.003 }
    const southId = (await apiOk(server, '/api/marker/save', { layer_id: layer.id, name: '南区', type: 3, points: square(south.lng, south.lat, 0.0005) }, auth)).id
    // 310 small squares a kilometre north, so that more than 300 areas are in the framed view.
    for (let row = 0; row < 10; row++)
      for (let col = 0; col < 31; col++)
        await apiOk(server, '/api/marker/save', { layer_id: layer.id, name: `北${row}-${col}`, type: 3, points: square(WELL.lng - 0.006 + col * 0.0004, WELL.lat + 0.01 + row * 0.0004, 0.0001) }, auth)
    await page.reload()
    await page.locator('.map-count[data-loaded="312"][data-indexed="312"]').waitFor()
    // Settled where the first look frames all of it, every tile of that level in.
    const framed = fitTarget([WELL.lng - 0.0061, south.lat - 0.0005, WELL.lng + 0.0061, WELL.lat + 0.0137]).zoom
    await page.waitForFunction((z) => {
      const tiles = [...document.querySelectorAll<HTMLImageElement>('.leaflet-tile-pane img.leaflet-tile')]
      return !document.querySelector('.leaflet-zoom-anim') && tiles.length > 0 && tiles.every((i) => i.classList.contains('leaflet-tile-loaded') && new URL(i.src).searchParams.get('z') === String(z))
    }, framed)
    await page.locator('canvas.map-canvas-layer:not(.map-canvas-layer--next)').waitFor()
    expect(await page.locator('path.map-shape').count()).toBe(0)
    const at = await onGrid(south)
    // The canvas is painted (the area's fill) where the tiles have the area's middle.
    await page.waitForFunction(({ x, y }) => {
      const c = document.querySelector('canvas.map-canvas-layer:not(.map-canvas-layer--next)') as HTMLCanvasElement | null
      if (!c || getComputedStyle(c).display === 'none') return false
      const r = c.getBoundingClientRect()
      const k = c.width / r.width
      return c.getContext('2d')!.getImageData(Math.round((x - r.left) * k), Math.round((y - r.top) * k), 1, 1).data[3] > 0
    }, at)
    await shot(page, '37e-amap-crowded-areas')
    await page.mouse.click(at.x, at.y)
    await visible('.marker-detail__name', exact('南区')).waitFor()
    expect(southId).toBeGreaterThan(0)
    await visible('.marker-detail .draggable-panel__close').click()
    await visible('.marker-detail').waitFor({ state: 'hidden' })
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
