/**
 * Payment modes: WeChat Pay with WXPAY_* settings, the local sandbox only with PAY_SANDBOX=1 (never
 * under NODE_ENV=production), else no payments at all, and the start-up line says which. Without a
 * payment setup nothing makes a membership free: not the sandbox's completion, not the App Store's.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { ErrCode } from '../../types/api'
import { VIP_MSG } from '../../src/domain/vipMessages'
import { PayConfigError, payModeLine, payProviderFromEnv } from '../../server/src/services/pay'
import { makeWorld, ok, type TeamWorld } from './teams-fixture'
import { groupRow } from './vip-fixture'

const ROOT = resolve(__dirname, '../..')
const env = (values: Record<string, string>) => values as NodeJS.ProcessEnv

describe('a server without WXPAY_* settings and without the sandbox', () => {
  let w: TeamWorld
  beforeEach(async () => {
    w = await makeWorld()
  })
  afterEach(() => w.close())

  it('refuses to pay an order: neither the sandbox completion nor the App Store call raise the level', async () => {
    const before = await groupRow(w)
    const order = ok(await w.call('/api/vip/order/add', { product_id: 3 }, w.owner))
    expect(await w.call('/api/vip/order/wxpay/create', { orderid: order.id }, w.owner)).toMatchObject({ errcode: ErrCode.FORBIDDEN, errmsg: VIP_MSG.payUnavailable })
    const sandbox = await w.call('/api/pay/sandbox/complete', { orderid: order.id }, w.owner)
    expect(sandbox.status === 404 || sandbox.errcode !== 0).toBe(true)
    expect(await w.call('/api/pay/iap/order/setting', { orderid: order.id, transaction_id: '1000000123456789' }, w.owner)).toMatchObject({ errcode: ErrCode.FORBIDDEN })
    const after = await groupRow(w)
    expect({ level: after.level, vip_exp: after.vip_exp }).toEqual({ level: before.level, vip_exp: before.vip_exp })
    const stored = await w.t.db.kysely.selectFrom('vip_orders').select('status').where('id', '=', order.id).executeTakeFirstOrThrow()
    expect(stored.status).toBe(0)
  })
})

describe('payProviderFromEnv', () => {
  it('is off without settings, the sandbox only with PAY_SANDBOX=1, and refuses the sandbox in production', () => {
    expect(payProviderFromEnv(env({})).mode).toBe('off')
    expect(payProviderFromEnv(env({ NODE_ENV: 'production' })).mode).toBe('off')
    expect(payProviderFromEnv(env({ PAY_SANDBOX: '0' })).mode).toBe('off')
    expect(payProviderFromEnv(env({ PAY_SANDBOX: '1' })).mode).toBe('sandbox')
    expect(() => payProviderFromEnv(env({ PAY_SANDBOX: '1', NODE_ENV: 'production' }))).toThrow(PayConfigError)
  })

  it('names each mode in the start-up line', () => {
    expect(payModeLine(payProviderFromEnv(env({})))).toMatch(/^payments: off/)
    expect(payModeLine(payProviderFromEnv(env({ PAY_SANDBOX: '1' })))).toMatch(/^payments: local sandbox \(PAY_SANDBOX=1\)/)
  })
})

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

/** Runs the server from source until it prints `until` (then stops it) or exits; its output and exit code. */
async function runServer(env: Record<string, string>, until: RegExp): Promise<{ out: string; code: number | null }> {
  const dir = mkdtempSync(join(tmpdir(), 'teammap-pay-'))
  const port = await freePort()
  const inherited: NodeJS.ProcessEnv = { ...process.env }
  delete inherited.PAY_SANDBOX
  const child = spawn(join(ROOT, 'node_modules/.bin/tsx'), ['server/src/main.ts'], {
    cwd: ROOT,
    env: { ...inherited, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dir, STATIC_DIR: dir, DATABASE_URL: '', NODE_OPTIONS: '', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  const collect = (d: Buffer) => {
    out += d.toString()
    if (until.test(out)) child.kill('SIGTERM')
  }
  child.stdout!.on('data', collect)
  child.stderr!.on('data', collect)
  const code = await new Promise<number | null>((done) => child.on('exit', (c) => done(c)))
  rmSync(dir, { recursive: true, force: true })
  return { out, code }
}

describe('starting the server', () => {
  it('refuses to start with PAY_SANDBOX=1 under NODE_ENV=production, saying why', async () => {
    const { out, code } = await runServer({ PAY_SANDBOX: '1', NODE_ENV: 'production' }, /never matches/)
    expect(code).not.toBe(0)
    expect(out).toContain('cannot start: PAY_SANDBOX=1 with NODE_ENV=production')
  }, 60_000)

  it('says on start which payment mode is active', async () => {
    expect((await runServer({}, /payments: /)).out).toContain('payments: off (no WXPAY_* settings, PAY_SANDBOX unset)')
    expect((await runServer({ PAY_SANDBOX: '1' }, /payments: /)).out).toContain('payments: local sandbox (PAY_SANDBOX=1)')
  }, 90_000)
})
