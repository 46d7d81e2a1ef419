/**
 * Size budgets of DESIGN 7: the weapp main package and each subpackage, and the gzip JavaScript
 * that H5 loads to show /login and /map (measured in Chromium: every JS file the page requested).
 */
import fs from 'node:fs'
import http from 'node:http'
import path from 'node:path'
import zlib from 'node:zlib'
import type { AddressInfo } from 'node:net'
import { encryptJson } from '../src/domain/secure'
import { assertStayedOnMachine, launchBrowser, mobileContext } from '../test/e2e/harness'
import { emit } from './emit'

const ROOT = path.resolve(__dirname, '..')
const KB = 1024

function walk(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]))
}

export function weappSizes(): void {
  const dist = path.join(ROOT, 'dist/weapp')
  const app = JSON.parse(fs.readFileSync(path.join(dist, 'app.json'), 'utf8')) as { subPackages?: { root: string }[] }
  const files = walk(dist).filter((f) => !f.endsWith('.LICENSE.txt'))
  const size = (fs_: string[]) => fs_.reduce((s, f) => s + fs.statSync(f).size, 0)
  const roots = (app.subPackages ?? []).map((s) => s.root)
  const inRoot = (f: string, r: string) => f.startsWith(path.join(dist, r) + path.sep)
  emit('weapp.main_package_kb', Math.round(size(files.filter((f) => !roots.some((r) => inRoot(f, r)))) / KB), 'KB', 1536)
  for (const r of roots) emit(`weapp.subpackage_kb.${r}`, Math.round(size(files.filter((f) => inRoot(f, r))) / KB), 'KB', 2048)
  emit('weapp.total_kb', Math.round(size(files) / KB), 'KB', 30 * 1024)
}

/** Serves dist/h5 with the SPA fallback, like the real server, without the API. */
function serveH5(): Promise<{ url: string; close: () => void }> {
  const dist = path.join(ROOT, 'dist/h5')
  const server = http.createServer((req, res) => {
    const p = decodeURIComponent((req.url ?? '/').split('?')[0])
    let file = path.join(dist, p)
    if (!file.startsWith(dist) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) file = path.join(dist, 'index.html')
    const type = file.endsWith('.js') ? 'application/javascript' : file.endsWith('.css') ? 'text/css' : 'text/html'
    res.writeHead(200, { 'content-type': type })
    fs.createReadStream(file).pipe(res)
  })
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() })))
}

export async function h5Sizes(): Promise<void> {
  const dist = path.join(ROOT, 'dist/h5')
  const { url, close } = await serveH5()
  const { browser } = await launchBrowser()
  try {
    const signedIn = encryptJson({ user: { id: 1, token: 'bench', select_groupid: 1, select_groupname: '基准', nickname: '基准' }, is_admin: true, admin_vip_expired: false })
    for (const [route, budget, selector] of [
      ['/login', 200, 'input'],
      ['/map', 300, '[data-testid=map-canvas]'],
    ] as const) {
      const context = await mobileContext(browser)
      await context.route('**/api/**', (r) => r.fulfill({ status: 200, contentType: 'application/json', body: '{"header":{"errcode":0,"errmsg":""},"data":null}' }))
      if (route === '/map') await context.addInitScript((v) => window.localStorage.setItem('user_info', JSON.stringify({ data: v })), signedIn) // Taro's H5 storage format
      const page = await context.newPage()
      const scripts = new Set<string>()
      page.on('request', (r) => {
        if (r.resourceType() === 'script') scripts.add(new URL(r.url()).pathname)
      })
      await page.goto(url + route)
      await page.locator(selector).first().waitFor({ timeout: 30000 })
      const gz = [...scripts].reduce((s, p) => s + zlib.gzipSync(fs.readFileSync(path.join(dist, p)), { level: 9 }).length, 0)
      if (process.env.BENCH_VERBOSE) console.error(route, [...scripts].map((p) => `${p} ${Math.round(zlib.gzipSync(fs.readFileSync(path.join(dist, p)), { level: 9 }).length / KB)}KB`).join(', '))
      assertStayedOnMachine()
      emit(`h5.js_gzip_kb${route.replace('/', '.')}`, Math.round(gz / KB), 'KB', budget)
      await context.close()
    }
  } finally {
    await browser.close()
    close()
  }
}
