/**
 * E2E harness: the real server (tsx server/src/main.ts) on a free loopback port with a temporary
 * database, serving the real H5 build, and Debian's Chromium driven by playwright-core. The
 * browser never leaves the machine: map tiles get a local tile, any other request to a host that
 * is not loopback is refused and fails the test that made it (keepOnMachine).
 */
import SqliteDatabase from 'better-sqlite3'
import { spawn, execSync, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core'
import type { DrawingReport, DrawnBadge, DrawnPoint, DrawnShapeTitle } from '../../src/platform/map/pointLayer'

export const ROOT = path.resolve(__dirname, '../..')
export const SHOTS = path.join(__dirname, '__screenshots__')

export const MOBILE_UA = 'Mozilla/5.0 (Linux; Android 13; Redmi Note 12) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36'
export const DESKTOP_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36'

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer()
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo
      srv.close(() => resolve(port))
    })
    srv.on('error', reject)
  })
}

export interface Server {
  url: string
  output: () => string
  /** The latest code the development SMS sender printed for a phone. */
  codeFor: (phone: string) => Promise<string>
  /**
   * Runs one statement on the server's embedded SQLite database (WAL, so beside the running
   * server): for states no API makes, like a membership that ran out.
   */
  sql: (statement: string, ...params: unknown[]) => void
  stop: () => Promise<void>
}

export function ensureH5Build(): void {
  if (!fs.existsSync(path.join(ROOT, 'dist/h5/index.html'))) execSync('npx taro build --type h5', { cwd: ROOT, stdio: 'inherit' })
}

export async function startServer(env: Record<string, string> = {}): Promise<Server> {
  const port = await freePort()
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'teammap-e2e-'))
  let out = ''
  const child: ChildProcess = spawn(path.join(ROOT, 'node_modules/.bin/tsx'), ['server/src/main.ts'], {
    cwd: ROOT,
    // Every browser and API call of a test comes from 127.0.0.1: one client address for the codes' hourly cap.
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, STATIC_DIR: path.join(ROOT, 'dist/h5'), DATABASE_URL: '', SMS_HOURLY_CAP_PER_ADDRESS: '1000', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  child.stdout!.on('data', (d) => (out += d.toString()))
  child.stderr!.on('data', (d) => (out += d.toString()))
  const url = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 60_000
  for (;;) {
    try {
      const res = await fetch(`${url}/api/system/get/config`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"no_check_permission":true}' })
      if (res.status === 200) break
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`server did not start:\n${out}`)
    await new Promise((r) => setTimeout(r, 200))
  }
  return {
    url,
    output: () => out,
    async codeFor(phone) {
      const until = Date.now() + 10_000
      for (;;) {
        const matches = [...out.matchAll(new RegExp(`phone=${phone} code=(\\d{6})`, 'g'))]
        if (matches.length) return matches[matches.length - 1][1]
        if (Date.now() > until) throw new Error(`no code for ${phone} in server output:\n${out}`)
        await new Promise((r) => setTimeout(r, 100))
      }
    },
    sql(statement, ...params) {
      const db = new SqliteDatabase(path.join(dataDir, 'teammap.db'))
      try {
        db.pragma('busy_timeout = 5000')
        db.prepare(statement).run(...params)
      } finally {
        db.close()
      }
    },
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r))
        child.kill('SIGTERM')
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))])
        if (child.exitCode === null) child.kill('SIGKILL')
      }
      fs.rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

/** Playwright gives every launch a fresh, temporary profile (the --user-data-dir DESIGN 6 asks for). */
export async function launchBrowser(): Promise<{ browser: Browser }> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
      // the check-in journey's camera: Chromium's own test pattern, allowed without a prompt
      '--use-fake-device-for-media-stream',
      '--use-fake-ui-for-media-stream',
    ],
  })
  return { browser }
}

/**
 * A phone's browser context (390×844, touch, zh-CN, Shanghai time); with DESKTOP_UA a desktop's. Kept on this machine.
 * `watchSockets` (the bench's): WebSockets to another host are recorded as they open rather than refused (see keepOnMachine).
 */
export async function mobileContext(browser: Browser, ua = MOBILE_UA, opts: { watchSockets?: boolean } = {}): Promise<BrowserContext> {
  const mobile = ua !== DESKTOP_UA
  const ctx = await browser.newContext({
    userAgent: ua,
    viewport: mobile ? { width: 390, height: 844 } : { width: 1280, height: 800 },
    deviceScaleFactor: mobile ? 2 : 1,
    isMobile: mobile,
    hasTouch: mobile,
    locale: 'zh-CN',
    timezoneId: 'Asia/Shanghai',
  })
  await keepOnMachine(ctx, opts)
  ctx.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy/i.test(m.text())) cspViolations.push(m.text())
  })
  return ctx
}

/** What the pages' Content-Security-Policy refused (Chromium reports each on the console), until a test takes them. */
const cspViolations: string[] = []

/** The CSP violations since the last call, for a test that provokes one. */
export function takeCspViolations(): string[] {
  return cspViolations.splice(0)
}

/** A policy that refuses what the app itself loads breaks it without a word: every test fails that met one. */
export function assertNoCspViolations(): void {
  const refused = takeCspViolations()
  if (refused.length) throw new Error(`the Content-Security-Policy refused:\n${refused.join('\n')}`)
}

/** What every map tile request gets: a pale square with a grey top and left edge, so tiles show as a grid. */
const LOCAL_TILE = fs.readFileSync(path.join(__dirname, 'fixtures/tile.png'))

/** Requests the browsers tried to send off this machine (not tiles), until a test's end takes them. */
const offMachine: string[] = []

/** Throws when the browsers tried to reach another host since the last check, and starts over. */
export function assertStayedOnMachine(): void {
  const attempts = offMachine.splice(0)
  if (attempts.length) throw new Error(`the browser tried to reach hosts off this machine (refused):\n${attempts.join('\n')}`)
}

// Under jest every test fails that made the browser reach for another host, or met a CSP refusal; bench/ checks itself.
if (typeof afterEach === 'function') {
  afterEach(assertStayedOnMachine)
  afterEach(assertNoCspViolations)
}

const isLoopback = (url: URL) => url.hostname === 'localhost' || url.hostname === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(url.hostname)

/**
 * Routes every request of a context to a host that is not loopback: the build's map tiles are
 * answered with LOCAL_TILE, anything else (WebSockets too) is refused and recorded.
 *
 * Refusing WebSockets takes Playwright's routeWebSocket, which replaces the page's WebSocket with a
 * script of its own that passes every socket's events and messages, the app's own included, through
 * the page's thread (30-40 ms of a task at 4x throttling when the app's socket opens). The bench,
 * which times that thread, has them recorded as they open instead (`watchSockets`).
 */
export async function keepOnMachine(ctx: BrowserContext, opts: { watchSockets?: boolean } = {}): Promise<void> {
  const tile = tilePattern()
  await ctx.route(
    (url) => !isLoopback(url),
    (route) => {
      const request = route.request()
      // CORS allowed like OpenStreetMap's tiles, so that the app's service worker may keep them
      if (tile?.test(request.url())) return route.fulfill({ status: 200, contentType: 'image/png', headers: { 'access-control-allow-origin': '*' }, body: LOCAL_TILE })
      offMachine.push(`${request.method()} ${request.url()}`)
      return route.abort('blockedbyclient')
    },
  )
  if (opts.watchSockets) {
    ctx.on('page', (page) =>
      page.on('websocket', (ws) => {
        if (!isLoopback(new URL(ws.url()))) offMachine.push(`WebSocket ${ws.url()}`)
      }),
    )
    return
  }
  await ctx.routeWebSocket(
    (url) => !isLoopback(url),
    (ws) => {
      offMachine.push(`WebSocket ${ws.url()}`)
      return ws.close()
    },
  )
}

/** Makes the build's map tiles fail in this context, as where OpenStreetMap is blocked or there is no signal (routes added later win). */
export async function failTiles(ctx: BrowserContext): Promise<void> {
  const tile = tilePattern()
  if (tile)
    await ctx.route(
      (url) => tile.test(url.href),
      (route) => route.abort('connectionrefused'),
    )
}

let tiles: RegExp | null | undefined
/**
 * The tile URLs of the H5 build, from the tile template it names in index.html (config/index.ts):
 * {s} a subdomain, {z}/{x}/{y} numbers, {r} an optional '@2x'. Null when the build names none
 * (an AMap build, whose requests are then all refused).
 */
function tilePattern(): RegExp | null {
  if (tiles !== undefined) return tiles
  const html = fs.readFileSync(path.join(ROOT, 'dist/h5/index.html'), 'utf8')
  const meta = /<meta name="teammap-map-tiles" content="([^"]*)"/.exec(html)
  if (!meta) throw new Error('dist/h5/index.html names no map tiles (a build older than its teammap-map-tiles meta): run `npx taro build --type h5`')
  const template = meta[1].replace(/&amp;/g, '&')
  if (!template) return (tiles = null)
  const pattern = template
    .replace(/[.*+?^$()|[\]\\]/g, '\\$&')
    .replace(/\{s\}/g, '[a-z0-9-]+')
    .replace(/\{[xyz]\}/g, '-?\\d+')
    .replace(/\{r\}/g, '(?:@2x)?')
    .replace(/\{[a-z]+\}/gi, '[^/?&#]*')
  return (tiles = new RegExp(`^${pattern}$`, 'i'))
}

/** A web site of its own: another origin on loopback serving the given pages (path -> HTML), for what the app frames or is framed by. */
export async function serveSite(pages: Record<string, string>): Promise<{ url: string; close: () => Promise<void> }> {
  const site = http.createServer((req, res) => {
    const html = pages[(req.url ?? '/').split('?')[0]]
    res.writeHead(html === undefined ? 404 : 200, { 'content-type': 'text/html; charset=utf-8' }).end(html ?? 'not found')
  })
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(site.address() as net.AddressInfo).port}`,
    close: () =>
      new Promise((resolve) => {
        site.close(() => resolve())
        site.closeAllConnections() // the browser's keep-alive connections would hold the server open
      }),
  }
}

/** What a journey file runs against: the server, one browser, and the phones (mobile pages) it opened. */
export interface World {
  server: Server
  browser: Browser
  /** A page in a mobile context of its own: another phone, with its own storage and sign-in. */
  newPage(opts?: { permissions?: string[]; geolocation?: { longitude: number; latitude: number }; ua?: string }): Promise<Page>
  /** Closes every page's context, the browser and the server (and its data folder). */
  close(): Promise<void>
}

/** Starts a journey's server (SMS cooldown 1 s) and browser; `env` adds server settings. */
export async function openWorld(env: Record<string, string> = {}): Promise<World> {
  ensureH5Build()
  const server = await startServer({ SMS_RESEND_COOLDOWN_S: '1', ...env })
  let browser: Browser
  try {
    ;({ browser } = await launchBrowser())
  } catch (e) {
    await server.stop()
    throw e
  }
  const contexts: BrowserContext[] = []
  return {
    server,
    browser,
    async newPage(opts = {}) {
      const ctx = await mobileContext(browser, opts.ua)
      contexts.push(ctx)
      if (opts.permissions) await ctx.grantPermissions(opts.permissions, { origin: server.url })
      if (opts.geolocation) await ctx.setGeolocation(opts.geolocation)
      return ctx.newPage()
    },
    async close() {
      for (const ctx of contexts) await ctx.close().catch(() => undefined)
      await browser.close()
      await server.stop()
    },
  }
}

/** The keys the app holds in its IndexedDB database on H5 (its offline copy and outbox), read in the page. */
export const savedKeys = (p: Page) =>
  p.evaluate(
    () =>
      new Promise<string[]>((resolve) => {
        const req = indexedDB.open('teammap-offline')
        req.onsuccess = () => {
          const db = req.result
          if (!db.objectStoreNames.contains('values')) return resolve([])
          const keys = db.transaction('values', 'readonly').objectStore('values').getAllKeys()
          keys.onsuccess = () => resolve(keys.result.map(String))
          keys.onerror = () => resolve([])
        }
        req.onerror = () => resolve([])
      }),
  )

/**
 * Waits until a page's offline copy holds a layer's markers: the copy is written in idle time a
 * moment after the map loaded, so a test that takes the network away must wait for it first.
 */
export async function offlineCopyOf(p: Page, layerId: number, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs
  while (!(await savedKeys(p)).some((k) => k.endsWith(`markers:${layerId}`))) {
    if (Date.now() > end) throw new Error(`the offline copy has no markers of layer ${layerId}`)
    await p.waitForTimeout(250)
  }
}

/** Visible elements of a selector, optionally those containing a text. */
export const on = (page: Page, selector: string, text?: string | RegExp) => page.locator(`${selector}:visible`, text ? { hasText: text } : undefined)

/**
 * Closes a NutUI popup (its root's selector) with its close icon, once it has slid in, and waits
 * until it is gone. A click aimed at the icon while the popup still slides lands where the icon
 * was a moment before, inside the popup's body, and closes nothing; a test that went on would find
 * the popup over the map's tools.
 */
export async function closePopup(page: Page, selector: string): Promise<void> {
  // The first opening mounts it in place with no slide, so no transition class at all; later ones slide.
  await page.locator(`${selector}:visible:not([class*="-enter-active"])`).waitFor()
  await on(page, `${selector} .nut-popup-title-right`).click()
  await on(page, selector).waitFor({ state: 'hidden' })
}

/**
 * Waits until the page's Leaflet map has settled at a zoom level (tile URLs /z/x/y): the pane has
 * stopped animating and only that level's tiles are left, all loaded. Leaflet swallows a zoom asked
 * for during the animation of another, and a view's tiles come in after its first ones.
 */
export async function mapSettledAt(page: Page, z: number): Promise<void> {
  await page.waitForFunction((z) => {
    const tiles = [...document.querySelectorAll<HTMLImageElement>('.leaflet-tile-pane img.leaflet-tile')]
    return !document.querySelector('.leaflet-zoom-anim') && tiles.length > 0 && tiles.every((i) => i.classList.contains('leaflet-tile-loaded') && Number(new URL(i.src).pathname.split('/')[1]) === z)
  }, z)
}

/** The highest zoom among the map's tiles, read from their addresses (…/z/x/y). */
export const tileZoom = (page: Page): Promise<number> =>
  page.evaluate(() => Math.max(...[...document.querySelectorAll<HTMLImageElement>('.leaflet-tile-pane img.leaflet-tile')].map((i) => Number(new URL(i.src).pathname.split('/')[1]))))

/**
 * Waits until the map is still, with more than `more` badges on the points' drawing (and, with `above`, every
 * tile past that zoom), and gives the badges. Boxes are in page px.
 */
export async function drawnBadges(page: Page, { more = 0, above }: { more?: number; above?: number } = {}): Promise<DrawnBadge[]> {
  const handle = await page.waitForFunction(
    ({ more, above }) => {
      if (document.querySelector('.leaflet-zoom-anim')) return null
      if (above !== undefined) {
        const tiles = [...document.querySelectorAll<HTMLImageElement>('.leaflet-tile-pane img.leaflet-tile')]
        if (!tiles.length || !tiles.every((i) => Number(new URL(i.src).pathname.split('/')[1]) > above)) return null
      }
      const c = document.querySelector('canvas.map-points__canvas') as (HTMLCanvasElement & Partial<DrawingReport>) | null
      const list = c?.drawnBadges?.() ?? []
      return list.length > more ? list : null
    },
    { more, above },
  )
  return (await handle.jsonValue()) as DrawnBadge[]
}

/**
 * The keyless map's point layer canvas, which says what it drew (src/platform/map/pointLayer.ts): plain
 * points, with no element of their own (selected and pending points stay elements, .map-point), and
 * lines' and areas' titles. Boxes are in page px.
 */
export type ReportingCanvas = HTMLCanvasElement & Partial<DrawingReport>
export type { DrawnPoint, DrawnShapeTitle }

export const drawnPoints = (page: Page): Promise<DrawnPoint[]> => page.evaluate(() => (document.querySelector('canvas.map-points__canvas') as ReportingCanvas | null)?.drawnPoints?.() ?? [])

export const drawnShapeTitles = (page: Page): Promise<DrawnShapeTitle[]> => page.evaluate(() => (document.querySelector('canvas.map-points__canvas') as ReportingCanvas | null)?.drawnTitles?.() ?? [])

/** Points on the map, drawn or elements. */
export const pointCount = async (page: Page): Promise<number> => (await drawnPoints(page)).length + (await page.locator('.map-point').count())

/**
 * Waits until the map shows a drawn point (by marker id or by its title's text, shown), its pin in
 * the map's view on a shown canvas, and gives it.
 */
export async function drawnPoint(page: Page, which: { id?: number; title?: string } = {}, timeout = 10_000): Promise<DrawnPoint> {
  const handle = await page.waitForFunction(
    (which) => {
      const canvas = document.querySelector('canvas.map-points__canvas') as ReportingCanvas | null
      const view = document.querySelector('.leaflet-container')?.getBoundingClientRect()
      if (!canvas?.drawnPoints || !view || getComputedStyle(canvas).display === 'none' || document.querySelector('.leaflet-zoom-anim')) return null
      return (
        canvas.drawnPoints().find((p) => {
          if (which.id !== undefined && p.id !== which.id) return false
          if (which.title !== undefined && (p.title?.text !== which.title || !p.title.shown)) return false
          const x = p.pin.left + p.pin.width / 2
          const y = p.pin.top + p.pin.height / 2
          return x >= view.left && x <= view.right && y >= view.top && y <= view.bottom
        }) ?? null
      )
    },
    which,
    { timeout },
  )
  return (await handle.jsonValue()) as DrawnPoint
}

/** Taps a drawn point's pin in its middle, as a finger would (the map matches the tap to the drawing). */
export async function tapPoint(page: Page, which: { id?: number; title?: string } = {}): Promise<DrawnPoint> {
  const p = await drawnPoint(page, which)
  await page.mouse.click(p.pin.left + p.pin.width / 2, p.pin.top + p.pin.height / 2)
  return p
}

/** A label matched whole (surrounding spaces allowed), for texts that others contain ('片区' in '一号片区'). */
export const exact = (label: string) => new RegExp(`^\\s*${label.replace(/[.*+?^${}()|[\]\\（）「」]/g, '\\$&')}\\s*$`)

/**
 * The texts of a locator's elements once they settle on the expected list (a page fills its
 * list after the route changes), then asserted, so a wrong list fails with the texts it shows.
 */
export async function settledTexts(target: Locator, expected: string[], timeoutMs = 10_000): Promise<string[]> {
  const until = Date.now() + timeoutMs
  let texts = await target.allTextContents()
  while (JSON.stringify(texts) !== JSON.stringify(expected) && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 100))
    texts = await target.allTextContents()
  }
  return texts
}

/** The notice bar showing a text. */
export const notice = (page: Page, text: string | RegExp) => page.locator('.notice-bar:visible', { hasText: text }).first()

/** Waits for the notice bar to go (it covers the top of the page) before a screenshot or a tap there. */
export const quiet = (page: Page) => page.locator('.notice-bar:visible').waitFor({ state: 'hidden' })

/** The search bar has no backing of its own that ends short of the button, and its box lines up with the cards below. */
export async function expectSearchBarAligned(page: Page, bar: string, card: string): Promise<void> {
  const m = await page.evaluate(
    ([barSel, cardSel]) => {
      const box = (sel: string) => document.querySelector(sel)!.getBoundingClientRect()
      return {
        backing: getComputedStyle(document.querySelector(`${barSel} .nut-searchbar`)!).backgroundColor,
        inputLeft: box(`${barSel} .nut-searchbar-content`).left,
        buttonRight: box(`${barSel} .nut-button`).right,
        cardLeft: box(cardSel).left,
        cardRight: box(cardSel).right,
      }
    },
    [bar, card],
  )
  expect(m.backing).toBe('rgba(0, 0, 0, 0)')
  expect(Math.abs(m.inputLeft - m.cardLeft)).toBeLessThan(1.5)
  expect(Math.abs(m.buttonRight - m.cardRight)).toBeLessThan(1.5)
}

export async function shot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SHOTS, { recursive: true })
  await page.waitForTimeout(400) // let page transitions finish before the picture
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`) })
}

/** The native <input> inside Taro's input element (both carry the placeholder). */
export const input = (page: Page, placeholder: string) => page.locator(`input[placeholder="${placeholder}"]:visible, textarea[placeholder="${placeholder}"]:visible`).last()

/** A visible NutUI button by its exact label (the label's text node does not take the tap itself). */
export const button = (page: Page, label: string) => page.locator('taro-button-core:visible, .nut-button:visible', { hasText: new RegExp(`^\\s*${label}\\s*$`) }).last()

/** Smallest side of a tap target a thumb hits reliably on a small phone (WeChat asks 44 px of primary actions). */
export const TAP_TARGET_MIN_PX = 32

/** The element is at least TAP_TARGET_MIN_PX in both directions on the phone screen. */
export async function expectTapTarget(target: Locator): Promise<void> {
  const box = await target.boundingBox()
  expect(box).not.toBeNull()
  expect(Math.min(box!.width, box!.height)).toBeGreaterThanOrEqual(TAP_TARGET_MIN_PX)
}

/** Fills the phone on a page with the code form (/login, /reg), asks for a code and returns the one the server sent. */
export async function requestCode(page: Page, server: Server, phone: string): Promise<string> {
  await input(page, '请输入手机号').fill(phone)
  await expectTapTarget(button(page, '获取验证码'))
  await button(page, '获取验证码').click()
  await page.getByText(/\d+秒后重新获取/).waitFor()
  return server.codeFor(phone)
}

/** Signs in on /login with an SMS code; where it lands (guide, map, the team) is for the caller to wait for. */
export async function signIn(page: Page, server: Server, phone: string): Promise<void> {
  await page.goto(`${server.url}/login`)
  await input(page, '请输入验证码').fill(await requestCode(page, server, phone))
  await button(page, '登录').click()
}

/** A team's invitation (pre/register) asks the signed-in person: they join it with 加入, and land on its map. */
export async function acceptInvitation(page: Page, team?: string): Promise<void> {
  const dialog = page.locator('.invite-dialog')
  await dialog.getByText(team ? `「${team}」` : '邀请你加入').waitFor()
  await dialog.locator('.invite-dialog__accept').click()
  await page.waitForURL(/\/map$/)
}

/** Asks for a code on /login, signs in with it, and for a new user creates the own map and sets the nickname (and closes the trial welcome unless kept). */
export async function signUp(page: Page, server: Server, phone: string, nickname: string, opts: { keepWelcome?: boolean } = {}): Promise<void> {
  await signIn(page, server, phone)
  await page.waitForURL(/\/guide$/)
  await button(page, '创建我的地图').click()
  await page.waitForURL(/\/guide\/init$/)
  await input(page, '请输入昵称').fill(nickname)
  await button(page, '完成').click()
  await page.waitForURL(/\/map$/)
  if (!opts.keepWelcome) await closeTrialWelcome(page)
}

/** A new map starts on the trial, and the map greets its administrator once: closes that greeting. */
export async function closeTrialWelcome(page: Page): Promise<void> {
  await page.getByText('欢迎试用团队地图').waitFor()
  await page.locator('.vip-welcome .nut-dialog-close').click()
  await page.getByText('欢迎试用团队地图').waitFor({ state: 'hidden' })
}

export interface ApiAuth {
  userid: number
  token: string
  groupid?: number
}

/** Calls the API from the test, outside the UI (setting data up, or a forged call). */
export async function apiCall(server: Server, path: string, body: Record<string, unknown>, auth?: ApiAuth) {
  const res = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ header: { userid: auth?.userid ?? '', groupid: auth?.groupid ?? '', token: auth?.token ?? '', device: 'app_h5', os: 'test' }, ...body }),
  })
  return (await res.json()) as { header: { errcode: number; errmsg: string }; data: any }
}

/** apiCall for a call that must work: its data, or a failure naming the call and the server's message. */
export async function apiOk(server: Server, path: string, body: Record<string, unknown>, auth?: ApiAuth) {
  const res = await apiCall(server, path, body, auth)
  if (res.header.errcode !== 0) throw new Error(`${path}: ${res.header.errmsg}`)
  return res.data
}

/** Another session of a user, signed in through the API once the test server's 1 s code cooldown passed. */
export async function apiSignIn(server: Server, phone: string): Promise<Required<ApiAuth>> {
  await new Promise((r) => setTimeout(r, 1100))
  const sent = await apiCall(server, '/api/system/send/code', { phone })
  if (sent.header.errcode !== 0) throw new Error(`send/code for ${phone}: ${sent.header.errmsg}`)
  const login = await apiCall(server, '/api/user/login', { phone, code: await server.codeFor(phone) })
  if (login.header.errcode !== 0) throw new Error(`login for ${phone}: ${login.header.errmsg}`)
  return { userid: login.data.user.id, token: login.data.user.token, groupid: login.data.user.select_groupid }
}
