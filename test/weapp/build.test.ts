/**
 * Checks the WeChat mini-program build without WeChat DevTools (which has no Linux build):
 * the static shape of dist/weapp, package sizes against WeChat's limits and DESIGN 7, and the
 * built JavaScript running in Node with fake App/Page/wx globals.
 */
import { execFileSync, execSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import vm from 'node:vm'
import { MAX_VISIBLE_POINTS } from '../../src/domain/constants'
import { MSG } from '../../src/domain/messages'
import { PRIVACY_MSG } from '../../src/domain/privacy'
import { VIP_MSG } from '../../src/domain/vipMessages'
import { PRINT_MSG } from '../../src/domain/printMessages'
import { encryptJson } from '../../src/domain/secure'
import { buildUser } from '../support/fakes'
import type { UserInfo } from '../../types/entities'
import { buildLayer, buildMarker } from '../support/mapBuilders'
import { MAIN_PACKAGE_PAGES } from '../../src/router/routes'
import { selectorParts, wxssReferences, wxssSelectors } from './wxss'

const root = path.resolve(__dirname, '../..')
const dist = path.join(root, 'dist/weapp')
const KB = 1024

interface AppJson {
  pages: string[]
  subPackages?: { root: string; pages: string[] }[]
  usingComponents?: Record<string, string>
  tabBar?: { list: { pagePath: string; iconPath?: string; selectedIconPath?: string }[] }
}

function walk(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]))
}

/** A file of the build by its path inside the package: `pages/map/index.wxml`. */
const rel = (file: string) => path.relative(dist, file).split(path.sep).join('/')

/** The package a file belongs to: a subpackage root, or '' for the main package. */
function packageOf(relPath: string): string {
  return (app.subPackages ?? []).map((s) => s.root.replace(/\/$/, '')).find((r) => relPath.startsWith(`${r}/`)) ?? ''
}

/**
 * Where a path written in a file of the build points, inside the package, or why not: a path may
 * leave its own subpackage only for the main package (WeChat loads nothing across subpackages).
 */
function resolveInPackage(from: string, target: string): { path: string } | { error: string } {
  const abs = target.startsWith('/') ? path.join(dist, target) : path.resolve(path.dirname(from), target)
  const inside = rel(abs)
  if (inside.startsWith('..')) return { error: `${rel(from)} -> ${target}: outside the package` }
  const own = packageOf(rel(from))
  const theirs = packageOf(inside)
  if (theirs !== '' && theirs !== own) return { error: `${rel(from)} -> ${target}: in subpackage ${theirs}` }
  if (!fs.existsSync(abs)) return { error: `${rel(from)} -> ${target}: missing` }
  return { path: abs }
}

const json = (file: string) => JSON.parse(fs.readFileSync(file, 'utf8'))
const jsonFiles = () => walk(dist).filter((f) => f.endsWith('.json') && !f.endsWith('project.config.json'))

/** Every custom component of the build: its path without extension, from every usingComponents. */
function componentPaths(): Map<string, string[]> {
  const found = new Map<string, string[]>()
  for (const file of jsonFiles()) {
    for (const [tag, target] of Object.entries<string>(json(file).usingComponents ?? {})) {
      if (target.startsWith('plugin://')) continue
      const base = target.startsWith('/') ? path.join(dist, target) : path.resolve(path.dirname(file), target)
      found.set(base, [...(found.get(base) ?? []), tag])
    }
  }
  return found
}

/** `fsFile`: the phone's user file system kept between runs (a second run is a restart of the app). */
function runPage(
  route: string,
  storage: Record<string, string> = {},
  tap = '',
  responses: Record<string, unknown> = {},
  waitMs = 300,
  fsFile = '',
  inputs: { placeholder: string; value: string }[] = [],
  taps: { text: string; events?: string[] }[] = [],
) {
  const answers = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mini-')), 'responses.json')
  fs.writeFileSync(answers, JSON.stringify(responses))
  const out = execFileSync(process.execPath, [path.join(__dirname, 'mini-runtime.cjs'), dist, route, JSON.stringify(storage), tap, `@${answers}`], {
    encoding: 'utf8',
    env: { ...process.env, MINI_WAIT_MS: String(waitMs), MINI_FS: fsFile, MINI_INPUT: JSON.stringify(inputs), MINI_TAPS: JSON.stringify(taps) },
    maxBuffer: 256 * 1024 * 1024,
  })
  return JSON.parse(out) as {
    rendered: string
    navigations: { kind: string; url: string }[]
    requests: { url: string; data?: Record<string, unknown>; answered: boolean }[]
    tapped: string | null
    mapCalls: { kind: string; markers?: { id: number; iconPath: string }[]; markerIds?: number[]; clear?: boolean }[]
    payments: { timeStamp: string; nonceStr: string; package: string; signType: string; paySign: string }[]
    sockets: { url: string; sent: { type: string; [k: string]: unknown }[] }[]
    files: string[]
    storageKeys: string[]
    forward: { title: string; path: string; imageUrl?: string } | null
    timeline: { title: string; query: string; imageUrl?: string } | null
    shareMenus: ({ show: string[] } | { hide: string[] })[]
    media: { api: string; scope?: string; url?: string; filePath?: string; fileType?: string; showMenu?: boolean; urls?: string[] }[]
    privacy: { asks: number; choices: { event: string; buttonId?: string }[]; contractsOpened: number; locations: string[] }
  }
}

jest.setTimeout(180_000)

let app: AppJson

beforeAll(() => {
  if (!fs.existsSync(path.join(dist, 'app.json'))) execSync('npx taro build --type weapp', { cwd: root, stdio: 'inherit' })
  app = JSON.parse(fs.readFileSync(path.join(dist, 'app.json'), 'utf8'))
})

describe('dist/weapp (static checks)', () => {
  it('puts only the start-up pages (map, login, share view) in the main package, map first', () => {
    expect(app.pages[0]).toBe('pages/map/index')
    expect(app.pages).toEqual(expect.arrayContaining(['pages/map/index', 'pages/login/index']))
    for (const p of app.pages) expect(MAIN_PACKAGE_PAGES).toContain(p)
  })

  it('puts every other page of this build in a subpackage', () => {
    const subPages = (app.subPackages ?? []).flatMap((s) => s.pages.map((p) => `${s.root}/${p}`))
    expect(subPages).toEqual(expect.arrayContaining(['pages/guide/index', 'pages/guide/init/index', 'pages/home/index', 'pages/home/logoff/index', 'pages/warning/index', 'pages/not-found/index']))
  })

  it("carries none of the H5 app's service worker: no worker, no web app manifest, no registration", () => {
    const files = walk(dist).map(rel)
    expect(files.filter((f) => /(^|\/)(sw\.js|manifest\.webmanifest)$|^pwa\//.test(f))).toEqual([])
    const scripts = files.filter((f) => f.endsWith('.js')).map((f) => ({ f, code: fs.readFileSync(path.join(dist, f), 'utf8') }))
    expect(scripts.filter(({ code }) => code.includes('__TEAMMAP_BUILD__') || /serviceWorker\.register\(/.test(code)).map(({ f }) => f)).toEqual([])
  })

  it('has the .js, .json, .wxml and .wxss of every page', () => {
    const all = [...app.pages, ...(app.subPackages ?? []).flatMap((s) => s.pages.map((p) => `${s.root}/${p}`))]
    for (const page of all) {
      for (const ext of ['.js', '.json', '.wxml', '.wxss']) {
        expect(fs.existsSync(path.join(dist, page + ext)) ? page + ext : `missing ${page + ext}`).toBe(page + ext)
      }
    }
  })

  it('resolves every usingComponents entry (app.json too) to a component: .js, .json with component: true, .wxml', () => {
    // WeChat needs those three; a component's .wxss is optional (Taro's own `comp` has none).
    const components = componentPaths()
    expect(components.size).toBeGreaterThan(0)
    for (const base of components.keys()) {
      const name = rel(base)
      for (const ext of ['.js', '.json', '.wxml']) expect(fs.existsSync(base + ext) ? name + ext : `missing ${name + ext}`).toBe(name + ext)
      expect({ name, component: json(base + '.json').component }).toEqual({ name, component: true })
    }
  })

  it('has JavaScript that parses', () => {
    for (const file of walk(dist).filter((f) => f.endsWith('.js'))) {
      expect(() => new vm.Script(fs.readFileSync(file, 'utf8'), { filename: file })).not.toThrow()
    }
  })

  it('reads WXSS selectors as WeChat sees them (the checks below rely on it)', () => {
    expect(selectorParts('.notice-bar.nut-notify *')).toMatchObject({ universal: true, attribute: false, tags: [] })
    expect(selectorParts('[dir=rtl] .nut-searchbar-left > div:last-child')).toMatchObject({ universal: false, attribute: true, tags: ['div'] })
    expect(selectorParts('.a [class*="nut-"]')).toMatchObject({ attribute: true, tags: [] })
    expect(selectorParts('.nut-avatar-group .nut-avatar:not(:first-of-type)')).toMatchObject({ attribute: false, id: false, tags: [] })
    expect(selectorParts('page')).toMatchObject({ tags: ['page'] })
    expect(selectorParts('.x:not(view)::after')).toMatchObject({ tags: ['view'] })
    expect(selectorParts('#map .b:nth-child(2n+1)')).toMatchObject({ id: true, tags: [] })
    expect(selectorParts('.w-1\\/2 .c')).toMatchObject({ tags: [], universal: false })
  })

  it('has no WXSS selector WeChat does not take: no universal *, no attribute selectors, no custom component by tag, only classes in components', () => {
    // WeChat's WXSS compiler stops at `*`; its custom-component rules exclude attribute selectors
    // in components and in the pages that use them (every Taro page uses `comp`), and a custom
    // component cannot be styled by its tag; a component's own wxss may use classes only (WeChat
    // ignores the whole file otherwise). NutUI's `[dir=rtl]` rules are dropped for weapp by
    // config/postcss-weapp-rtl.js.
    const components = componentPaths()
    const customTags = new Set([...components.values()].flat())
    const componentWxss = new Set([...components.keys()].map((b) => b + '.wxss'))
    const sheets = walk(dist).filter((f) => f.endsWith('.wxss'))
    expect(sheets.length).toBeGreaterThan(0)
    const refused: string[] = []
    for (const file of sheets) {
      const inComponent = componentWxss.has(file)
      for (const { selector, parts } of wxssSelectors(fs.readFileSync(file, 'utf8'))) {
        const why = [
          parts.universal && 'universal *',
          parts.attribute && 'attribute selector',
          parts.tags.some((t) => customTags.has(t)) && 'custom component by tag',
          inComponent && parts.id && 'id in a component',
          inComponent && parts.tags.length > 0 && 'tag in a component',
        ].filter(Boolean)
        if (why.length) refused.push(`${rel(file)}: ${selector} (${why.join(', ')})`)
      }
    }
    expect(refused).toEqual([])
  })

  it('resolves every @import of every WXSS file within its package, and loads no image from a package path in WXSS', () => {
    // WXSS cannot load a package file as a background; Taro inlines small images, and anything
    // else must be an https URL.
    const problems: string[] = []
    for (const file of walk(dist).filter((f) => f.endsWith('.wxss'))) {
      const { imports, urls } = wxssReferences(fs.readFileSync(file, 'utf8'))
      for (const target of imports) {
        const found = resolveInPackage(file, target)
        if ('error' in found) problems.push(found.error)
      }
      for (const url of urls) if (!/^(data:|https:\/\/)/.test(url)) problems.push(`${rel(file)}: url(${url})`)
    }
    expect(problems).toEqual([])
  })

  it('resolves every file a WXML file imports, includes or shows by a fixed path (wxs, templates, images) within its package', () => {
    const problems: string[] = []
    let seen = 0
    for (const file of walk(dist).filter((f) => f.endsWith('.wxml'))) {
      const text = fs.readFileSync(file, 'utf8')
      for (const m of text.matchAll(/<(\w[\w-]*)\b[^>]*?\ssrc\s*=\s*"([^"]*)"/g)) {
        const target = m[2]
        // Data-bound (Taro's images take their src from data), remote and inline sources are not files.
        if (target.includes('{{') || /^(https?:|data:|wxfile:|cloud:)/.test(target)) continue
        seen++
        const found = resolveInPackage(file, target)
        if ('error' in found) problems.push(found.error)
      }
    }
    expect(seen).toBeGreaterThan(0)
    expect(problems).toEqual([])
  })

  it('has every image named in the JSON (tabBar icons: PNG or JPEG, at most 40 KB) and in the JavaScript (map markers) as a file of the package', () => {
    const problems: string[] = []
    for (const item of app.tabBar?.list ?? []) {
      for (const icon of [item.iconPath, item.selectedIconPath].filter((x): x is string => !!x)) {
        const found = resolveInPackage(path.join(dist, 'app.json'), icon.startsWith('/') ? icon : `/${icon}`)
        if ('error' in found) problems.push(found.error)
        else if (!/\.(png|jpe?g)$/i.test(icon) || fs.statSync(found.path).size > 40 * KB) problems.push(`tabBar icon ${icon}: PNG or JPEG up to 40 KB`)
      }
    }
    for (const file of jsonFiles()) {
      for (const m of fs.readFileSync(file, 'utf8').matchAll(/"([^"]+\.(?:png|jpe?g|gif|svg|webp))"/gi)) {
        if (/^(https?:|data:)/.test(m[1])) continue
        const found = resolveInPackage(file, m[1].startsWith('/') ? m[1] : `/${m[1]}`)
        if ('error' in found) problems.push(found.error)
      }
    }
    // Image paths written into the code (the map's marker icons are package files by path).
    let inCode = 0
    for (const file of walk(dist).filter((f) => f.endsWith('.js'))) {
      for (const m of fs.readFileSync(file, 'utf8').matchAll(/["'`](\/[\w./-]+\.(?:png|jpe?g|gif|svg|webp))["'`]/gi)) {
        inCode++
        const found = resolveInPackage(file, m[1])
        if ('error' in found) problems.push(found.error)
      }
    }
    expect(inCode).toBeGreaterThan(0)
    expect(problems).toEqual([])
  })

  it('declares in app.json every location API the bundle calls (requiredPrivateInfos) and the scope each needs (permission), and no other', () => {
    // The APIs requiredPrivateInfos takes, and the scope WeChat asks the user for (none: a picker the user drives).
    const scopeOf: Record<string, string | null> = {
      getLocation: 'scope.userLocation',
      onLocationChange: 'scope.userLocation',
      startLocationUpdate: 'scope.userLocation',
      startLocationUpdateBackground: 'scope.userLocationBackground',
      getFuzzyLocation: 'scope.userFuzzyLocation',
      chooseLocation: null,
      choosePoi: null,
      chooseAddress: null,
    }
    const pattern = new RegExp(`\\.(${Object.keys(scopeOf).join('|')})\\(`, 'g')
    const called = new Set<string>()
    for (const file of walk(dist).filter((f) => f.endsWith('.js'))) for (const m of fs.readFileSync(file, 'utf8').matchAll(pattern)) called.add(m[1])
    // The build does locate the user (the map's 定位, check-ins): the scan must find that call.
    expect(called.has('getLocation')).toBe(true)
    const config = json(path.join(dist, 'app.json')) as { requiredPrivateInfos?: string[]; permission?: Record<string, { desc?: string }> }
    expect([...(config.requiredPrivateInfos ?? [])].sort()).toEqual([...called].sort())
    const scopes = new Set([...called].map((api) => scopeOf[api]).filter((x): x is string => !!x))
    expect(Object.keys(config.permission ?? {}).sort()).toEqual([...scopes].sort())
    for (const scope of scopes) expect(config.permission?.[scope]?.desc?.length).toBeGreaterThan(4)
  })

  it('keeps the main package within 1.5 MB, every subpackage within 2 MB and the whole within 30 MB', () => {
    const size = (files: string[]) => files.reduce((s, f) => s + fs.statSync(f).size, 0)
    const files = walk(dist).filter((f) => !f.endsWith('.LICENSE.txt'))
    const subRoots = (app.subPackages ?? []).map((s) => path.join(dist, s.root) + path.sep)
    const main = files.filter((f) => !subRoots.some((r) => f.startsWith(r)))
    expect(size(main)).toBeLessThanOrEqual(1536 * KB)
    for (const r of subRoots) expect(size(files.filter((f) => f.startsWith(r)))).toBeLessThanOrEqual(2048 * KB)
    expect(size(files)).toBeLessThanOrEqual(30 * 1024 * KB)
  })
})

describe('dist/weapp (running in Node with a fake wx)', () => {
  it('loads the login page and renders its fields', () => {
    const { rendered, navigations } = runPage('pages/login/index')
    for (const text of ['手机号', '请输入手机号', '验证码', '请输入验证码', '获取验证码', '登录']) expect(rendered).toContain(text)
    expect(navigations).toEqual([])
  })

  it('checks the phone number when send-code is tapped, without calling the server', () => {
    const { rendered, requests, tapped } = runPage('pages/login/index', {}, '获取验证码')
    expect(tapped).not.toBeNull()
    expect(rendered).toContain('notice-bar--warning')
    expect(rendered).toContain(MSG.phoneRequired)
    // Only the system config read at launch: no code was asked for.
    expect(requests.map((r) => r.url.replace(/^https?:\/\/[^/]+/, ''))).toEqual(['/api/system/get/config'])
  })

  it('draws /map for a layer of 12,000 markers through the map context, never more than 200 points plus clusters', () => {
    const user = buildUser({ id: 7, nickname: '小王', select_groupid: 3, select_groupname: '外业队' })
    const storage = { user_info: encryptJson({ user, is_admin: true, admin_vip_expired: false }) }
    const layer = buildLayer({ id: 1, name: '网点', type: 1, show: true })
    let s = 7
    const rnd = () => (s = (s * 1103515245 + 12345) >>> 0) / 2 ** 32
    const list = Array.from({ length: 12_000 }, (_, i) => buildMarker({ id: i + 1, layer_id: 1, name: `网点${i}`, points: `${(116.0 + rnd() * 0.8).toFixed(5)},${(39.6 + rnd() * 0.6).toFixed(5)}` }))
    const { rendered, requests, mapCalls } = runPage('pages/map/index', storage, '', { '/api/layer/getlist': [layer], '/api/marker/getlist': { list } }, 1500)
    // Pages of 5000: 5000, 5000, 2000.
    expect(requests.filter((r) => r.url.endsWith('/api/marker/getlist'))).toHaveLength(3)
    // No marker list goes through setData; the context adds and removes by difference.
    expect(rendered).not.toContain('"iconPath"')
    const adds = mapCalls.filter((c) => c.kind === 'addMarkers')
    expect(adds.length).toBeGreaterThan(0)
    expect(adds.every((c) => c.clear === false)).toBe(true)
    // Replaying the calls gives what the map shows after each view change.
    const shown = new Map<number, { id: number; iconPath: string }>()
    for (const c of mapCalls) {
      if (c.kind === 'removeMarkers') for (const id of c.markerIds!) shown.delete(id)
      else for (const m of c.markers!) shown.set(m.id, m)
      expect([...shown.keys()].filter((id) => id > 0).length).toBeLessThanOrEqual(MAX_VISIBLE_POINTS)
    }
    // 12,000 markers at scale 12 cluster: the badges are there.
    expect([...shown.keys()].some((id) => id < 0)).toBe(true)
    // Icons are files of the package.
    for (const icon of new Set([...shown.values()].map((m) => m.iconPath))) expect(fs.existsSync(path.join(dist, icon))).toBe(true)
  })

  it("applies a teammate's new marker pushed over wx.connectSocket to the map scene, without fetching the pages again", () => {
    const user = buildUser({ id: 7, nickname: '小王', select_groupid: 3, select_groupname: '外业队', token: 'tok-7' })
    const storage = { user_info: encryptJson({ user, is_admin: true, admin_vip_expired: false }) }
    const layer = buildLayer({ id: 1, name: '网点', type: 1, show: true })
    const mine = buildMarker({ id: 1, layer_id: 1, name: '一号网点', points: '116.30000,39.90000' })
    const theirs = buildMarker({ id: 2, layer_id: 1, name: '队友新增', points: '116.40000,39.95000', rev: 1 })
    const { rendered, requests, mapCalls, sockets } = runPage(
      'pages/map/index',
      storage,
      '',
      {
        '/api/layer/getlist': [layer],
        '/api/marker/getlist': { list: [mine] },
        '/api/marker/getbyid': [theirs],
        '/api/sync/changes': {
          __sequence: [
            { seq: 5, changes: [], more: false, reload: false },
            { seq: 6, changes: [{ seq: 6, kind: 'marker', id: 2, op: 'upsert', rev: 1, layer_id: 1 }], more: false, reload: false },
          ],
        },
        __socket: { ready: 5, pushes: [{ afterMs: 600, msg: { type: 'seq', seq: 6 } }] },
      },
      1500,
    )
    expect(sockets).toHaveLength(1)
    expect(sockets[0].url).toBe('ws://127.0.0.1:8080/api/sync/socket')
    expect(sockets[0].sent[0]).toEqual({ type: 'hello', token: 'tok-7', userid: 7 })
    // One page of markers at start; the push brings the one marker by id.
    expect(requests.filter((r) => r.url.endsWith('/api/marker/getlist'))).toHaveLength(1)
    expect(requests.filter((r) => r.url.endsWith('/api/marker/getbyid'))).toHaveLength(1)
    const added = mapCalls.filter((c) => c.kind === 'addMarkers').flatMap((c) => c.markers!.map((m) => m.id))
    expect(added).toContain(1)
    expect(added).toContain(2)
    // The page's own data says so too: two markers held, the chip says synced.
    expect(rendered).toContain('视野内 2个点')
    expect(rendered).toContain('已同步')
  })

  it('keeps a copy of the map in USER_DATA_PATH and, started again with the network off, shows it from there', () => {
    const user = buildUser({ id: 7, nickname: '小王', select_groupid: 3, select_groupname: '外业队', token: 'tok-7' })
    const storage = { user_info: encryptJson({ user, is_admin: true, admin_vip_expired: false }) }
    const layer = buildLayer({ id: 1, name: '网点', type: 1, show: true })
    const a = buildMarker({ id: 1, layer_id: 1, name: '一号网点', points: '116.30000,39.90000' })
    const b = buildMarker({ id: 2, layer_id: 1, name: '二号网点', points: '116.40000,39.95000' })
    const phone = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mini-fs-')), 'user-files.json')
    // Online: the map loads, and a moment later its copy is written (one file a key).
    const first = runPage(
      'pages/map/index',
      storage,
      '',
      { '/api/layer/getlist': [layer], '/api/marker/getlist': { list: [a, b] }, '/api/sync/changes': { seq: 5, changes: [], more: false, reload: false }, __socket: { ready: 5 } },
      2500,
      phone,
    )
    const saved = first.files.filter((f) => f.startsWith('wxfile://usr/offline/'))
    expect(saved).toEqual(
      expect.arrayContaining(['wxfile://usr/offline/map~3A7~3A3~3Alayers.json', 'wxfile://usr/offline/map~3A7~3A3~3Amarkers~3A1.json', 'wxfile://usr/offline/map~3A7~3A3~3Asince.json']),
    )
    // Nothing of it in wx.setStorage (10 MB in all, 1 MB a key).
    expect(first.storageKeys.filter((k) => k.startsWith('map'))).toEqual([])
    // Restarted with no network: every request fails, the map shows the two markers and says what it shows.
    const second = runPage('pages/map/index', storage, '', { __network: { connected: false } }, 1500, phone)
    const added = second.mapCalls.filter((c) => c.kind === 'addMarkers').flatMap((c) => c.markers!.map((m) => m.id))
    expect(added).toEqual(expect.arrayContaining([1, 2]))
    expect(second.rendered).toContain('视野内 2个点')
    expect(second.rendered).toContain('地图显示的是本机保存的数据')
    expect(second.rendered).not.toContain(MSG.networkError)
  })

  it('keeps a point saved without network in an outbox file under USER_DATA_PATH and sends it once when the network comes back', () => {
    const user = buildUser({ id: 7, nickname: '小王', select_groupid: 3, select_groupname: '外业队', token: 'tok-7' })
    const storage = { user_info: encryptJson({ user, is_admin: true, admin_vip_expired: false }) }
    const layer = buildLayer({ id: 1, name: '网点', type: 1, show: true })
    const a = buildMarker({ id: 1, layer_id: 1, name: '一号网点', points: '116.30000,39.90000' })
    const phone = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mini-fs-')), 'user-files.json')
    const online = { '/api/layer/getlist': [layer], '/api/marker/getlist': { list: [a] }, '/api/sync/changes': { seq: 5, changes: [], more: false, reload: false }, __socket: { ready: 5 } }
    // Online once: the map keeps its copy (the layers the form needs without network).
    runPage('pages/map/index', storage, '', online, 2500, phone)
    // No network: the user names a new point on the form and saves it; nothing reaches the server, the outbox file keeps it.
    const form = 'pages/addinfo/index?type=0&layer_id=1&points=116.35000,39.92000'
    const name = [{ placeholder: '请输入标注名称', value: '三号网点' }]
    const offline = runPage(form, storage, '保存标注', { ...online, __network: { connected: false } }, 1500, phone, name)
    expect(offline.tapped).not.toBeNull()
    expect(offline.requests.filter((r) => r.url.endsWith('/api/marker/save'))).toEqual([])
    const outboxFile = 'wxfile://usr/offline/outbox~3A7~3A3.json'
    expect(offline.files).toContain(outboxFile)
    const kept = JSON.parse(JSON.parse(fs.readFileSync(phone, 'utf8'))[outboxFile])
    const saved = buildMarker({ id: 3, layer_id: 1, name: '三号网点', points: '116.35000,39.92000' })
    expect(kept).toHaveLength(1)
    expect(kept[0].input).toMatchObject({ name: '三号网点', layer_id: 1, client_id: expect.any(String) })
    // Restarted, still without network: the outbox survives on the phone and the server gets nothing
    // (the app may try once, taking the phone as connected until WeChat answers; that try fails and is kept).
    const still = runPage('pages/map/index', storage, '', { ...online, '/api/marker/save': saved, __network: { connected: false } }, 1500, phone)
    expect(still.requests.filter((r) => r.url.endsWith('/api/marker/save') && r.answered)).toEqual([])
    expect(JSON.parse(JSON.parse(fs.readFileSync(phone, 'utf8'))[outboxFile])).toHaveLength(1)
    // Restarted without network, then the network comes back (wx.onNetworkStatusChange): the server gets the one save with its client id, the outbox empties.
    const back = runPage('pages/map/index', storage, '', { ...online, '/api/marker/save': saved, __network: { connected: false, changes: [{ afterMs: 800, connected: true }] } }, 2500, phone)
    const sent = back.requests.filter((r) => r.url.endsWith('/api/marker/save') && r.answered)
    expect(sent).toHaveLength(1)
    expect(sent[0].data).toMatchObject({ name: '三号网点', layer_id: 1, client_id: kept[0].input.client_id })
    const after = JSON.parse(fs.readFileSync(phone, 'utf8'))[outboxFile]
    expect(after === undefined || JSON.parse(after).length === 0).toBe(true)
  })

  it('pays for a membership on /vip with wx.requestPayment: the login code goes to the server, its signed parameters to WeChat', () => {
    const user = buildUser({ id: 7, select_groupid: 3 })
    const storage = { user_info: encryptJson({ user, is_admin: true, admin_vip_expired: false }) }
    const info = {
      group_id: 3,
      level: 1,
      level_name: '试用版',
      vip_exp: user.vip_exp,
      expired: false,
      custom: false,
      days_left: 5,
      is_admin: true,
      marker_limit: 300,
      join_limit: 5,
      file_rep_size: 307200,
      effective: { marker_limit: 300, join_limit: 5, file_size_limit: 307200 },
      usage: { markers: 12, members: 1, pending: 0, storage_kb: 2048 },
      hidden_markers: 0,
      restore_until: null,
      products: [],
      verifyed: true,
      can_get_trial_bonus: false,
    }
    const order = {
      id: 41,
      order_no: 'VIP20261123000041',
      product_id: 1,
      product_name: 'VIP 1',
      level: 2,
      months: 12,
      price: 8800,
      discount_code: '',
      discount_amount: 0,
      amount: 8800,
      status: 0,
      channel: '',
      created_at: '2026-11-23T00:00:00.000Z',
      expires_at: '2099-01-01T00:00:00.000Z',
      paid_at: null,
      cancelled_at: null,
      vip_exp_after: null,
    }
    const params = { appId: 'wx0123456789abcdef', timeStamp: '1795392000', nonceStr: 'n0nce', package: 'prepay_id=wx2026', signType: 'RSA', paySign: 'c2lnbmF0dXJl' }
    const { rendered, requests, payments } = runPage(
      'pages/vip/index',
      storage,
      '购买',
      {
        '/api/vip/info': info,
        '/api/vip/order/add': order,
        '/api/vip/order/wxpay/create': { order, sandbox: false, params },
      },
      600,
    )
    expect(rendered).toContain('12 / 300')
    expect(rendered).toContain('¥88.00')
    const add = requests.find((r) => r.url.endsWith('/api/vip/order/add')) as { data: Record<string, unknown> } | undefined
    expect(add?.data).toMatchObject({ product_id: 1 })
    expect(add?.data).not.toHaveProperty('price')
    const create = requests.find((r) => r.url.endsWith('/api/vip/order/wxpay/create')) as { data: Record<string, unknown> } | undefined
    expect(create?.data).toMatchObject({ orderid: 41, code: 'wx-login-code' })
    expect(payments).toEqual([{ timeStamp: params.timeStamp, nonceStr: params.nonceStr, package: params.package, signType: 'RSA', paySign: params.paySign }])
    // The user closed the sheet: told so, the order kept for later.
    expect(rendered).toContain(VIP_MSG.payCancelled)
  })

  it('shows a 5,000-row data list with only the rows in view, never one setData of the whole list', () => {
    const user = buildUser({ id: 7, nickname: '小王', select_groupid: 3, select_groupname: '外业队' })
    const storage = { user_info: encryptJson({ user, is_admin: true, admin_vip_expired: false }) }
    const layer = buildLayer({ id: 1, name: '门店', type: 1, marker_count: 5000 })
    const field = { id: 11, layer_id: 1, name: '状态', kind: 'choice', options: ['待拜访', '已拜访'], required: false, sort: 1, rev: 1 }
    const rows = Array.from({ length: 5000 }, (_, i) => ({
      id: i + 1,
      layer_id: 1,
      name: `门店编号${String(i).padStart(4, '0')}`,
      type: 0,
      style: { color: '#165DFF' },
      fields: { 11: i % 2 ? '已拜访' : '待拜访' },
      rev: 1,
      notes_count: 0,
      editor_name: '小王',
      edited_at: '2026-01-01T00:00:00.000Z',
    }))
    const page = { list: rows, total: 5000, matched: 5000, listed_at: '2026-01-01T00:00:00.000Z' }
    const { rendered, requests } = runPage('pages/datalist/index?layer_id=1', storage, '', { '/api/layer/getlist': [layer], '/api/layer/field/getlist': [field], '/api/marker/datalist': page }, 1500)
    expect(requests.some((r) => r.url.endsWith('/api/marker/datalist'))).toBe(true)
    expect(rendered).toContain('共 5,000 条')
    const names = new Set(rendered.match(/门店编号\d{4}/g) ?? [])
    expect(names.has('门店编号0000')).toBe(true)
    expect(names.has('门店编号4999')).toBe(false)
    // A screen's worth plus VirtualList's overscan, not 5,000.
    expect(names.size).toBeGreaterThan(5)
    expect(names.size).toBeLessThan(40)
    // Everything the page ever sent through setData is a small fraction of the rows' own JSON.
    expect(rendered.length).toBeLessThan(JSON.stringify(rows).length / 5)
  })

  it('prints the sheet on /print and saves the picture to the album under scope.writePhotosAlbum, asking once', () => {
    const user = buildUser({ id: 7, select_groupid: 3, modules: [{ id: 'module_map' }, { id: 'module_print' }] as UserInfo['modules'] })
    const storage = { user_info: encryptJson({ user, is_admin: true, admin_vip_expired: false }) }
    const layer = { id: 5, name: '客户', parent_id: 0, type: 1, marker_count: 3, show: true, manager: true, layer_opts: [], sort: 0 }
    const done = { state: 'done', progress: 100, ahead: 0, url: '/api/print/file/job0123456789.png', filename: '客户_2026-12-02.png' }
    const { rendered, requests, media } = runPage(
      'pages/print/index',
      storage,
      '保存图片',
      { '/api/layer/getlist': [layer], '/api/print/start': { job_id: 'job0123456789' }, '/api/print/progress': done, __album: 'ask' },
      900,
    )
    expect(rendered).toContain('保存图片')
    expect(rendered).toContain('导出PDF')
    const starts = requests.filter((r) => r.url.endsWith('/api/print/start')).map((r) => r.data as Record<string, unknown>)
    // The preview first (small), then the print itself.
    expect(starts[0]).toMatchObject({ preview: true, layer_ids: [5] })
    expect(starts.at(-1)).toMatchObject({ format: 'png', layer_ids: [5] })
    expect(starts.at(-1)).not.toHaveProperty('preview')
    expect(media.map((m) => m.api)).toEqual(['getSetting', 'authorize', 'downloadFile', 'saveImageToPhotosAlbum'])
    expect(media[1].scope).toBe('scope.writePhotosAlbum')
    expect(media[2].url).toMatch(/\/api\/print\/file\/job0123456789\.png$/)
    expect(media[3].filePath).toBe('wxfile://tmp/job0123456789.png')
    expect(rendered).toContain(PRINT_MSG.saved)
  })

  it("shows SPEC 8's permission dialog on /print when album access was refused, and saves nothing", () => {
    const user = buildUser({ id: 7, select_groupid: 3, modules: [{ id: 'module_map' }, { id: 'module_print' }] as UserInfo['modules'] })
    const storage = { user_info: encryptJson({ user, is_admin: true, admin_vip_expired: false }) }
    const layer = { id: 5, name: '客户', parent_id: 0, type: 1, marker_count: 3, show: true, manager: true, layer_opts: [], sort: 0 }
    const done = { state: 'done', progress: 100, ahead: 0, url: '/api/print/file/job0123456789.png', filename: '客户_2026-12-02.png' }
    const { rendered, media } = runPage(
      'pages/print/index',
      storage,
      '保存图片',
      { '/api/layer/getlist': [layer], '/api/print/start': { job_id: 'job0123456789' }, '/api/print/progress': done, __album: 'denied' },
      900,
    )
    expect(media.map((m) => m.api)).toEqual(['getSetting'])
    expect(rendered).toContain('权限错误')
    expect(rendered).toContain(PRINT_MSG.albumPermission)
  })

  it('shows on an iPhone the team level, limits and expiry in /vip, with no price, no buy button and no hint to pay elsewhere', () => {
    const user = buildUser({ id: 7, select_groupid: 3 })
    const storage = { user_info: encryptJson({ user, is_admin: true, admin_vip_expired: false }) }
    const info = {
      group_id: 3,
      level: 2,
      level_name: 'VIP 1',
      vip_exp: '2027-03-01T00:00:00.000Z',
      expired: false,
      custom: false,
      days_left: 89,
      is_admin: true,
      marker_limit: 3000,
      join_limit: 20,
      file_rep_size: 3072000,
      effective: { marker_limit: 3000, join_limit: 20, file_size_limit: 3072000 },
      usage: { markers: 12, members: 1, pending: 0, storage_kb: 2048 },
      hidden_markers: 4,
      restore_until: '2027-01-01T00:00:00.000Z',
      products: [],
      verifyed: true,
      can_get_trial_bonus: false,
    }
    const answers = { '/api/vip/info': info }
    const iphone = runPage('pages/vip/index', storage, '', { ...answers, __system: { platform: 'ios', system: 'iOS 17.4', model: 'iPhone 13' } }, 600)
    expect(iphone.rendered).toContain('VIP 1')
    expect(iphone.rendered).toContain('剩余89天')
    expect(iphone.rendered).toContain('12 / 3000')
    expect(iphone.rendered).toContain('4条标注因重置为免费版被隐藏')
    for (const word of ['¥', '购买', '续费', '升级', '会员套餐', '优惠码', '我的订单', '支付', VIP_MSG.buyAdminOnly]) expect(iphone.rendered).not.toContain(word)
    // Tapping where the buy button stood on Android starts nothing.
    const tapped = runPage('pages/vip/index', storage, '购买', { ...answers, __system: { platform: 'ios' } }, 600)
    expect(tapped.tapped).toBeNull()
    expect(tapped.requests.map((r) => r.url).filter((u) => /order|pay/.test(u))).toEqual([])
    // The same team on Android keeps buying.
    const android = runPage('pages/vip/index', storage, '', answers, 600)
    expect(android.rendered).toContain('¥')
    expect(android.rendered).toContain('会员套餐')
    expect(android.rendered).toContain('我的订单')
    expect(android.rendered).toContain('前续费可恢复')
  })

  it('asks for the privacy agreement in its own dialog when 定位 needs it; agreeing lets the waiting getLocation go on', () => {
    const user = buildUser({ id: 7, select_groupid: 3 })
    const storage = { user_info: encryptJson({ user, is_admin: true, admin_vip_expired: false }) }
    const answers = { '/api/layer/getlist': [], __privacy: { agreed: false } }
    const asked = runPage('pages/map/index', storage, '定位', answers, 800)
    expect(asked.privacy.asks).toBe(1)
    expect(asked.privacy.locations).toEqual([])
    expect(asked.rendered).toContain(PRIVACY_MSG.intro)
    expect(asked.rendered).toContain(PRIVACY_MSG.contractLink)
    expect(asked.rendered).toContain('agreePrivacyAuthorization')
    const agreed = runPage('pages/map/index', storage, '定位', answers, 800, '', [], [{ text: PRIVACY_MSG.contractLink }, { text: PRIVACY_MSG.agree, events: ['tap', 'agreeprivacyauthorization'] }])
    expect(agreed.privacy.contractsOpened).toBe(1)
    expect(agreed.privacy.choices).toEqual([{ event: 'agree', buttonId: 'privacy-agree' }])
    expect(agreed.privacy.locations).toEqual(['ok'])
    expect(agreed.rendered).not.toContain(PRIVACY_MSG.refused)
  })

  it('tells the user in Chinese what a refused privacy agreement stops, and keeps the app usable (定位 asks again)', () => {
    const user = buildUser({ id: 7, select_groupid: 3 })
    const storage = { user_info: encryptJson({ user, is_admin: true, admin_vip_expired: false }) }
    const refused = runPage('pages/map/index', storage, '定位', { '/api/layer/getlist': [], __privacy: { agreed: false } }, 800, '', [], [{ text: PRIVACY_MSG.refuse }, { text: '定位' }])
    expect(refused.privacy.choices[0]).toEqual({ event: 'disagree' })
    expect(refused.privacy.locations[0]).toBe('privacy refused')
    expect(refused.rendered).toContain(PRIVACY_MSG.refused)
    expect(refused.rendered).not.toContain('privacy permission is not authorized')
    // Not stuck: the next 定位 asks again.
    expect(refused.privacy.asks).toBe(2)
  })

  it('loads every page of the build, main package and subpackages, for a signed-in user without a crash', () => {
    // A module a subpackage asks for must exist somewhere it is loaded from (Taro's subpackage split
    // once lost one when the shared store context held a dynamic import).
    const user = buildUser({ id: 7, select_groupid: 3 })
    const storage = { user_info: encryptJson({ user, is_admin: true, admin_vip_expired: false }) }
    const pages = [...app.pages, ...(app.subPackages ?? []).flatMap((p) => p.pages.map((page) => `${p.root}/${page}`))]
    expect(pages.length).toBeGreaterThan(10)
    for (const page of pages) {
      const { rendered } = runPage(page, storage)
      expect({ page, rendered: rendered.length > 2 }).toEqual({ page, rendered: true })
    }
  })

  it('forwards /share/view with the share card picture, and offers Moments only for a public share', () => {
    const meta = { id: 'AbCdEfGhIj123456', name: '客户分布', type: 1, show_btn: 60, need_pwd: false, exp: null, expired: false, style: null, group_name: '工程队', op_user: { nickname: '小王' } }
    const open = runPage(`pages/share/view/index?id=${meta.id}`, {}, '', { '/api/share/getbyid': meta, '/api/layer/get/share': [], '/api/marker/get/share': { list: [], total: 0 } })
    expect(open.forward).toEqual({ title: '客户分布', path: `/pages/share/view/index?id=${meta.id}`, imageUrl: expect.stringMatching(new RegExp(`^https?://[^/]+/api/share/card/${meta.id}\\.png$`)) })
    expect(open.timeline).toEqual({ title: '客户分布', query: `id=${meta.id}`, imageUrl: open.forward!.imageUrl })
    expect(open.shareMenus).toEqual([{ show: ['shareAppMessage', 'shareTimeline'] }])
    const locked = runPage(`pages/share/view/index?id=${meta.id}`, {}, '', { '/api/share/getbyid': { ...meta, need_pwd: true } })
    expect(locked.shareMenus).toEqual([{ hide: ['shareTimeline'] }])
    expect(locked.forward!.imageUrl).toBe(open.forward!.imageUrl)
  })

  it('sends a visitor who opens the map to sign in first', () => {
    const { navigations } = runPage('pages/map/index')
    expect(navigations).toEqual([{ kind: 'redirectTo', url: '/pages/login/index?redirect=%2Fmap' }])
  })
})
