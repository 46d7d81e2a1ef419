/**
 * Outbox replay on SQLite: a phone back online drains 500 queued marker creates in order, one call
 * after another, each with its client_id, and every 10th one sent twice as if its first answer had
 * been lost. Prints the time to drain (median of RUNS, each on a fresh database) and how many
 * markers the server holds beyond the 500 (must be 0). The server listens on a loopback port in
 * this process. Bounded: RUNS x (QUEUED + QUEUED / 10) calls.
 *
 * Then the same through the app's own stores (RootStore with the outbox, the memory offline
 * platform, the real server behind the transport): 500 points saved with the network off, the
 * network back, the time until the outbox is empty, and what the server holds beyond 500.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { randomUUID } from 'node:crypto'
import type { AddressInfo } from 'node:net'
import { performance } from 'node:perf_hooks'
import { buildApp } from '../server/src/app'
import { startSession } from '../server/src/auth'
import { systemClock } from '../server/src/clock'
import { openDatabase } from '../server/src/db/connection'
import { insertOwnedGroup } from '../server/src/db/groups'
import { addJoin } from '../server/src/db/joins'
import { migrateToLatest } from '../server/src/db/migrations'
import { findOrCreateUserByPhone, selectGroupForUser } from '../server/src/db/users'
import { emit } from './emit'
import { makeRoot, type Handler } from '../test/support/fakes'
import { memoryOffline } from '../src/platform/offline/memory'

const QUEUED = 500
const RUNS = 3
// A drain of 500 creates should take a phone on a good network well under a minute; on loopback it is the server's share of that.
const DRAIN_BUDGET_MS = 5000

async function post(base: string, url: string, body: object): Promise<any> {
  const res = await fetch(base + url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  return res.json()
}

/** One drain on a fresh database: its time and the markers the server holds beyond the queued ones. */
async function drainOnce(): Promise<{ ms: number; duplicates: number; failed: number }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'teammap-outbox-bench-'))
  const db = openDatabase({ kind: 'sqlite', file: path.join(dir, 'bench.db') })
  const app = buildApp({ db, clock: systemClock, sms: { send: async () => undefined } })
  try {
    await migrateToLatest(db)
    const now = new Date().toISOString()
    const user = await findOrCreateUserByPhone(db.kysely, '13800000000', 'bench', now)
    const group = await insertOwnedGroup(db.kysely, { name: 'bench', owner_id: user.id, level: 4, vip_exp: null, marker_limit: 100_000, join_limit: 100, file_size_limit: 2097152, created_at: now })
    await addJoin(db.kysely, { group_id: group.id, user_id: user.id, is_manager: true, created_at: now })
    await selectGroupForUser(db.kysely, user.id, group.id, now)
    const header = { userid: user.id, token: await startSession(db.kysely, user.id, new Date()) }
    await app.listen({ port: 0, host: '127.0.0.1' })
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
    const layer = await post(base, '/api/layer/save', { header, name: '外业', type: 1, parent_id: 0 })

    // What the phone queued while offline, in the order it was captured.
    const outbox = Array.from({ length: QUEUED }, (_, i) => ({
      layer_id: layer.data.id as number,
      name: `外业点${i + 1}`,
      type: 0,
      points: `${(116.3 + i * 0.0001).toFixed(6)},${(39.9 + i * 0.0001).toFixed(6)}`,
      client_id: randomUUID(),
    }))
    let failed = 0
    const started = performance.now()
    for (let i = 0; i < outbox.length; i++) {
      const sends = (i + 1) % 10 === 0 ? 2 : 1
      for (let s = 0; s < sends; s++) {
        const res = await post(base, '/api/marker/save', { header, ...outbox[i] })
        if (res.header.errcode !== 0) failed++
      }
    }
    const ms = performance.now() - started
    const held = await db.kysely
      .selectFrom('markers')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('group_id', '=', group.id)
      .executeTakeFirstOrThrow()
    return { ms, duplicates: Number(held.n) - QUEUED, failed }
  } finally {
    await app.close()
    await db.close()
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

/** The app's outbox drains QUEUED points saved offline: its time and the markers the server holds beyond them. */
async function storeDrainOnce(): Promise<{ ms: number; duplicates: number; left: number }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'teammap-outbox-store-bench-'))
  const db = openDatabase({ kind: 'sqlite', file: path.join(dir, 'bench.db') })
  const codes = new Map<string, string>()
  const app = buildApp({ db, clock: systemClock, sms: { send: async (phone, code) => void codes.set(phone, code) } })
  const phone = '13800000001'
  try {
    await migrateToLatest(db)
    const now = new Date().toISOString()
    const user = await findOrCreateUserByPhone(db.kysely, phone, 'bench', now)
    const group = await insertOwnedGroup(db.kysely, { name: 'bench', owner_id: user.id, level: 4, vip_exp: null, marker_limit: 100_000, join_limit: 100, file_size_limit: 2097152, created_at: now })
    await addJoin(db.kysely, { group_id: group.id, user_id: user.id, is_manager: true, created_at: now })
    await selectGroupForUser(db.kysely, user.id, group.id, now)
    await app.listen({ port: 0, host: '127.0.0.1' })
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
    const offline = memoryOffline()
    // The phone's transport is the real server, and fails like a dropped signal while offline.
    const handlers = new Proxy({} as Record<string, Handler>, {
      get: (_, route: string) => async (body: unknown) => {
        if (!offline.network.online()) throw new Error('no signal')
        const res = await fetch(base + route, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
        return { status: res.status, data: await res.json() }
      },
    })
    const { root } = makeRoot(handlers, { offline })
    await post(base, '/api/system/send/code', { phone })
    if (!(await root.session.login(phone, codes.get(phone) ?? ''))) throw new Error('login failed')
    const layer = await post(base, '/api/layer/save', { header: root.session.header, name: '外业', type: 1, parent_id: 0 })
    await root.layers.load()
    await root.markers.loadShown()
    await root.fields.ensure(layer.data.id)
    const outbox = root.outbox
    offline.network.set(false)
    for (let i = 0; i < QUEUED; i++) {
      await root.markers.save({ layer_id: layer.data.id, name: `外业点${i + 1}`, type: 0, points: `${(116.3 + i * 0.0001).toFixed(6)},${(39.9 + i * 0.0001).toFixed(6)}` })
    }
    if (outbox.count !== QUEUED) throw new Error(`queued ${outbox.count} of ${QUEUED}`)
    const started = performance.now()
    offline.network.set(true)
    // Bounded: the replay is in flight as long as the count falls; a minute without progress ends the run.
    let last = outbox.count
    let still = performance.now()
    while (outbox.count > 0 && performance.now() - still < 60_000) {
      await new Promise((r) => setTimeout(r, 20))
      if (outbox.count !== last) {
        last = outbox.count
        still = performance.now()
      }
    }
    const ms = performance.now() - started
    const held = await db.kysely
      .selectFrom('markers')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow()
    root.dispose()
    return { ms, duplicates: Number(held.n) - QUEUED, left: outbox.count }
  } finally {
    await app.close()
    await db.close()
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

export async function outboxBench(): Promise<void> {
  const runs: { ms: number; duplicates: number; failed: number }[] = []
  for (let r = 0; r < RUNS; r++) runs.push(await drainOnce())
  const times = runs.map((r) => r.ms).sort((a, b) => a - b)
  emit('outbox.drain_500_ms', Math.round(times[Math.floor(times.length / 2)]), 'ms', DRAIN_BUDGET_MS)
  emit('outbox.duplicates', Math.max(...runs.map((r) => r.duplicates)), 'markers', 0)
  emit('outbox.failed_calls', Math.max(...runs.map((r) => r.failed)), 'calls', 0)
  const store = await storeDrainOnce()
  emit('outbox.store_drain_500_ms', Math.round(store.ms), 'ms', DRAIN_BUDGET_MS * 2)
  emit('outbox.store_duplicates', store.duplicates, 'markers', 0)
  emit('outbox.store_left', store.left, 'items', 0)
}

if (require.main === module) {
  outboxBench().catch((e) => {
    console.error(e)
    process.exitCode = 0
  })
}
