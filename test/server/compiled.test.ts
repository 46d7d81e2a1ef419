/**
 * The server as `npm start` runs it: compiled into one file by scripts/build-server.mjs and run
 * with plain node (no TypeScript loader). It must start on a fresh data folder, migrate the
 * embedded database, answer the API and serve the H5 build beside it.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

jest.setTimeout(60_000)

const ROOT = resolve(__dirname, '../..')

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const s = createServer()
    s.once('error', fail)
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port
      s.close(() => done(port))
    })
  })
}

let child: ChildProcess | undefined
let dir: string
const outputs: string[] = []
afterEach(() => {
  child?.kill('SIGTERM')
  rmSync(dir, { recursive: true, force: true })
  for (const f of outputs.splice(0)) rmSync(f, { force: true })
})

it('starts compiled with plain node on a fresh data folder and serves the API and the H5 app', async () => {
  dir = mkdtempSync(join(tmpdir(), 'teammap-compiled-'))
  // Inside the project, like dist/server/main.cjs: packages resolve from its node_modules.
  const file = join(ROOT, '.cache/test-server', `${process.pid}-${Date.now()}.cjs`)
  outputs.push(file, `${file}.map`)
  const built = spawnSync(process.execPath, ['scripts/build-server.mjs', 'server/src/main.ts', file], { cwd: ROOT, encoding: 'utf8' })
  expect(built.stderr).toBe('')
  expect(built.status).toBe(0)
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>团队地图</title>')
  const port = await freePort()
  let out = ''
  child = spawn(process.execPath, [file], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: join(dir, 'data'), STATIC_DIR: dir, DATABASE_URL: '', NODE_OPTIONS: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  child.stdout!.on('data', (d) => (out += d))
  child.stderr!.on('data', (d) => (out += d))
  const url = `http://127.0.0.1:${port}`
  let config: { header: { errcode: number }; data: { sign_radius: number } } | undefined
  for (let i = 0; i < 150 && !config; i++) {
    try {
      const res = await fetch(`${url}/api/system/get/config`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"no_check_permission":true}' })
      config = await res.json()
    } catch {
      if (child.exitCode !== null) throw new Error(`the compiled server exited:\n${out}`)
      await new Promise((r) => setTimeout(r, 200))
    }
  }
  expect(config?.header.errcode).toBe(0)
  // SPEC 9: the default sign radius, read from the freshly migrated database.
  expect(config?.data.sign_radius).toBe(300)
  const page = await fetch(`${url}/map`)
  expect(page.status).toBe(200)
  expect(await page.text()).toContain('团队地图')
  await expectImportWorks(url, () => out)
})

/** An import parses its file on a worker thread, whose code the compiled file carries. */
async function expectImportWorks(url: string, output: () => string) {
  const post = async (path: string, fields: object, auth?: { userid: number; token: string }) => {
    const header = { userid: auth?.userid ?? '', groupid: '', token: auth?.token ?? '', device: 'app_h5', os: 'android' }
    const res = await fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ header, ...fields }) })
    const body = await res.json()
    if (body.header.errcode !== 0) throw new Error(`${path}: ${body.header.errmsg}`)
    return body.data
  }
  const phone = '13800138000'
  await post('/api/system/send/code', { phone })
  const code = new RegExp(`phone=${phone} code=(\\d+)`).exec(output())?.[1]
  const user = (await post('/api/user/login', { phone, code, channel: 'app_h5' })).user
  const auth = { userid: user.id, token: user.token }
  await post('/api/user/init', { nickname: '队长' }, auth)
  await post('/api/group/create', {}, auth)
  const layer = await post('/api/layer/save', { name: '网点', type: 1, parent_id: 0 }, auth)
  const imported = await post('/api/marker/import', { layer_id: layer.id, format: 'csv', content: 'name,lng,lat\nA,116.4,39.9\nB,116.5,39.9' }, auth)
  expect(imported).toMatchObject({ imported: 2, errors: [] })
}
