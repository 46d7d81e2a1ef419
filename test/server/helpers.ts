/**
 * Builds a fresh app per test: in-memory SQLite by default, or a throwaway PostgreSQL schema when
 * DATABASE_URL is set (the same suite runs on both).
 */
import type { Geocoder } from '../../server/src/services/geocode'
import { randomBytes } from 'node:crypto'
import { Client } from 'pg'
import type { FastifyInstance } from 'fastify'
import type { Envelope } from '../../types/api'
import { buildApp, type AppDeps } from '../../server/src/app'
import type { Clock } from '../../server/src/clock'
import { openDatabase, type Database } from '../../server/src/db/connection'
import { migrateToLatest } from '../../server/src/db/migrations'
import type { PayProvider } from '../../server/src/services/pay/provider'
import type { SmsSender } from '../../server/src/services/sms'
import type { FileStorage } from '../../server/src/services/storage'

export const databaseKind = process.env.DATABASE_URL ? 'postgres' : 'sqlite'

/** 10:00 in Asia/Shanghai. */
export const START = new Date('2025-06-01T02:00:00.000Z')

export interface TestClock extends Clock {
  advance(ms: number): void
  set(at: Date | string): void
}

export function testClock(start: Date = START): TestClock {
  let current = start.getTime()
  return {
    now: () => new Date(current),
    advance: (ms) => {
      current += ms
    },
    set: (at) => {
      current = new Date(at).getTime()
    },
  }
}

export interface RecordingSms extends SmsSender {
  sent: { phone: string; code: string }[]
  lastCode(phone: string): string
}

export function recordingSms(): RecordingSms {
  const sent: { phone: string; code: string }[] = []
  return {
    sent,
    async send(phone, code) {
      sent.push({ phone, code })
    },
    lastCode(phone) {
      const hit = [...sent].reverse().find((s) => s.phone === phone)
      if (!hit) throw new Error(`no code was sent to ${phone}`)
      return hit.code
    },
  }
}

export interface TestDatabase {
  db: Database
  drop(): Promise<void>
}

export async function makeTestDatabase(): Promise<TestDatabase> {
  const url = process.env.DATABASE_URL
  if (!url) {
    const db = openDatabase({ kind: 'sqlite', file: ':memory:' })
    return { db, drop: () => db.close() }
  }
  const schema = `test_${randomBytes(6).toString('hex')}`
  await onAdminConnection(url, (c) => c.query(`create schema ${schema}`))
  const db = openDatabase({ kind: 'postgres', url, schema, maxConnections: 4 })
  return {
    db,
    drop: async () => {
      await db.close()
      await onAdminConnection(url, (c) => c.query(`drop schema ${schema} cascade`))
    },
  }
}

async function onAdminConnection(url: string, work: (client: Client) => Promise<unknown>): Promise<void> {
  const client = new Client({ connectionString: url })
  await client.connect()
  try {
    await work(client)
  } finally {
    await client.end()
  }
}

/** What a signed-in test user sends in the body's header. */
export interface Auth {
  userid: number | string
  token: string
}

export interface CallResult<T = any> {
  status: number
  errcode: number
  errmsg: string
  data: T
  raw: string
}

export interface TestApp {
  app: FastifyInstance
  db: Database
  clock: TestClock
  sms: RecordingSms
  call<T = any>(path: string, fields?: unknown, auth?: Auth | null): Promise<CallResult<T>>
  /** Sends a code to the phone and logs in with it. */
  login(phone?: string): Promise<{ auth: Auth; data: any }>
  count(table: 'users' | 'groups' | 'joins' | 'sessions' | 'sms_codes'): Promise<number>
  close(): Promise<void>
}

export async function makeTestApp(
  options: {
    sms?: SmsSender
    codeCooldownS?: number
    pay?: PayProvider
    adminToken?: string
    geocoder?: Geocoder
    storage?: FileStorage
    printTiles?: AppDeps['printTiles']
    printFetch?: AppDeps['printFetch']
  } = {},
): Promise<TestApp> {
  const { db, drop } = await makeTestDatabase()
  await migrateToLatest(db)
  const clock = testClock()
  const sms = recordingSms()
  const app = buildApp({
    db,
    clock,
    sms: options.sms ?? sms,
    codeCooldownS: options.codeCooldownS,
    pay: options.pay,
    adminToken: options.adminToken,
    geocoder: options.geocoder,
    storage: options.storage,
    // The print base map only where a test configures one (never the environment's).
    printTiles: options.printTiles ?? null,
    printFetch: options.printFetch,
  })

  const call: TestApp['call'] = async (path, fields = {}, auth = null) => {
    const header = { userid: auth?.userid ?? '', groupid: '', token: auth?.token ?? '', device: 'app_h5', os: 'android' }
    const payload = fields && typeof fields === 'object' && !Array.isArray(fields) ? { header, ...fields } : fields
    const res = await app.inject({ method: 'POST', url: path, payload: payload as object })
    const body = res.json() as Envelope<any>
    return { status: res.statusCode, errcode: body.header.errcode, errmsg: body.header.errmsg, data: body.data, raw: res.body }
  }

  return {
    app,
    db,
    clock,
    sms,
    call,
    async login(phone = '13800138000') {
      const sent = await call('/api/system/send/code', { phone })
      if (sent.errcode !== 0) throw new Error(`send/code failed: ${sent.errmsg}`)
      const res = await call('/api/user/login', { phone, code: sms.lastCode(phone), channel: 'app_h5' })
      if (res.errcode !== 0) throw new Error(`login failed: ${res.errmsg}`)
      // Later sends to the same phone in a test must not hit the cooldown.
      clock.advance(61_000)
      return { auth: { userid: res.data.user.id, token: res.data.user.token }, data: res.data }
    },
    async count(table) {
      const row = await db.kysely
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
      return Number(row.n)
    },
    async close() {
      await app.close()
      await drop()
    },
  }
}

export const DAY_MS = 24 * 3600_000

/**
 * For tests that jump the clock by weeks or months: every live session was in use meanwhile (a
 * token unused for 30 days no longer works, as a person who kept using the app never meets).
 */
export async function sessionsUsedUntilNow(t: Pick<TestApp, 'db' | 'clock'>): Promise<void> {
  await t.db.kysely.updateTable('sessions').set({ last_seen_at: t.clock.now().toISOString() }).where('revoked_at', 'is', null).execute()
}
