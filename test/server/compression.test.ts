/** Responses are compressed when the client accepts it, and decode to the same body as when it does not. */
import zlib from 'node:zlib'
import { inTransaction } from '../../server/src/db/connection'
import { insertMarkers, searchTextOf } from '../../server/src/db/markers'
import { makeLayer, makeTeam, type Team } from './mapdata-fixture'

let team: Team
beforeEach(async () => {
  team = await makeTeam()
})
afterEach(() => team.t.close())

async function pageAsked(layerId: number, encoding?: string) {
  const header = { userid: team.owner.userid, groupid: '', token: team.owner.token, device: 'app_h5', os: 'android' }
  return team.t.app.inject({
    method: 'POST',
    url: '/api/marker/getlist',
    headers: encoding ? { 'accept-encoding': encoding } : {},
    payload: { layer_ids: [layerId], pageindex: 1, pagesize: 5000, header },
  })
}

describe('response compression', () => {
  it('should send a marker page gzipped or brotli-compressed when asked, decoding to the same JSON as the plain page', async () => {
    const { t, owner } = team
    const layerId = await makeLayer(t, owner, '网点', 1)
    const now = t.clock.now().toISOString()
    await inTransaction(t.db, async (trx) => {
      await insertMarkers(
        trx,
        Array.from({ length: 200 }, (_, i) => ({
          group_id: team.groupId,
          layer_id: layerId,
          name: `网点${i}`,
          type: 0,
          points: `${116 + i / 1000},39.9`,
          style: '{"color":"#165DFF","size":32}',
          width: 32,
          radius: 0,
          sort: 0,
          fields: '{}',
          search_text: searchTextOf(`网点${i}`, {}),
          min_lng: 116 + i / 1000,
          min_lat: 39.9,
          max_lng: 116 + i / 1000,
          max_lat: 39.9,
          creator_id: owner.userid as number,
          created_at: now,
          updated_at: now,
          deleted_at: null,
        })),
      )
    })
    const plain = await pageAsked(layerId)
    expect(plain.headers['content-encoding']).toBeUndefined()
    const body = JSON.parse(plain.body)
    expect(body.data.list).toHaveLength(200)

    const gzipped = await pageAsked(layerId, 'gzip')
    expect(gzipped.headers['content-encoding']).toBe('gzip')
    expect(gzipped.rawPayload.length).toBeLessThan(plain.rawPayload.length / 4)
    expect(JSON.parse(zlib.gunzipSync(gzipped.rawPayload).toString())).toEqual(body)

    const brotli = await pageAsked(layerId, 'br, gzip')
    expect(brotli.headers['content-encoding']).toBe('br')
    expect(JSON.parse(zlib.brotliDecompressSync(brotli.rawPayload).toString())).toEqual(body)
  })

  it('should leave a small answer uncompressed', async () => {
    const res = await team.t.app.inject({ method: 'POST', url: '/api/system/get/config', headers: { 'accept-encoding': 'gzip' }, payload: {} })
    expect(res.headers['content-encoding']).toBeUndefined()
  })
})
