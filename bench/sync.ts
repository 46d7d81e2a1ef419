/**
 * Live-sync budget of DESIGN 7 on SQLite: the server listens on a loopback port in this process;
 * 50 WebSocket clients of one group say hello, and one writer saves markers one after another. For
 * each save, the time from sending it to each other client having received `seq` and had its
 * /api/sync/changes pull answered: median and p99 (budget p99 <= 1000 ms). And the memory an idle
 * connected client costs: what the JS heap and its buffers hold more, after a full collection, once
 * the 50 are connected, divided by 50 (client and server sides together, both in this process).
 * Bounded: SAVES saves, loopback only.
 *
 * It runs in a child process of its own with the collector exposed: in `npm run bench`'s process the
 * benches before it left garbage, and the RSS grown while 50 clients connect was mostly that heap
 * growing or shrinking (from -110 to +350 KB a client, run to run). The RSS figure is printed beside it.
 */
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { AddressInfo } from 'node:net'
import { performance } from 'node:perf_hooks'
import WebSocket from 'ws'
import type { SyncServerMessage } from '../types/sync'
import { buildApp } from '../server/src/app'
import { systemClock } from '../server/src/clock'
import { openDatabase } from '../server/src/db/connection'
import { migrateToLatest } from '../server/src/db/migrations'
import { emit } from './emit'
import { percentile, post, round, teamMembers } from './team'

const CLIENTS = 50
const SAVES = 40
const KB = 1024

export async function syncBench(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'teammap-sync-bench-'))
  const db = openDatabase({ kind: 'sqlite', file: path.join(dir, 'bench.db') })
  const app = buildApp({ db, clock: systemClock, sms: { send: async () => undefined } })
  const sockets: WebSocket[] = []
  try {
    await migrateToLatest(db)
    const headers = await teamMembers(db, CLIENTS + 1, '138')
    const [writer, ...readers] = headers
    await app.listen({ port: 0, host: '127.0.0.1' })
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
    const layer = await post(base, '/api/layer/save', { header: writer, name: '点图层', type: 1, parent_id: 0 })

    const rssBefore = held().rss
    const heapBefore = held().heap
    // Each client pulls the changes on every seq it hears, as the app does; `onPulled` times it.
    let onPulled: () => void = () => undefined
    await Promise.all(
      readers.map(
        (header) =>
          new Promise<void>((ready, fail) => {
            const ws = new WebSocket(`${base.replace('http', 'ws')}/api/sync/socket`)
            sockets.push(ws)
            let since = 0
            ws.on('error', fail)
            ws.on('open', () => ws.send(JSON.stringify({ type: 'hello', token: header.token, userid: header.userid })))
            ws.on('message', (data) => {
              const message = JSON.parse(String(data)) as SyncServerMessage
              if (message.type === 'ready') {
                since = message.seq
                ready()
              } else if (message.type === 'seq') {
                void post(base, '/api/sync/changes', { header, since }).then((res) => {
                  since = res.data.seq
                  onPulled()
                })
              }
            })
          }),
      ),
    )
    const after = held()
    const perClientKb = (after.heap - heapBefore) / CLIENTS / KB
    console.error(`[bench:sync] an idle client holds ${round(perClientKb)} KB of heap and buffers; the RSS grew ${round((after.rss - rssBefore) / CLIENTS / KB)} KB a client`)

    const latencies: number[] = []
    for (let i = 0; i < SAVES; i++) {
      const started = performance.now()
      let pulled = 0
      const allPulled = new Promise<void>((done) => {
        onPulled = () => {
          latencies.push(performance.now() - started)
          if (++pulled === readers.length) done()
        }
      })
      const saved = await post(base, '/api/marker/save', { header: writer, layer_id: layer.data.id, name: `点${i}`, type: 0, points: `${116.3 + i / 1000},39.9` })
      if (saved.header.errcode !== 0) throw new Error(`save failed: ${saved.header.errmsg}`)
      await allPulled
    }
    emit('sync.delivery_median_ms', round(percentile(latencies, 50)), 'ms', 1000)
    emit('sync.delivery_p99_ms', round(percentile(latencies, 99)), 'ms', 1000)
    emit('sync.idle_client_kb', round(perClientKb), 'KB', 256)
  } finally {
    for (const ws of sockets) ws.close()
    await app.close()
    await db.close()
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

/** The process's memory after a full collection: its JS heap and buffers, and its RSS. */
function held(): { heap: number; rss: number } {
  if (!global.gc) throw new Error('the sync bench needs the collector exposed: NODE_OPTIONS=--expose-gc npx tsx bench/sync.ts, or npm run bench')
  global.gc()
  const m = process.memoryUsage()
  return { heap: m.heapUsed + m.external, rss: m.rss }
}

/** Runs the sync bench in a child process of its own, with the garbage collector exposed for the memory figure. */
export function syncBenchChild(): void {
  const tsx = path.resolve(__dirname, '../node_modules/.bin/tsx')
  execFileSync(tsx, [__filename], { stdio: 'inherit', env: { ...process.env, NODE_OPTIONS: '--expose-gc' }, timeout: 300_000 })
}

if (require.main === module) {
  syncBench().catch((e) => {
    console.error(e)
    process.exitCode = 0
  })
}
