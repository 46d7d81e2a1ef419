/**
 * `npm start` (scripts/start.mjs) on a machine without an H5 build: it says so first, serves the
 * API and a building page at once while the build runs, shows the build's progress instead of its
 * output, and serves the app when the build is done; a failed build says so and stops with a
 * non-zero status. A stand-in replaces the real build (test/server/fixtures/fake-h5-build.mjs).
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { H5_BUILDING_MSG } from '../../src/domain/systemMessages'

jest.setTimeout(90_000)

const ROOT = resolve(__dirname, '../..')
const FAKE_BUILD = `"${process.execPath}" "${join(__dirname, 'fixtures/fake-h5-build.mjs')}"`

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
afterEach(() => {
  if (child && child.exitCode === null) child.kill('SIGTERM')
  rmSync(dir, { recursive: true, force: true })
})

async function start(env: Record<string, string> = {}) {
  dir = mkdtempSync(join(tmpdir(), 'teammap-start-'))
  const port = await freePort()
  const out = { stdout: '', stderr: '' }
  child = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: join(dir, 'data'),
      STATIC_DIR: join(dir, 'h5'),
      H5_BUILD_COMMAND: FAKE_BUILD,
      FAKE_BUILD_RELEASE: join(dir, 'release'),
      DATABASE_URL: '',
      NODE_OPTIONS: '',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  child.stdout!.setEncoding('utf8').on('data', (d) => (out.stdout += d))
  child.stderr!.setEncoding('utf8').on('data', (d) => (out.stderr += d))
  const exited = new Promise<number | null>((done) => child!.on('exit', (code) => done(code)))
  return { url: `http://127.0.0.1:${port}`, out, exited }
}

async function until<T>(what: () => Promise<T | undefined>, out: { stdout: string; stderr: string }): Promise<T> {
  for (let i = 0; i < 300; i++) {
    const value = await what().catch(() => undefined)
    if (value !== undefined) return value
    if (child!.exitCode !== null) throw new Error(`npm start exited:\n${out.stdout}\n${out.stderr}`)
    await new Promise((r) => setTimeout(r, 200))
  }
  throw new Error(`timed out:\n${out.stdout}\n${out.stderr}`)
}

const apiConfig = (url: string) =>
  fetch(`${url}/api/system/get/config`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"no_check_permission":true}' }).then((r) => r.json())

it('serves the API and a building page while the first H5 build runs, then the app', async () => {
  const { url, out } = await start()
  // The port answers while the build is still waiting to be let go.
  const page = await until(async () => {
    const res = await fetch(`${url}/map`)
    return { status: res.status, body: await res.text() }
  }, out)
  expect(page.status).toBe(503)
  expect(page.body).toContain(H5_BUILDING_MSG.title)
  expect((await apiConfig(url)).header.errcode).toBe(0)

  // First the one line that says what is going on; the build's progress as short lines, its noise not at all.
  expect(out.stdout.split('\n')[0]).toBe('[start] 首次启动需要构建前端，约需数分钟…')
  await until(async () => (out.stdout.includes('[start] 构建前端 45%') ? true : undefined), out)
  expect(out.stdout + out.stderr).not.toMatch(/WARNING|PackFileCacheStrategy|Taro v|@progress/)

  writeFileSync(join(dir, 'release'), '')
  const app = await until(async () => {
    const res = await fetch(`${url}/map`)
    return res.status === 200 ? res.text() : undefined
  }, out)
  expect(app).toContain('<div id="app">')
  expect(out.stdout).toMatch(/\[start\] 前端构建完成/)
  expect(out.stdout + out.stderr).not.toMatch(/WARNING|PackFileCacheStrategy/)
})

it('says the H5 build failed, shows why, stops the server and exits non-zero', async () => {
  const { url, out, exited } = await start({ FAKE_BUILD_FAIL: '1' })
  expect(await exited).toBe(1)
  expect(out.stderr).toContain("Module not found: Error: Can't resolve './nowhere'")
  expect(out.stderr).toMatch(/\[start\] 前端构建失败/)
  await expect(fetch(`${url}/map`)).rejects.toThrow()
})
