/**
 * WeChat's own packer (miniprogram-ci: the compile step its `upload` runs before sending anything)
 * over dist/weapp: it checks app.json and the pages' JSON against WeChat's schema and that each
 * page's files are there, and returns the files it would upload. Its WXML and WXSS compilers
 * (wcc/wcsc) are not in the npm package, so it does not compile templates or styles: the static
 * checks of those stay ours (build.test.ts).
 *
 * It runs offline in a child process (pack-runner.cjs) with offline-guard.cjs preloaded into it
 * and into every process and worker it starts: no host name outside the machine resolves, no
 * connection leaves it, and everything printed is recorded. The packer asks WeChat's servers for
 * one thing even when packing locally, the list of file extensions it may upload; that request
 * fails at once here, the packer falls back to its built-in list, and those two error lines are,
 * besides its known progress lines, the only output this test lets through.
 */
import { spawnSync } from 'node:child_process'
import { generateKeyPairSync } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

const root = path.resolve(__dirname, '../..')
const dist = path.join(root, 'dist/weapp')
const MB = 1024 * 1024
// WeChat's upload limits: 2 MB for the main package and for each subpackage, 30 MB in all.
const PACKAGE_LIMIT = 2 * MB
const TOTAL_LIMIT = 30 * MB
const WHITELIST_URL = 'https://servicewechat.com/wxa/ci/getwhiteextlist'

interface GuardEvent {
  pid: number
  ppid: number
  thread: number
  kind: 'loaded' | 'lookup' | 'connect' | 'request' | 'child' | 'worker' | 'output'
  host?: string
  port?: number
  url?: string
  child?: number
  stream?: 'stdout' | 'stderr'
  text?: string
}

interface PackReport {
  ok: boolean
  ms?: number
  sizes?: Record<string, number>
  error?: string
  code?: number
}

interface PackRun {
  report: PackReport
  events: GuardEvent[]
  lines: { stream: string; text: string }[]
}

// The packer's progress chatter, all of it (v2.1.x): anything else it prints fails the test.
const CHATTER = [
  /^\[miniprogram-builder\] (initservices|getservice) CI$/,
  /^\[summer-compiler\] forkProcess( serialize| start| done)? \[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}\]$/,
  /^serialize mini-weixin$/,
  /^COMMAND\.INIT_START$/,
  /^start at [\d.]+$/,
  /^worker init_ready$/,
  /^getCodeFiles: count: \d+, cost: \d+ms\.$/,
]
// The extension whitelist request failing offline: logged once by the request and once by its caller.
const OFFLINE_WHITELIST = [
  /^\[error\] https:\/\/servicewechat\.com\/wxa\/ci\/getwhiteextlist Error: getaddrinfo ENOTFOUND servicewechat\.com \(offline: the test keeps this process on the machine\)$/,
  /^\[error\] get white ext list fail Error: getaddrinfo ENOTFOUND servicewechat\.com \(offline: the test keeps this process on the machine\)$/,
]

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'weapp-pack-'))
const appid: string = JSON.parse(fs.readFileSync(path.join(root, 'project.config.json'), 'utf8')).appid

/** A throwaway RSA key: the packer insists on one, and only an upload would use it. */
function writeKey(): string {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs1', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } })
  const file = path.join(work, 'private.key')
  fs.writeFileSync(file, privateKey, { mode: 0o600 })
  return file
}

function pack(projectPath: string, name: string): PackRun {
  const reportFile = path.join(work, `${name}.json`)
  const guardLog = path.join(work, `${name}.guard.jsonl`)
  const env: NodeJS.ProcessEnv = { ...process.env }
  // A proxy (even one on loopback) would be a way out of the machine: the packer reads these.
  for (const k of Object.keys(env)) if (/(^|_)(https?|all|no)_proxy$/i.test(k) || /^npm_config_(https_)?proxy$/i.test(k)) delete env[k]
  const res = spawnSync(process.execPath, [path.join(__dirname, 'pack-runner.cjs'), reportFile], {
    cwd: root,
    encoding: 'utf8',
    timeout: 150_000,
    env: {
      ...env,
      NODE_OPTIONS: `--require ${JSON.stringify(path.join(__dirname, 'offline-guard.cjs'))}`,
      OFFLINE_GUARD_LOG: guardLog,
      PACK_OPTIONS: JSON.stringify({ projectPath, appid, privateKeyPath: writeKey(), outZip: path.join(work, `${name}.zip`), version: '1.0.0' }),
    } as NodeJS.ProcessEnv,
  })
  if (res.error || res.status !== 0 || !fs.existsSync(reportFile)) throw new Error(`packer did not finish: ${res.error ?? res.status}\n${res.stdout}\n${res.stderr}`)
  const events: GuardEvent[] = fs
    .readFileSync(guardLog, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l))
  const lines = events
    .filter((e) => e.kind === 'output')
    .flatMap((e) => e.text!.split('\n').map((text) => ({ stream: e.stream!, text: text.trimEnd() })))
    .filter((l) => l.text !== '')
  return { report: JSON.parse(fs.readFileSync(reportFile, 'utf8')), events, lines }
}

function walk(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]))
}

jest.setTimeout(240_000)

let run: PackRun
let app: { pages: string[]; subPackages?: { root: string; pages: string[] }[] }

beforeAll(() => {
  if (!fs.existsSync(path.join(dist, 'app.json'))) spawnSync('npx', ['taro', 'build', '--type', 'weapp'], { cwd: root, stdio: 'inherit' })
  app = JSON.parse(fs.readFileSync(path.join(dist, 'app.json'), 'utf8'))
  run = pack(dist, 'dist')
})

afterAll(() => fs.rmSync(work, { recursive: true, force: true }))

describe("WeChat's packer (miniprogram-ci) over dist/weapp", () => {
  it('packs the build: app.json, every page and component JSON pass its checks', () => {
    expect(run.report.error).toBeUndefined()
    expect(run.report.ok).toBe(true)
    expect(Object.keys(run.report.sizes!)).toEqual(expect.arrayContaining(['app.json', 'app.js', 'app.wxss', ...app.pages.map((p) => `${p}.wxml`)]))
    expect(fs.statSync(path.join(work, 'dist.zip')).size).toBeGreaterThan(0)
  })

  it('keeps every file of the build but the licence notes (a file of a type WeChat does not take would be dropped)', () => {
    const built = walk(dist).map((f) => path.relative(dist, f).split(path.sep).join('/'))
    const dropped = built.filter((f) => !(f in run.report.sizes!))
    expect(dropped.filter((f) => !f.endsWith('.LICENSE.txt'))).toEqual([])
  })

  it("keeps the main package and each subpackage within 2 MB and the whole within 30 MB, as the packer's output counts them", () => {
    const sizes = run.report.sizes!
    const roots = (app.subPackages ?? []).map((s) => s.root.replace(/\/?$/, '/'))
    const byPackage: Record<string, number> = { main: 0 }
    for (const [file, bytes] of Object.entries(sizes)) {
      const pkg = roots.find((r) => file.startsWith(r)) ?? 'main'
      byPackage[pkg] = (byPackage[pkg] ?? 0) + bytes
    }
    const total = Object.values(sizes).reduce((a, b) => a + b, 0)
    // The figures, for the report of this run.
    console.log(
      `packer: ${Object.keys(sizes).length} files, ${(total / 1024).toFixed(0)} KB; main ${(byPackage.main / 1024).toFixed(0)} KB; largest subpackage ${
        Object.entries(byPackage)
          .filter(([k]) => k !== 'main')
          .sort((a, b) => b[1] - a[1])
          .map(([k, v]) => `${k} ${(v / 1024).toFixed(0)} KB`)[0]
      }; ${run.report.ms} ms`,
    )
    for (const [pkg, bytes] of Object.entries(byPackage)) expect({ pkg, over: bytes > PACKAGE_LIMIT }).toEqual({ pkg, over: false })
    expect(total).toBeLessThanOrEqual(TOTAL_LIMIT)
  })

  it('prints no warning or error but the offline extension-list fetch, and that one exactly once per logger', () => {
    const unexpected = run.lines.filter((l) => !CHATTER.some((re) => re.test(l.text)) && !OFFLINE_WHITELIST.some((re) => re.test(l.text)))
    expect(unexpected).toEqual([])
    for (const re of OFFLINE_WHITELIST) expect(run.lines.filter((l) => re.test(l.text))).toHaveLength(1)
  })

  it('never leaves the machine: its only outside request is the extension list, refused before any lookup or connection', () => {
    const requests = run.events.filter((e) => e.kind === 'request').map((e) => e.url)
    expect(requests).toEqual([WHITELIST_URL])
    const isLoopback = (h: string) => h === 'localhost' || h === '::1' || h.startsWith('127.')
    // Every lookup or connection to another host was refused by the guard before it started
    // (ENOTFOUND at once): the only such host is WeChat's, for that request.
    const outside = run.events.filter((e) => (e.kind === 'lookup' || e.kind === 'connect') && !isLoopback(e.host!))
    expect(outside.length).toBeGreaterThan(0)
    expect([...new Set(outside.map((e) => e.host))]).toEqual(['servicewechat.com'])
  })

  it('has a guard that refuses a host name and an address outside the machine at once, and lets loopback through', () => {
    const guardLog = path.join(work, 'probe.guard.jsonl')
    const probe = `
      const net = require('node:net'), https = require('node:https'), dns = require('node:dns')
      const results = {}
      const started = Date.now()
      const done = (k) => (e) => { results[k] = e ? e.code + (/offline: the test/.test(e.message) ? ' by the guard' : '') : 'ok'; if (Object.keys(results).length === 4) { results.ms = Date.now() - started; console.log(JSON.stringify(results)); srv.close() } }
      const srv = net.createServer((c) => c.end()).listen(0, '127.0.0.1', () => {
        https.get('https://servicewechat.com/wxa/ci/getwhiteextlist', () => done('https')()).on('error', done('https'))
        net.connect(443, '203.0.113.7').on('error', done('address')).on('connect', function () { this.destroy(); done('address')() })
        dns.resolve4('example.com', (e) => done('resolve')(e))
        net.connect(srv.address().port, '127.0.0.1').on('connect', function () { this.destroy(); done('loopback')() }).on('error', done('loopback'))
      })`
    const res = spawnSync(process.execPath, ['-e', probe], {
      encoding: 'utf8',
      timeout: 30_000,
      env: { ...process.env, NODE_OPTIONS: `--require ${JSON.stringify(path.join(__dirname, 'offline-guard.cjs'))}`, OFFLINE_GUARD_LOG: guardLog } as NodeJS.ProcessEnv,
    })
    const results = JSON.parse(res.stdout.trim().split('\n').pop()!)
    expect(results).toMatchObject({ https: 'ENOTFOUND by the guard', address: 'ENOTFOUND by the guard', resolve: 'ENOTFOUND by the guard', loopback: 'ok' })
    // No resolver, no connection attempt and no timeout behind those answers.
    expect(results.ms).toBeLessThan(5_000)
  })

  it('ran every process and worker the packer started under the offline guard', () => {
    const loaded = run.events.filter((e) => e.kind === 'loaded')
    const children = run.events.filter((e) => e.kind === 'child')
    const workers = run.events.filter((e) => e.kind === 'worker')
    // Its compiler runs in a forked process with worker threads.
    expect(children.length).toBeGreaterThan(0)
    for (const c of children) expect(loaded.some((l) => l.pid === c.child && l.thread === 0) ? c.child : `unguarded child ${c.child}`).toBe(c.child)
    for (const w of workers) expect(loaded.some((l) => l.pid === w.pid && l.thread === w.child) ? w.child : `unguarded worker ${w.child}`).toBe(w.child)
  })

  it('refuses a build whose app.json names a page that is not there (its checks are live)', () => {
    const broken = path.join(work, 'broken')
    fs.cpSync(dist, broken, { recursive: true })
    const brokenApp = JSON.parse(fs.readFileSync(path.join(broken, 'app.json'), 'utf8'))
    brokenApp.subPackages[0].pages.push('missing/index')
    fs.writeFileSync(path.join(broken, 'app.json'), JSON.stringify(brokenApp))
    const { report } = pack(broken, 'broken')
    expect(report.ok).toBe(false)
    expect(report.error).toContain(`${brokenApp.subPackages[0].root}/missing/index`)
  })
})
