/**
 * No file and no flood of requests takes the server down: zips that inflate to 1.5 GB (KMZ, Excel,
 * zipped Shapefile) are refused with their message while another client's calls are answered
 * within 2 s and the process stays under 1 GB; unauthenticated import bodies of ~30 MB are refused
 * with 401 before they are read through (within a second), never parsed or queued; and the parse
 * queue takes the groups in turn.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { ErrCode } from '../../types/api'
import { IMPORT_MSG } from '../../src/domain/importMessages'
import { FairQueue, parseTasksQueued, parseWorkerMemory } from '../../server/src/services/file-parser'
import { MAP_MSG } from '../../src/domain/messages'
import { kmzBomb, shpBomb, xlsxBomb } from '../support/zipBombs'
import { expectOk, makeLayer, makeTeam, type Team } from './mapdata-fixture'

jest.setTimeout(120_000)

const GB = 1024 * 1024 * 1024
const MIB = 1024 * 1024
/**
 * What the process may grow by while the work runs. A server alone peaks at about 280 MB here (273-280 MB measured), so
 * growing by less than this keeps it under 1 GB; the growth is what counts because `npm test` on two
 * cores runs every file in one process, which already holds the earlier files' memory (it read 1.9 GB at its peak
 * in a full run of the suite). A bomb inflated whole grows it by 1.5 GB.
 */
const MAX_GROWTH = GB - 300 * MIB

let team: Team
let layer: number
beforeEach(async () => {
  team = await makeTeam()
  layer = await makeLayer(team.t, team.owner, '点位', 1)
})
afterEach(() => team.t.close())

/**
 * Watches the server while `work` runs: another client's call every 100 ms (the longest it waited)
 * and the process's resident memory every 50 ms (how far it grew above where it started).
 */
async function watched<T>(call: () => Promise<unknown>, work: () => Promise<T>): Promise<{ result: T; slowestMs: number; rssGrowth: number }> {
  let slowestMs = 0
  const startRss = process.memoryUsage.rss()
  let maxRss = startRss
  let running = true
  const sampler = setInterval(() => (maxRss = Math.max(maxRss, process.memoryUsage.rss())), 50)
  const prober = (async () => {
    while (running) {
      const t0 = performance.now()
      await call()
      slowestMs = Math.max(slowestMs, performance.now() - t0)
      await new Promise((r) => setTimeout(r, 100))
    }
  })()
  try {
    const result = await work()
    running = false
    // The call under way when the work ended counts too.
    await prober
    return { result, slowestMs, rssGrowth: maxRss - startRss }
  } finally {
    running = false
    clearInterval(sampler)
  }
}

describe('zips that inflate to 1.5 GB', () => {
  it('are refused with 文件解压后过大 while the server answers another client within 2 s and stays under 1 GB', async () => {
    const importZip = (format: string, bytes: Buffer, file_name: string) =>
      team.t.call('/api/marker/import', { layer_id: layer, format, content: bytes.toString('base64'), encoding: 'base64', file_name }, team.owner)
    const { result, slowestMs, rssGrowth } = await watched(
      () => team.t.call('/api/layer/getlist', {}, team.member),
      () => Promise.all([importZip('kmz', kmzBomb(1536), '炸弹.kmz'), importZip('xlsx', xlsxBomb(1536), '炸弹.xlsx'), importZip('shp', shpBomb(1536), '炸弹.zip')]),
    )
    for (const res of result) expect(res).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: IMPORT_MSG.zipTooLarge })
    expect(slowestMs).toBeLessThan(2000)
    expect(rssGrowth).toBeLessThan(MAX_GROWTH)
    // The server lives on and still imports.
    const kml = '<?xml version="1.0"?><kml><Document><Placemark><name>井</name><Point><coordinates>116.4,39.9</coordinates></Point></Placemark></Document></kml>'
    expect(expectOk(await team.t.call('/api/marker/import', { layer_id: layer, format: 'kml', content: kml }, team.owner))).toMatchObject({ imported: 1 })
  })
})

describe('a parse worker that grows the process past its allowance', () => {
  it('is ended and its file refused as unreadable; the server imports the next file', async () => {
    const kml = '<?xml version="1.0"?><kml><Document><Placemark><name>井</name><Point><coordinates>116.4,39.9</coordinates></Point></Placemark></Document></kml>'
    const importKml = () => team.t.call('/api/marker/import', { layer_id: layer, format: 'kml', content: kml }, team.owner)
    const allowance = parseWorkerMemory.mb
    // A worker's own start takes more than 1 MB: with that allowance every parse is ended.
    parseWorkerMemory.mb = 1
    try {
      expect(await importKml()).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: MAP_MSG.importUnreadable })
    } finally {
      parseWorkerMemory.mb = allowance
    }
    expect(expectOk(await importKml())).toMatchObject({ imported: 1 })
  })
})

interface Refusal {
  status: number
  ms: number
}

/**
 * Starts an import of `declared` bytes and sends only `prefix` of it: the server must answer
 * before the rest (which never comes) is read.
 */
function partialImport(port: number, prefix: Buffer, declared: number): Promise<Refusal> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now()
    const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: '/api/marker/import', headers: { 'content-type': 'application/json', 'content-length': declared } })
    const giveUp = setTimeout(() => {
      req.destroy()
      reject(new Error('no answer before the body was sent'))
    }, 10_000)
    req.on('response', (res) => {
      clearTimeout(giveUp)
      res.resume()
      resolve({ status: res.statusCode ?? 0, ms: performance.now() - t0 })
      req.destroy()
    })
    req.on('error', (err) => {
      if (!giveUp.hasRef()) return
      clearTimeout(giveUp)
      reject(err)
    })
    req.write(prefix)
  })
}

describe('unauthenticated import bodies', () => {
  const DECLARED = 30 * MIB
  const filler = (bytes: number) => 'x'.repeat(bytes)

  it('are refused with 401 within a second before their ~30 MB are read, never queued, while another client is answered', async () => {
    const { app } = team.t
    await app.listen({ port: 0, host: '127.0.0.1' })
    const { port } = app.server.address() as AddressInfo
    const queuedBefore = parseTasksQueued()
    // Three shapes of a flood: a made-up token in the leading header, no token, and the header after the file (an old client's order).
    const badToken = Buffer.from(`{"header":{"userid":${team.owner.userid},"token":"guessed"},"layer_id":${layer},"format":"csv","content":"${filler(320 * 1024)}`)
    const noToken = Buffer.from(`{"header":{"userid":"","token":""},"layer_id":${layer},"format":"csv","content":"${filler(320 * 1024)}`)
    const headerLast = Buffer.from(`{"layer_id":${layer},"format":"csv","content":"${filler(320 * 1024)}`)
    const other = () => fetch(`http://127.0.0.1:${port}/api/layer/getlist`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ header: { ...team.member } }) })
    // Waves of 30 at once for a while, so that the other client calls throughout.
    const { result, slowestMs, rssGrowth } = await watched(other, async () => {
      const refusals: Refusal[] = []
      for (let wave = 0; wave < 8; wave++) refusals.push(...(await Promise.all(Array.from({ length: 30 }, (_, i) => partialImport(port, [badToken, noToken, headerLast][i % 3], DECLARED)))))
      return refusals
    })
    expect(result).toHaveLength(240)
    for (const refusal of result) {
      expect(refusal.status).toBe(401)
      expect(refusal.ms).toBeLessThan(1000)
    }
    expect(parseTasksQueued()).toBe(queuedBefore)
    expect(slowestMs).toBeLessThan(2000)
    expect(rssGrowth).toBeLessThan(MAX_GROWTH)
  })

  it('with a valid session leading the body are read whole and imported', async () => {
    const { app } = team.t
    await app.listen({ port: 0, host: '127.0.0.1' })
    const { port } = app.server.address() as AddressInfo
    const rows = Array.from({ length: 9000 }, (_, i) => `标注${i}-${'号'.repeat(10)},${116 + i / 1e5},39.9`).join('\n')
    const body = JSON.stringify({ header: team.owner, layer_id: layer, format: 'csv', content: `name,lng,lat\n${rows}`, crs: 'gcj02' })
    expect(Buffer.byteLength(body)).toBeGreaterThan(256 * 1024)
    await team.t.db.kysely.updateTable('groups').set({ marker_limit: 30_000 }).where('id', '=', team.groupId).execute()
    const res = await fetch(`http://127.0.0.1:${port}/api/marker/import`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
    expect(res.status).toBe(200)
    expect(((await res.json()) as { data: { imported: number } }).data.imported).toBe(9000)
  })
})

describe('the parse queue', () => {
  it('takes the groups waiting in turn: one group queuing five files does not hold another group’s one', async () => {
    const queue = new FairQueue()
    const order: string[] = []
    const job = (name: string) => async () => {
      order.push(name)
      await new Promise((r) => setTimeout(r, 1))
    }
    const runs = ['a1', 'a2', 'a3', 'a4', 'a5'].map((name) => queue.run('group:1', job(name)))
    runs.push(queue.run('group:2', job('b1')))
    await Promise.all(runs)
    expect(order.indexOf('b1')).toBeLessThanOrEqual(2)
    expect(order.filter((n) => n.startsWith('a'))).toEqual(['a1', 'a2', 'a3', 'a4', 'a5'])
  })

  it('runs one job at a time and carries on past a failed one', async () => {
    const queue = new FairQueue()
    let running = 0
    let most = 0
    const job = (fail: boolean) => async () => {
      most = Math.max(most, ++running)
      await new Promise((r) => setTimeout(r, 1))
      running--
      if (fail) throw new Error('bad file')
      return 'ok'
    }
    const results = await Promise.allSettled([queue.run('g', job(false)), queue.run('h', job(true)), queue.run('g', job(false))])
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled'])
    expect(most).toBe(1)
  })
})
