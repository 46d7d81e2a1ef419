/** The H5 build served beside the API, with index.html for the app's browser-mode routes. */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ErrCode } from '../../types/api'
import { MSG } from '../../src/domain/messages'
import { registerStatic } from '../../server/src/static'
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

  it('should serve files of the build as they are', async () => {
    const res = await get('/js/app.1234.js')
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toMatch(/javascript/)
    expect(res.body).toBe('console.log(1)')
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
