/** The kept marker counts (which the marker limit reads) equal the live markers after every kind of change. */
import { sql } from 'kysely'
import { countGroupMarkers } from '../../server/src/db/markers'
import { expectOk, makeLayer, makeMarker, makeTeam, type Team } from './mapdata-fixture'

// One long journey of saves, deletes, restores, an import and a reset: more than the default 5 s on a busy machine.
jest.setTimeout(30_000)

let team: Team
beforeEach(async () => {
  team = await makeTeam()
})
afterEach(() => team.t.close())

async function liveCount(groupId: number): Promise<number> {
  const { rows } = await sql<{ n: number | string }>`select count(*) as n from markers where group_id = ${groupId} and deleted_at is null`.execute(team.t.db.kysely)
  return Number(rows[0].n)
}

async function expectInStep(): Promise<number> {
  const live = await liveCount(team.groupId)
  expect(await countGroupMarkers(team.t.db.kysely, team.groupId)).toBe(live)
  const drifted = await sql<{ id: number }>`select id from layers where marker_count <> (select count(*) from markers where markers.layer_id = layers.id and markers.deleted_at is null)`.execute(
    team.t.db.kysely,
  )
  expect(drifted.rows).toEqual([])
  return live
}

const save = (layer_id: number, i: number) => team.t.call('/api/marker/save', { layer_id, name: `点${i}`, type: 0, points: `116.${i},39.9` }, team.owner)

describe('kept marker counts', () => {
  it('should equal COUNT(*) of live markers after concurrent saves, deletes, restores, an import, a layer delete and restore, and a reset to free', async () => {
    const { t, owner } = team
    await t.db.kysely.updateTable('groups').set({ marker_limit: 10_000 }).execute()
    const a = await makeLayer(t, owner, 'A', 1)
    const b = await makeLayer(t, owner, 'B', 1)

    const saved = await Promise.all(Array.from({ length: 40 }, (_, i) => save(i % 2 ? b : a, i)))
    const ids = saved.map((r) => expectOk(r).id as number)
    expect(await expectInStep()).toBe(40)

    await Promise.all([...ids.slice(0, 10).map((id) => t.call('/api/marker/delete', { id }, owner)), ...Array.from({ length: 10 }, (_, i) => save(a, 100 + i))])
    expect(await expectInStep()).toBe(40)

    const deletes = await t.db.kysely.selectFrom('oplog').select('id').where('action', '=', 'delete').where('entity', '=', 'marker').execute()
    await Promise.all(deletes.slice(0, 5).map((op) => t.call('/api/oplog/restore', { id: op.id }, owner)))
    expect(await expectInStep()).toBe(45)

    const features = Array.from({ length: 30 }, (_, i) => ({ type: 'Feature', properties: { name: `导入${i}` }, geometry: { type: 'Point', coordinates: [116.4 + i / 100, 39.9] } }))
    expectOk(await t.call('/api/marker/import', { layer_id: b, format: 'geojson', content: JSON.stringify({ type: 'FeatureCollection', features }) }, owner))
    expect(await expectInStep()).toBe(75)

    expectOk(await t.call('/api/layer/delete', { id: b }, owner))
    const afterLayerDelete = await expectInStep()
    const layerOp = await t.db.kysely.selectFrom('oplog').select('id').where('entity', '=', 'layer').where('action', '=', 'delete').executeTakeFirstOrThrow()
    expectOk(await t.call('/api/oplog/restore', { id: layerOp.id }, owner))
    expect(await expectInStep()).toBeGreaterThan(afterLayerDelete)

    await makeMarker(t, owner, a)
    // Past the trial, a reset to free hides all but the latest markers.
    t.clock.advance(8 * 24 * 3600 * 1000)
    expect(expectOk(await t.call('/api/vip/recovery', { remarks: '不再续费' }, owner)).hidden_markers).toBeGreaterThan(0)
    expect(await expectInStep()).toBeLessThan(afterLayerDelete)
  })
})
