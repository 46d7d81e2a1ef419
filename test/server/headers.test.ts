/**
 * Security headers: the app's pages carry a Content-Security-Policy made from the build's
 * index.html (no framing by other sites, scripts only from the app and its own inline script,
 * images from the app and the build's map tiles), every answer nosniff and a strict referrer
 * policy, and API answers, errors included, are never cached.
 */
import { createHash } from 'node:crypto'
import { mkdtempSync, mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { appContentSecurityPolicy, tileSource } from '../../server/src/csp'
import { buildApp } from '../../server/src/app'
import { readServerConfig } from '../../server/src/config'
import { migrateToLatest } from '../../server/src/db/migrations'
import { registerStatic } from '../../server/src/static'
import { makeTestApp, makeTestDatabase, recordingSms, testClock, type TestApp } from './helpers'

const ROOT_FONT = '!function(n){n.document.documentElement.style.fontSize="20px"}(window);'
const page = (opts: { engine?: string; tiles?: string; script?: string } = {}) =>
  '<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><title>团队地图</title>' +
  (opts.engine !== undefined ? `<meta name="teammap-map-engine" content="${opts.engine}">` : '') +
  (opts.tiles !== undefined ? `<meta name="teammap-map-tiles" content="${opts.tiles}">` : '') +
  `<script>${opts.script ?? ROOT_FONT}</script><script defer="defer" src="/js/app.1234.js"></script></head>` +
  '<body><div id="app"></div></body></html>'
const OSM_PAGE = page({ engine: 'leaflet', tiles: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png' })

/** The directives of a policy by name, each with its sources. */
function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .map(([name, ...sources]) => [name, sources]),
  )
}
const sha256 = (s: string) => `'sha256-${createHash('sha256').update(s).digest('base64')}'`

let t: TestApp
let dir: string
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'teammap-headers-'))
  writeFileSync(join(dir, 'index.html'), OSM_PAGE)
  mkdirSync(join(dir, 'js'))
  writeFileSync(join(dir, 'js', 'app.1234.js'), 'console.log(1)')
  t = await makeTestApp()
  await registerStatic(t.app, dir)
})
afterEach(async () => {
  await t.close()
  rmSync(dir, { recursive: true, force: true })
})

const get = (url: string) => t.app.inject({ method: 'GET', url })

describe("the app's pages", () => {
  it.each(['/', '/login', '/map', '/share/view?id=abc', '/index.html'])('should forbid other sites to frame %s', async (url) => {
    const res = await get(url)
    expect(res.statusCode).toBe(200)
    expect(directives(res.headers['content-security-policy'] as string).get('frame-ancestors')).toEqual(["'self'"])
  })

  it("should allow scripts from the app and the page's own inline script only", async () => {
    const csp = directives((await get('/share/view')).headers['content-security-policy'] as string)
    expect(csp.get('script-src')).toEqual(["'self'", sha256(ROOT_FONT)])
    expect(csp.get('default-src')).toEqual(["'self'"])
    expect(csp.get('object-src')).toEqual(["'none'"])
    expect(csp.get('base-uri')).toEqual(["'self'"])
  })

  it('should allow images from the app, data:, blob:, the build tile host and the other tiles the user may choose', async () => {
    const csp = directives((await get('/map')).headers['content-security-policy'] as string)
    expect(csp.get('img-src')).toEqual(["'self'", 'data:', 'blob:', 'https://tile.openstreetmap.org', 'https://*.is.autonavi.com'])
    expect(csp.get('connect-src')).toEqual(["'self'", 'blob:', 'data:'])
    expect(csp.get('worker-src')).toEqual(["'self'", 'blob:'])
    // the installable app: its service worker and web app manifest come from the app itself
    expect(csp.get('manifest-src')).toEqual(["'self'"])
    // the /web page frames this server's pages only, unless the operator allows other hosts (WEB_FRAME_HOSTS)
    expect(csp.get('frame-src')).toEqual(["'self'"])
  })

  it("should follow a new build's index.html", async () => {
    writeFileSync(join(dir, 'index.html'), page({ engine: 'leaflet', tiles: 'https://{s}.tiles.example.cn/{z}/{x}/{y}.png', script: 'var x=1' }))
    utimesSync(join(dir, 'index.html'), new Date(), new Date(Date.now() + 5000))
    const csp = directives((await get('/map')).headers['content-security-policy'] as string)
    expect(csp.get('script-src')).toEqual(["'self'", sha256('var x=1')])
    expect(csp.get('img-src')).toContain('https://*.tiles.example.cn')
    expect(csp.get('img-src')).not.toContain('https://tile.openstreetmap.org')
  })

  it('should send nosniff and a strict referrer policy with pages and files', async () => {
    for (const url of ['/map', '/js/app.1234.js']) {
      const res = await get(url)
      expect(res.headers['x-content-type-options']).toBe('nosniff')
      expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin')
    }
  })
})

describe('appContentSecurityPolicy', () => {
  it("should admit AMap's hosts only in a build with an AMap key", () => {
    const amap = directives(appContentSecurityPolicy(page({ engine: 'amap', tiles: '' })))
    expect(amap.get('script-src')).toContain('https://*.amap.com')
    expect(amap.get('img-src')).toEqual(expect.arrayContaining(['https://*.amap.com', 'https://*.autonavi.com']))
    expect(amap.get('connect-src')).toContain('https://*.amap.com')
    const leaflet = directives(appContentSecurityPolicy(OSM_PAGE))
    expect([...leaflet.values()].flat().join(' ')).not.toContain('amap')
    // The keyless map's 底图来源 choice: AMap's tile hosts for images, nothing else of AMap's.
    expect(leaflet.get('img-src')).toContain('https://*.is.autonavi.com')
    expect(leaflet.get('script-src')!.join(' ')).not.toContain('autonavi')
    expect(leaflet.get('connect-src')!.join(' ')).not.toContain('autonavi')
  })

  it('should admit no other image host for a build without map metas', () => {
    expect(directives(appContentSecurityPolicy(page())).get('img-src')).toEqual(["'self'", 'data:', 'blob:'])
  })

  it('should hash every inline script, not those loaded by src', () => {
    const html = '<script>a()</script><script src="/x.js"></script><script type="text/javascript">b()</script>'
    expect(directives(appContentSecurityPolicy(html)).get('script-src')).toEqual(["'self'", sha256('a()'), sha256('b()')])
  })
})

describe('tileSource', () => {
  it.each([
    ['https://tile.openstreetmap.org/{z}/{x}/{y}.png', 'https://tile.openstreetmap.org'],
    ['https://{s}.tile.example.cn:8443/{z}/{x}/{y}.png?key=1&amp;v=2', 'https://*.tile.example.cn:8443'],
    ['http://TILES.local/{z}/{x}/{y}.png', 'http://tiles.local'],
    ['//maps.example.com/{z}/{x}/{y}.png', 'maps.example.com'],
    ['/tiles/{z}/{x}/{y}.png', null],
    ['https://webrd0{s}.is.autonavi.com/appmaptile?x={x}&y={y}&z={z}', 'https://*.is.autonavi.com'],
    ['https://tiles.{s}.example.cn/{z}/{x}/{y}.png', 'https:'],
    ['https://evil.cn; script-src *', null],
  ])('%s -> %s', (template, source) => {
    expect(tileSource(template)).toBe(source)
  })
})

describe('API answers', () => {
  const noStore = (res: { headers: Record<string, unknown> }) => {
    expect(res.headers['cache-control']).toBe('no-store')
    expect(res.headers['x-content-type-options']).toBe('nosniff')
    expect(res.headers['content-security-policy']).toBeUndefined()
  }
  const post = (url: string, payload: string | object) =>
    t.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload: typeof payload === 'string' ? payload : JSON.stringify(payload) })

  it('should never be cached: a login, the user info, a member list', async () => {
    const { auth } = await t.login('13800138000')
    const header = { userid: auth.userid, groupid: '', token: auth.token, device: 'app_h5', os: 'android' }
    await t.call('/api/system/send/code', { phone: '13800138001' })
    noStore(await post('/api/user/login', { phone: '13800138001', code: t.sms.lastCode('13800138001'), channel: 'app_h5', header }))
    noStore(await post('/api/user/getinfo', { header }))
    const created = await post('/api/group/create', { header })
    noStore(created)
    const groupid = created.json().data.user.select_groupid
    const members = await post('/api/group/get/joins', { header: { ...header, groupid } })
    expect(members.body).toContain('13800138000')
    expect(members.statusCode).toBe(200)
    noStore(members)
  })

  it('should never be cached when it is an error', async () => {
    const cases = [
      await post('/api/user/getinfo', { header: { userid: 1, groupid: '', token: 'not-a-token', device: 'app_h5', os: 'android' } }), // 401
      await post('/api/unknown', {}), // 404
      await get('/api/unknown'), // 404, not index.html
      await post('/api/user/login', '{not json'), // 400
      await post('/api/user/login', { phone: 'x', code: '1', header: {} }), // business error or validation
    ]
    expect(cases.map((r) => r.statusCode)).toEqual([401, 404, 404, 400, expect.any(Number)])
    for (const res of cases) noStore(res)
  })
})

describe('/web frames and HSTS (settings of the operator)', () => {
  it('frames only the hosts WEB_FRAME_HOSTS allows', async () => {
    const allowed = await makeTestApp()
    try {
      await registerStatic(allowed.app, dir, {
        frameHosts: readServerConfig({ WEB_FRAME_HOSTS: 'docs.example.com, *.corp.example.cn ,http://intranet.example.com:8080,bad host' } as unknown as NodeJS.ProcessEnv).webFrameHosts,
      })
      const csp = directives((await allowed.app.inject({ method: 'GET', url: '/web?url=https://docs.example.com/a' })).headers['content-security-policy'] as string)
      expect(csp.get('frame-src')).toEqual(["'self'", 'https://docs.example.com', 'https://*.corp.example.cn', 'http://intranet.example.com:8080'])
    } finally {
      await allowed.close()
    }
    expect(readServerConfig({ WEB_FRAME_HOSTS: 'bad host' } as unknown as NodeJS.ProcessEnv).ignored).toEqual([expect.stringContaining('WEB_FRAME_HOSTS: bad host ignored')])
  })

  it('sends Strict-Transport-Security on HTTPS answers when HSTS_MAX_AGE is set, never over plain HTTP', async () => {
    const maxAge = readServerConfig({ HSTS_MAX_AGE: '31536000' } as unknown as NodeJS.ProcessEnv).hstsMaxAge
    expect(maxAge).toBe(31536000)
    const { db, drop } = await makeTestDatabase()
    await migrateToLatest(db)
    const app = buildApp({ db, clock: testClock(), sms: recordingSms(), hstsMaxAge: maxAge, trustProxy: true })
    try {
      const over = (proto: string) => app.inject({ method: 'POST', url: '/api/system/get/config', headers: { 'x-forwarded-proto': proto }, payload: {} })
      expect((await over('https')).headers['strict-transport-security']).toBe('max-age=31536000')
      expect((await over('http')).headers['strict-transport-security']).toBeUndefined()
    } finally {
      await app.close()
      await drop()
    }
    // Unset (and on the test app): none, whatever the protocol.
    expect(readServerConfig({} as NodeJS.ProcessEnv).hstsMaxAge).toBeUndefined()
    expect((await t.app.inject({ method: 'POST', url: '/api/system/get/config', headers: { 'x-forwarded-proto': 'https' }, payload: {} })).headers['strict-transport-security']).toBeUndefined()
  })
})
