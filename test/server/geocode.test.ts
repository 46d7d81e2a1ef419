/**
 * A table with addresses and no coordinates, placed through AMap's web-service geocoder: here a
 * local server that answers as restapi.amap.com does (batch=true: one geocode per address, in
 * order, location '' or [] where it found nothing; status '0' with info when it refuses).
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { ErrCode } from '../../types/api'
import { IMPORT_MSG } from '../../src/domain/importMessages'
import { AmapGeocoder } from '../../server/src/services/geocode'
import { makeTestApp } from './helpers'
import { expectOk, makeLayer, makeTeam, type Team } from './mapdata-fixture'

// Each test starts its own app (on PostgreSQL a schema migrated from nothing) inside the test.
jest.setTimeout(30_000)

const KNOWN: Record<string, string> = {
  北京市东城区东长安街1号: '116.403963,39.915119',
  北京市海淀区中关村大街27号: '116.316833,39.983245',
}

let amap: http.Server
let base: string
const asked: URLSearchParams[] = []
/** While set, AMap's answers wait for it (an import held in its geocoding phase). */
let hold: Promise<void> | null = null
const logged: string[] = []

beforeAll(async () => {
  amap = http.createServer((req, res) => {
    const query = new URL(req.url ?? '/', 'http://x').searchParams
    asked.push(query)
    void (hold ?? Promise.resolve()).then(() => answer(query, res))
  })
  const answer = (query: URLSearchParams, res: http.ServerResponse) => {
    res.setHeader('content-type', 'application/json')
    if (query.get('key') !== 'good-key') return res.end(JSON.stringify({ status: '0', info: 'INVALID_USER_KEY', infocode: '10001' }))
    const addresses = (query.get('address') ?? '').split('|')
    res.end(JSON.stringify({ status: '1', info: 'OK', count: String(addresses.length), geocodes: addresses.map((a) => ({ formatted_address: a, location: KNOWN[a] ?? [] })) }))
  }
  await new Promise<void>((resolve) => amap.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(amap.address() as AddressInfo).port}`
})
afterAll(() => new Promise((resolve) => amap.close(resolve)))

let team: Team
let layer: number
const start = async (key?: string) => {
  asked.length = 0
  team = await makeTeam(await makeTestApp({ geocoder: key ? new AmapGeocoder(key, base, (m) => logged.push(m), 0) : undefined }))
  layer = await makeLayer(team.t, team.owner, '网点', 1)
}
afterEach(() => team.t.close())

const importCsv = (csv: string) => team.t.call('/api/marker/import', { layer_id: layer, format: 'csv', content: csv, file_name: '网点.csv' }, team.owner)

describe('importing a table of addresses', () => {
  it('places each row at its address, in GCJ-02 as AMap answers it', async () => {
    await start('good-key')
    const res = expectOk(await importCsv('名称,地址\n天安门,北京市东城区东长安街1号\n中关村,北京市海淀区中关村大街27号\n'))
    expect(res.imported).toBe(2)
    const list = expectOk(await team.t.call('/api/marker/getlist', { layer_ids: [layer], pageindex: 1, pagesize: 50 }, team.owner)).list
    expect(list.map((m: { name: string; points: string }) => [m.name, m.points])).toEqual([
      ['天安门', '116.403963,39.915119'],
      ['中关村', '116.316833,39.983245'],
    ])
    expect(asked).toHaveLength(1)
    expect(asked[0].get('batch')).toBe('true')
  })

  it('names every address it cannot place by row and imports nothing', async () => {
    await start('good-key')
    const res = expectOk(await importCsv('名称,地址\n天安门,北京市东城区东长安街1号\n无名,火星某处\n空,\n'))
    expect(res.imported).toBe(0)
    expect(res.errors).toEqual([
      { row: 3, message: IMPORT_MSG.addressNotFound('火星某处') },
      { row: 4, message: IMPORT_MSG.addressMissing },
    ])
  })

  it('asks ten distinct addresses a request', async () => {
    await start('good-key')
    const rows = Array.from({ length: 23 }, (_, i) => `点${i},北京市东城区东长安街1号${i % 21}`)
    expectOk(await importCsv(['名称,地址', ...rows].join('\n')))
    expect(asked.map((q) => (q.get('address') ?? '').split('|').length)).toEqual([10, 10, 1])
  })

  it('says what to do on a server without the geocoder, and when AMap refuses the key', async () => {
    await start()
    expect(await importCsv('名称,地址\n天安门,北京市东城区东长安街1号\n')).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: IMPORT_MSG.geocodeUnavailable })
    await team.t.close()
    await start('revoked-key')
    expect(await importCsv('名称,地址\n天安门,北京市东城区东长安街1号\n')).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: IMPORT_MSG.geocodeFailed })
    expect(logged.at(-1)).toBe('AMap geocoder refused: INVALID_USER_KEY')
    expect(expectOk(await team.t.call('/api/marker/getlist', { layer_ids: [layer], pageindex: 1, pagesize: 50 }, team.owner)).list).toEqual([])
  })
})

describe('the progress of an import, and cancelling it', () => {
  const csv = '名称,地址\n天安门,北京市东城区东长安街1号\n中关村,北京市海淀区中关村大街27号\n'
  const progressOf = (import_id: string, auth = team.owner) => team.t.call('/api/marker/import/progress', { import_id }, auth)
  const until = async (import_id: string, phase: string) => {
    for (let i = 0; i < 200 && (await progressOf(import_id)).data?.phase !== phase; i++) await new Promise((r) => setTimeout(r, 20))
  }

  it('says which phase an import is in, stops it on cancel before writing, and writes nothing', async () => {
    await start('good-key')
    let release!: () => void
    hold = new Promise<void>((r) => (release = r))
    const import_id = 'imp-0001-abcd'
    const pending = team.t.call('/api/marker/import', { layer_id: layer, format: 'csv', content: csv, file_name: '网点.csv', import_id }, team.owner)
    await until(import_id, 'geocoding')
    expect(expectOk(await progressOf(import_id))).toEqual({ phase: 'geocoding', done: 0, total: 2 })
    // Another member sees nothing of it and cannot stop it.
    expect(expectOk(await progressOf(import_id, team.member))).toBeNull()
    expect(expectOk(await team.t.call('/api/marker/import/cancel', { import_id }, team.member))).toEqual({ cancelled: false })
    expect(expectOk(await team.t.call('/api/marker/import/cancel', { import_id }, team.owner))).toEqual({ cancelled: true })
    hold = null
    release()
    expect(await pending).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: IMPORT_MSG.cancelled })
    expect(expectOk(await progressOf(import_id)).phase).toBe('cancelled')
    expect(expectOk(await team.t.call('/api/marker/getlist', { layer_ids: [layer], pageindex: 1, pagesize: 50 }, team.owner)).list).toEqual([])
  })

  it('ends done, and then can no longer be cancelled', async () => {
    await start('good-key')
    const import_id = 'imp-0002-abcd'
    expect(expectOk(await team.t.call('/api/marker/import', { layer_id: layer, format: 'csv', content: csv, file_name: '网点.csv', import_id }, team.owner)).imported).toBe(2)
    expect(expectOk(await progressOf(import_id)).phase).toBe('done')
    expect(expectOk(await team.t.call('/api/marker/import/cancel', { import_id }, team.owner))).toEqual({ cancelled: false })
    expect(await team.t.call('/api/marker/import/progress', { import_id: 'bad id!' }, team.owner)).toMatchObject({ errcode: ErrCode.VALIDATION })
  })
})
