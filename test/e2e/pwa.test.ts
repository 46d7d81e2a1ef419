/**
 * H5 as an installable app: the build's web app manifest and service worker (config/pwa), as the
 * real server serves them, and the app opening without network in Chromium: signed in online, the
 * worker takes the page; offline, a reload still shows the map page's chrome (its data comes from
 * the phone's offline store, not checked here) and other routes open, in the app and by address.
 */
import fs from 'node:fs'
import path from 'node:path'
import type { Page } from 'playwright-core'
import { SYNC_MSG } from '../../src/domain/syncMessages'
import { ROOT, button, on, openWorld, shot, signUp, type Server, type World } from './harness'
import { APP_MSG } from '../../src/domain/appMessages'

jest.setTimeout(300_000)

const PHONE = '13800000901'
const DIST = path.join(ROOT, 'dist/h5')

let world: World
let server: Server
let page: Page

beforeAll(async () => {
  // /web frames only the hosts the operator allows: the external page tried offline is on this machine.
  world = await openWorld({ WEB_FRAME_HOSTS: 'http://127.0.0.1:*' })
  ;({ server } = world)
  page = await world.newPage()
})

afterAll(async () => {
  await world?.close()
})

function walk(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]))
}

/** What dist/h5/sw.js was told by the build: its version and the files it keeps. */
function workerBuild(): { version: string; files: string[] } {
  const source = fs.readFileSync(path.join(DIST, 'sw.js'), 'utf8')
  const m = /^self\.__TEAMMAP_BUILD__\s*=\s*(\{.*?\})[;\n]/.exec(source)
  expect(m).not.toBeNull()
  return JSON.parse(m![1])
}

describe('the H5 build as an installable app', () => {
  it('has a manifest and a worker that keeps every JS and CSS file of the build, the page and the icons', () => {
    const built = walk(DIST).map((f) => path.relative(DIST, f).split(path.sep).join('/'))
    const { version, files } = workerBuild()
    expect(version).toMatch(/^[0-9a-f]{16}$/)
    const code = built.filter((f) => /\.(js|css)$/.test(f) && f !== 'sw.js')
    expect(code.length).toBeGreaterThan(10)
    expect(code.filter((f) => !files.includes(f))).toEqual([])
    expect(files).toEqual(expect.arrayContaining(['index.html', 'manifest.webmanifest', 'pwa/icon-192.png', 'pwa/icon-512.png']))
    // nothing listed that the server would not have: one missing file fails the whole install
    expect(files.filter((f) => !built.includes(f))).toEqual([])
    const manifest = JSON.parse(fs.readFileSync(path.join(DIST, 'manifest.webmanifest'), 'utf8'))
    expect(manifest).toMatchObject({ name: '团队地图', start_url: '/map', display: 'standalone' })
    const index = fs.readFileSync(path.join(DIST, 'index.html'), 'utf8')
    expect(index).toContain('<link rel="manifest" href="/manifest.webmanifest">')
    expect(index).toContain("navigator.serviceWorker.register('/sw.js')")
  })

  it('is served with the worker never taken from a cache and the manifest as application/manifest+json', async () => {
    const sw = await fetch(`${server.url}/sw.js`)
    expect(sw.status).toBe(200)
    expect(sw.headers.get('cache-control')).toBe('no-cache')
    expect(sw.headers.get('content-type')).toMatch(/javascript/)
    const manifest = await fetch(`${server.url}/manifest.webmanifest`)
    expect(manifest.headers.get('content-type')).toMatch(/^application\/manifest\+json/)
    const icon = await fetch(`${server.url}/pwa/icon-512.png`)
    expect(icon.headers.get('content-type')).toBe('image/png')
    const csp = (await fetch(`${server.url}/map`)).headers.get('content-security-policy') ?? ''
    expect(csp).toContain("manifest-src 'self'")
    expect(csp).toMatch(/worker-src 'self'/)
  })

  it('opens without network once it was opened online: the map page, and other routes in the app and by address', async () => {
    await signUp(page, server, PHONE, '王五')
    // the worker installed (every file kept) and took this page
    await page.waitForFunction(() => navigator.serviceWorker?.controller !== null, undefined, { timeout: 60_000 })
    // the map as it opens at the next start, with the worker in the way of its tiles
    await page.reload()
    await on(page, '.sync-chip', SYNC_MSG.synced).waitFor({ timeout: 20_000 })
    await page.locator('.leaflet-tile-loaded').first().waitFor()
    // what the worker keeps: this build's files and the map tiles seen, never an API answer
    const kept = await page.evaluate(async () => {
      const all: Record<string, string[]> = {}
      for (const name of await caches.keys()) all[name] = (await (await caches.open(name)).keys()).map((r) => new URL(r.url).pathname)
      return all
    })
    const shell = Object.keys(kept).filter((n) => n.startsWith('teammap-shell-'))
    expect(shell).toEqual([`teammap-shell-${workerBuild().version}`])
    expect(kept[shell[0]]).toEqual(
      expect.arrayContaining([
        '/index.html',
        ...workerBuild()
          .files.filter((f) => f.startsWith('js/app.'))
          .map((f) => `/${f}`),
      ]),
    )
    expect(kept['teammap-tiles']?.length).toBeGreaterThan(0)
    expect(
      Object.values(kept)
        .flat()
        .filter((p) => /^\/(api|files)\//.test(p)),
    ).toEqual([])

    await page.context().setOffline(true)
    await page.reload()
    await on(page, '.map-nickname', '王五').waitFor()
    await on(page, '.map-search-entry').waitFor()
    await on(page, '.sync-chip', SYNC_MSG.offline).waitFor({ timeout: 20_000 })
    // the base map of the place last seen, from the kept tiles
    await page.locator('.leaflet-tile-loaded').first().waitFor()
    await shot(page, 'pwa-01-map-offline')

    // in the app: the personal centre's chunk comes from the worker's cache
    await on(page, '.map-me').click()
    await page.waitForURL(/\/home$/)
    await on(page, '.home-nickname', '王五').waitFor()
    await shot(page, 'pwa-02-home-offline')

    // by address: a whole new page load of another route, without network
    await page.goto(`${server.url}/about`)
    await on(page, '.about-brand').waitFor()
    await shot(page, 'pwa-03-about-offline')

    // an external page cannot open without network: said plainly, with its address, a retry and a way back
    // (an address on this machine where nothing listens: the test never reaches for another site)
    const external = 'http://127.0.0.1:9/help'
    await page.goto(`${server.url}/web?url=${encodeURIComponent(external)}`)
    await page.getByText(APP_MSG.webUnreachable).waitFor()
    await on(page, '.web-failed__url', external).waitFor()
    await shot(page, 'pwa-03b-web-unreachable')
    await button(page, APP_MSG.webRetry).click()
    await page.getByText(APP_MSG.webUnreachable).waitFor()
    // Opened by its address, the page has no opener in the app: back leads to the map, which opens offline too.
    await page.locator('.page-header__back').click()
    await page.waitForURL(/\/map$/)
    await on(page, '.map-tool', '图层').waitFor()

    await page.context().setOffline(false)
  })
})
