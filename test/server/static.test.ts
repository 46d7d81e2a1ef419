/** The H5 build served beside the API, with index.html for the app's browser-mode routes. */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ErrCode } from '../../types/api'
import { MSG } from '../../src/domain/messages'
import { registerStatic } from '../../server/src/static'
import { H5_BUILDING_MSG } from '../../src/domain/systemMessages'
import { makeTestApp, type TestApp } from './helpers'

const INDEX = '<!doctype html><html><body><div id="app"></div></body></html>'

let t: TestApp
let dir: string
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'teammap-static-'))
  writeFileSync(join(dir, 'index.html'), INDEX)
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

describe('static H5 build', () => {
  it.each(['/', '/map', '/share/view?id=x', '/guide/init', '/redirect/map'])('should serve index.html for %s', async (url) => {
    const res = await get(url)
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toMatch(/text\/html/)
    expect(res.body).toBe(INDEX)
  })

  it("should put a page's og: tags in its head, with the address the request came to", async () => {
    const tagged = await makeTestApp()
    await registerStatic(tagged.app, dir, {
      pageTags: async (path, query, origin) => (path === '/share/view' ? { title: `分享${query.get('id')}`, description: '地图分享', image: `${origin}/api/share/card/x.png` } : null),
    })
    const res = await tagged.app.inject({ method: 'GET', url: '/share/view?id=7', headers: { host: 'map.example.cn' } })
    expect(res.headers['content-type']).toMatch(/text\/html/)
    expect(res.body).toContain('<meta property="og:title" content="分享7">')
    expect(res.body).toContain('<meta property="og:image" content="http://map.example.cn/api/share/card/x.png">')
    expect((await tagged.app.inject({ method: 'GET', url: '/map' })).body).toBe(INDEX)
    await tagged.close()
  })

  it('should serve files of the build as they are', async () => {
    const res = await get('/js/app.1234.js')
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toMatch(/javascript/)
    expect(res.body).toBe('console.log(1)')
  })

  it('should serve the service worker so that the browser always asks for a new one, as JavaScript, at the root', async () => {
    writeFileSync(join(dir, 'sw.js'), 'self.addEventListener("fetch", () => {})')
    const res = await get('/sw.js')
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toMatch(/^(application|text)\/javascript/)
    expect(res.headers['cache-control']).toBe('no-cache')
    expect(res.body).toContain('addEventListener')
    // other files keep the usual revalidation
    expect((await get('/js/app.1234.js')).headers['cache-control']).not.toBe('no-cache')
  })

  it('should serve the web app manifest as application/manifest+json', async () => {
    writeFileSync(join(dir, 'manifest.webmanifest'), '{"name":"团队地图"}')
    const res = await get('/manifest.webmanifest')
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toMatch(/^application\/manifest\+json/)
    expect(res.json()).toEqual({ name: '团队地图' })
  })

  it('should never serve a file outside the build folder', async () => {
    for (const url of ['/../package.json', '/%2e%2e/package.json', '/js/../../package.json']) {
      const res = await get(url)
      expect(res.body).not.toContain('"name"')
    }
  })

  it('should answer unknown /api paths with 404 JSON, not index.html', async () => {
    for (const res of [await get('/api/unknown'), await t.app.inject({ method: 'POST', url: '/api/unknown', payload: {} })]) {
      expect(res.statusCode).toBe(404)
      expect(res.json()).toEqual({ header: { errcode: ErrCode.NOT_FOUND, errmsg: MSG.notFound }, data: null })
    }
  })

  it('should still answer the API', async () => {
    const res = await t.call('/api/system/get/config', { no_check_permission: true })
    expect(res.errcode).toBe(0)
  })

  it('should answer 404 JSON for pages when there is no build yet', async () => {
    rmSync(join(dir, 'index.html'))
    const res = await get('/map')
    expect(res.statusCode).toBe(404)
    expect(res.json().header.errcode).toBe(ErrCode.NOT_FOUND)
  })
})

describe('while `npm start` is still building the H5 app', () => {
  let building: boolean
  let b: TestApp
  let empty: string
  beforeEach(async () => {
    // No build yet: the folder the build will write is empty.
    empty = mkdtempSync(join(tmpdir(), 'teammap-building-'))
    building = true
    b = await makeTestApp()
    await registerStatic(b.app, empty, { building: () => building })
  })
  afterEach(async () => {
    await b.close()
    rmSync(empty, { recursive: true, force: true })
  })

  it.each(['/', '/map', '/login?redirect=%2Fmap', '/js/app.1234.js'])('should answer the self-refreshing building page for %s', async (url) => {
    const res = await b.app.inject({ method: 'GET', url })
    expect(res.statusCode).toBe(503)
    expect(res.headers['content-type']).toMatch(/^text\/html; charset=utf-8/)
    expect(res.headers['cache-control']).toBe('no-store')
    expect(res.headers['retry-after']).toBe('5')
    expect(res.body).toContain(H5_BUILDING_MSG.title)
    expect(res.body).toMatch(/<meta http-equiv="refresh" content="5">/)
    // Self-contained: no script at all, nothing loaded from anywhere.
    expect(res.body).not.toMatch(/<script|src=|href=/i)
    const csp = String(res.headers['content-security-policy'])
    expect(csp).toContain("default-src 'none'")
    expect(csp).toContain("frame-ancestors 'self'")
    expect(csp).not.toMatch(/script-src|unsafe-inline/)
  })

  it('should answer the API already', async () => {
    expect((await b.call('/api/system/get/config', { no_check_permission: true })).errcode).toBe(0)
    expect((await b.app.inject({ method: 'GET', url: '/api/unknown' })).statusCode).toBe(404)
  })

  it('should serve the app once the build is done', async () => {
    writeFileSync(join(empty, 'index.html'), INDEX)
    building = false
    const res = await b.app.inject({ method: 'GET', url: '/map' })
    expect(res.statusCode).toBe(200)
    expect(res.body).toBe(INDEX)
    expect(res.headers['content-security-policy']).toContain("script-src 'self'")
  })
})
