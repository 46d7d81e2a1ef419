/**
 * Outbox replay on SQLite: a phone back online drains 500 queued marker creates in order, one call
 * after another, each with its client_id, and every 10th one sent twice as if its first answer had
 * been lost. Prints the time to drain (median of RUNS, each on a fresh database) and how many
 * markers the server holds beyond the 500 (must be 0). The server listens on a loopback port in
 * this process. Bounded: RUNS x (QUEUED + QUEUED / 10) calls.
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

export async function outboxBench(): Promise<void> {
  const runs: { ms: number; duplicates: number; failed: number }[] = []
  for (let r = 0; r < RUNS; r++) runs.push(await drainOnce())
  const times = runs.map((r) => r.ms).sort((a, b) => a - b)
  emit('outbox.drain_500_ms', Math.round(times[Math.floor(times.length / 2)]), 'ms', DRAIN_BUDGET_MS)
  emit('outbox.duplicates', Math.max(...runs.map((r) => r.duplicates)), 'markers', 0)
  emit('outbox.failed_calls', Math.max(...runs.map((r) => r.failed)), 'calls', 0)
}

if (require.main === module) {
  outboxBench().catch((e) => {
    console.error(e)
    process.exitCode = 0
  })
}
