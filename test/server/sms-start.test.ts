/**
 * The server's start and its SMS settings: production without a real provider says so in one
 * warning line (and still serves), and a provider without its keys stops the start with what is missing.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

jest.setTimeout(90_000)

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

/** Starts server/src/main.ts until it listens (then stops it) or exits; its output and exit code. */
async function start(env: Record<string, string>): Promise<{ out: string; code: number | null }> {
  const dir = mkdtempSync(join(tmpdir(), 'sms-start-'))
  const port = await freePort()
  const child = spawn(join(ROOT, 'node_modules/.bin/tsx'), ['server/src/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dir, STATIC_DIR: dir, DATABASE_URL: '', SMS_HTTP_URL: '', ...env },
  })
  let out = ''
  child.stdout.on('data', (d: Buffer) => (out += d.toString()))
  child.stderr.on('data', (d: Buffer) => (out += d.toString()))
  const code = await new Promise<number | null>((done) => {
    child.on('exit', (c) => done(c))
    const timer = setInterval(() => {
      if (/database: sqlite/.test(out)) {
        clearInterval(timer)
        child.kill('SIGTERM')
      }
    }, 100)
    child.on('exit', () => clearInterval(timer))
  })
  rmSync(dir, { recursive: true, force: true })
  return { out, code }
}

it('warns in one line when production starts with the development SMS sender, and still serves', async () => {
  const { out } = await start({ NODE_ENV: 'production', SMS_PROVIDER: '' })
  const warnings = out.split('\n').filter((line) => line.includes('SMS: no real provider in production'))
  expect(warnings).toHaveLength(1)
  expect(warnings[0]).toContain('SMS_PROVIDER=aliyun or tencent')
  expect(out).toMatch(/database: sqlite/)
})

it('does not warn in development', async () => {
  const { out } = await start({ NODE_ENV: 'development', SMS_PROVIDER: '' })
  expect(out).toMatch(/database: sqlite/)
  expect(out).not.toContain('SMS: no real provider')
})

it('stops the start with what is missing when the named provider has no keys', async () => {
  const { out, code } = await start({ NODE_ENV: 'production', SMS_PROVIDER: 'tencent', SMS_TENCENT_SECRET_ID: 'AKID' })
  expect(code).not.toBe(0)
  expect(out).toContain('cannot start: SMS_PROVIDER=tencent needs SMS_TENCENT_SECRET_KEY, SMS_TENCENT_SDK_APP_ID, SMS_SIGN_NAME, SMS_TEMPLATE')
  expect(out).not.toMatch(/database: sqlite/)
})
