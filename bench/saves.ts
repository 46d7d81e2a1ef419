/**
 * Concurrent-writes budget (issue goal: >= 1,000 saves/s, p99 <= 250 ms) on SQLite: the server
 * listens on a loopback port in this process; 50 members of one group, each with its own session,
 * save 20 point markers each at once through /api/marker/save from a worker thread (after one untimed save each). Prints saves/s, latency p50 and p99,
 * and, in the same run on the same file, what better-sqlite3 does bare: one transaction of one
 * marker row plus one op-log row, copied from rows the server wrote, with the server's pragmas, and the server's share of it.
 * Bounded: 1,000 saves through HTTP and a fixed count of bare transactions. With BENCH_DATABASE_URL
 * (CI's PostgreSQL run sets it) the same saves run on PostgreSQL too, as information.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { AddressInfo } from 'node:net'
import { performance } from 'node:perf_hooks'
import { Worker } from 'node:worker_threads'
import SqliteDatabase from 'better-sqlite3'
import { Client } from 'pg'
import { buildApp } from '../server/src/app'
import { systemClock } from '../server/src/clock'
import { openDatabase, type Database } from '../server/src/db/connection'
import { migrateToLatest } from '../server/src/db/migrations'
import { emit } from './emit'
import { percentile, post, round, teamMembers, type Header } from './team'

const CLIENTS = Number(process.env.BENCH_SAVE_CLIENTS ?? 50)
const SAVES_EACH = Number(process.env.BENCH_SAVES_EACH ?? 20)
const BARE_TRANSACTIONS = 5000

/** Transactions per second of one marker row plus one op-log row, copied from the last ones the server wrote, straight through better-sqlite3. */
function bareRate(file: string): number {
  const raw = new SqliteDatabase(file)
  try {
    raw.pragma('journal_mode = WAL')
    raw.pragma('synchronous = NORMAL')
    raw.pragma('busy_timeout = 5000')
    const copyInsert = (table: string) => {
      const columns = (raw.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).map((c) => c.name).filter((c) => c !== 'id')
      const list = columns.map((c) => `"${c}"`).join(', ')
      return raw.prepare(`INSERT INTO ${table} (${list}) SELECT ${list} FROM ${table} WHERE id = (SELECT MAX(id) FROM ${table})`)
    }
    const marker = copyInsert('markers')
    const op = copyInsert('oplog')
    const save = raw.transaction(() => {
      marker.run()
      op.run()
    })
    const started = performance.now()
    for (let i = 0; i < BARE_TRANSACTIONS; i++) save.immediate()
    return BARE_TRANSACTIONS / ((performance.now() - started) / 1000)
  } finally {
    raw.close()
  }
}

/**
 * The members' saves, from a worker thread: the clients' own work (building requests, parsing
 * answers) runs beside the server's event loop instead of taking turns with it, as real phones do.
 * One untimed save per member first: the first requests compile and load what a save runs (and
 * each member's standing), which is start-up, not the steady rate measured here. Plain JavaScript,
 * so that the worker needs no TypeScript loader.
 */
const CLIENTS_SCRIPT = `
const http = require('node:http')
const { workerData, parentPort } = require('node:worker_threads')
const { base, headers, layerId, savesEach } = workerData
const url = new URL(base + '/api/marker/save')
// A kept-alive connection per member, as a phone keeps one to the server: fetch (undici) costs the
// clients' thread a few milliseconds a request, which made the bench measure the clients, not the server.
const agent = new http.Agent({ keepAlive: true, maxSockets: headers.length })
const post = (body) =>
  new Promise((resolve, reject) => {
    const payload = Buffer.from(JSON.stringify(body))
    const req = http.request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': payload.length } }, (res) => {
      const parts = []
      res.on('data', (b) => parts.push(b))
      res.on('end', () => {
        const answer = JSON.parse(Buffer.concat(parts).toString())
        if (answer.header.errcode !== 0) reject(new Error('save failed: ' + answer.header.errmsg))
        else resolve()
      })
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end(payload)
  })
;(async () => {
  await Promise.all(headers.map((header, c) => post({ header, layer_id: layerId, name: '预热' + c, type: 0, points: (116 + c / 100) + ',38.9' })))
  const latencies = []
  const started = performance.now()
  await Promise.all(
    headers.map(async (header, c) => {
      for (let i = 0; i < savesEach; i++) {
        const t = performance.now()
        await post({ header, layer_id: layerId, name: '点' + c + '-' + i, type: 0, points: (116 + c / 100) + ',' + (39 + i / 1000) })
        latencies.push(performance.now() - t)
      }
    }),
  )
  parentPort.postMessage({ latencies, seconds: (performance.now() - started) / 1000 })
})().catch((err) => parentPort.postMessage({ error: String(err) }))
`

function runClients(base: string, headers: Header[], layerId: number): Promise<{ latencies: number[]; seconds: number }> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(CLIENTS_SCRIPT, { eval: true, workerData: { base, headers, layerId, savesEach: SAVES_EACH } })
    worker.once('message', (result: { latencies: number[]; seconds: number; error?: string }) => {
      void worker.terminate()
      if (result.error) reject(new Error(result.error))
      else resolve(result)
    })
    worker.once('error', reject)
  })
}

/** Sets up 50 members of one group on this database, serves the app on a loopback port and runs the members' saves. */
async function measure(db: Database): Promise<{ latencies: number[]; seconds: number }> {
  const app = buildApp({ db, clock: systemClock, sms: { send: async () => undefined } })
  try {
    await migrateToLatest(db)
    const headers = await teamMembers(db, CLIENTS, '139')
    await app.listen({ port: 0, host: '127.0.0.1' })
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
    const layer = await post(base, '/api/layer/save', { header: headers[0], name: '点图层', type: 1, parent_id: 0 })
    if (layer.header.errcode !== 0) throw new Error(`layer save failed: ${layer.header.errmsg}`)
    return await runClients(base, headers, layer.data.id)
  } finally {
    await app.close()
  }
}

export async function savesBench(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'teammap-saves-bench-'))
  const file = path.join(dir, 'bench.db')
  const db = openDatabase({ kind: 'sqlite', file })
  try {
    const { latencies, seconds } = await measure(db)
    const savesPerSecond = latencies.length / seconds
    const bare = bareRate(file)
    console.error(
      `[bench:saves] SQLite: ${CLIENTS} members x ${SAVES_EACH} saves at once, ${round(savesPerSecond)} saves/s, p50 ${round(percentile(latencies, 50))} ms, p99 ${round(percentile(latencies, 99))} ms; bare better-sqlite3 ${round(bare)} tx/s`,
    )
    emit('saves.concurrent_per_s', round(savesPerSecond), 'saves/s', 1000, false)
    emit('saves.concurrent_p50_ms', round(percentile(latencies, 50)), 'ms', 250)
    emit('saves.concurrent_p99_ms', round(percentile(latencies, 99)), 'ms', 250)
    emit('saves.bare_sqlite_per_s', round(bare), 'tx/s', 0, false)
    emit('saves.ratio_to_bare', round(savesPerSecond / bare, 3), 'x', 0.05, false)
  } finally {
    await db.close()
    fs.rmSync(dir, { recursive: true, force: true })
  }
  if (process.env.BENCH_DATABASE_URL) await postgresSaves(process.env.BENCH_DATABASE_URL)
}

/** The same members and saves on PostgreSQL (CI's throwaway cluster), in a schema made for the run: figures for information. */
async function postgresSaves(url: string): Promise<void> {
  const schema = `bench_saves_${process.pid}`
  const admin = new Client({ connectionString: url })
  await admin.connect()
  try {
    await admin.query(`create schema ${schema}`)
    const db = openDatabase({ kind: 'postgres', url, schema })
    try {
      const { latencies, seconds } = await measure(db)
      const savesPerSecond = latencies.length / seconds
      console.error(`[bench:saves] PostgreSQL: ${round(savesPerSecond)} saves/s, p50 ${round(percentile(latencies, 50))} ms, p99 ${round(percentile(latencies, 99))} ms`)
      emit('saves.postgres_concurrent_per_s', round(savesPerSecond), 'saves/s', 0, false)
      emit('saves.postgres_concurrent_p99_ms', round(percentile(latencies, 99)), 'ms', 250)
    } finally {
      await db.close()
      await admin.query(`drop schema ${schema} cascade`)
    }
  } finally {
    await admin.end()
  }
}

if (require.main === module) {
  savesBench().catch((e) => {
    console.error(e)
    process.exitCode = 0
  })
}
