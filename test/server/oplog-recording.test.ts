/**
 * The operation log as layer and marker changes write it: one entry per create, update, delete and
 * restore, in the same transaction, with the presented entity before and after. Restoring (which
 * the log's restore call uses) brings back exactly what a delete took.
 */
import { ErrCode } from '../../types/api'
import { MAP_MSG } from '../../src/domain/messages'
import { inTransaction } from '../../server/src/db/connection'
import { restoreLayer } from '../../server/src/services/layers'
import { restoreMarker } from '../../server/src/services/markers'
import { mapCaller } from '../../server/src/services/permissions'
import { expectOk, makeLayer, makeMarker, makeTeam, type Team } from './mapdata-fixture'

let team: Team
beforeEach(async () => {
  team = await makeTeam()
})
afterEach(() => team.t.close())

const call = (path: string, body: object, auth = team.owner) => team.t.call(path, body, auth)

async function log() {
  const rows = await team.t.db.kysely.selectFrom('oplog').selectAll().where('group_id', '=', team.groupId).orderBy('id').execute()
  return rows.map((r) => ({ ...r, before: r.before && JSON.parse(r.before), after: r.after && JSON.parse(r.after) }))
}

async function owner() {
  return mapCaller(team.t.db.kysely, { userId: team.owner.userid as number, sessionId: 0, token: '' })
}

async function restoreLayerNow(id: number) {
  const who = await owner()
  return inTransaction(team.t.db, (trx) => restoreLayer(trx, who, id, team.t.clock.now()))
}

async function restoreMarkerNow(id: number) {
  const who = await owner()
  return inTransaction(team.t.db, (trx) => restoreMarker(trx, who, id, team.t.clock.now()))
}

describe('layer changes in the log', () => {
  it('should record a create, a rename and a delete with who, when and the layer before and after', async () => {
    const { t } = team
    const created = expectOk(await call('/api/layer/save', { name: '水井', type: 1 }))
    t.clock.advance(1000)
    expectOk(await call('/api/layer/save', { id: created.id, name: '新水井' }))
    await makeMarker(t, team.owner, created.id)
    t.clock.advance(1000)
    expectOk(await call('/api/layer/delete', { id: created.id }))

    const entries = (await log()).filter((e) => e.entity === 'layer')
    expect(entries.map((e) => [e.action, e.name, e.user_id, e.entity_id])).toEqual([
      ['create', '水井', team.owner.userid, created.id],
      ['update', '新水井', team.owner.userid, created.id],
      ['delete', '新水井', team.owner.userid, created.id],
    ])
    const record = { id: created.id, name: '水井', parent_id: 0, type: 1, marker_count: 0, sort: 0, is_default: true, rev: 1, created_at: created.created_at, updated_at: created.created_at }
    expect(entries[0]).toMatchObject({ before: null, after: record, at: created.created_at })
    expect(entries[1].before).toEqual(record)
    expect(entries[1].after).toMatchObject({ name: '新水井', updated_at: entries[1].at })
    expect(entries[2]).toMatchObject({ before: { name: '新水井', marker_count: 1 }, after: null, at: t.clock.now().toISOString() })
  })

  it('should record a folder delete as one entry carrying the count of markers that went', async () => {
    const { t } = team
    const folder = await makeLayer(t, team.owner, '片区', 0)
    const a = await makeLayer(t, team.owner, 'A', 1, folder)
    await makeMarker(t, team.owner, a)
    await makeMarker(t, team.owner, a)
    const before = (await log()).length
    expectOk(await call('/api/layer/delete', { id: folder }))
    const after = await log()
    expect(after).toHaveLength(before + 1)
    expect(after[after.length - 1]).toMatchObject({ entity: 'layer', entity_id: folder, action: 'delete', before: { type: 0, marker_count: 2 } })
  })

  it('should record both layers when the default of a kind moves', async () => {
    const { t } = team
    const first = await makeLayer(t, team.owner, '点1', 1)
    const second = await makeLayer(t, team.owner, '点2', 1)
    expectOk(await call('/api/layer/setting/default', { id: second }))
    const updates = (await log()).filter((e) => e.action === 'update')
    expect(updates.map((e) => [e.entity_id, e.before.is_default, e.after.is_default])).toEqual([
      [first, true, false],
      [second, false, true],
    ])
  })

  it('should write nothing to the log when a change is refused', async () => {
    const { t } = team
    const layer = await makeLayer(t, team.owner, '水井', 1)
    const before = await log()
    expect((await call('/api/layer/save', { name: '坏', type: 1, parent_id: layer })).errcode).toBe(ErrCode.VALIDATION)
    expect((await call('/api/layer/save', { id: layer, name: '' })).errcode).toBe(ErrCode.VALIDATION)
    expect((await call('/api/marker/save', { layer_id: layer, name: '坏', type: 0, points: '500,39' })).errcode).toBe(ErrCode.VALIDATION)
    expect((await call('/api/layer/delete', { id: layer }, team.member)).errcode).toBe(ErrCode.FORBIDDEN)
    expect(await log()).toEqual(before)
  })
})

describe('marker changes in the log', () => {
  it('should record a create, an update and a delete with the marker as the API presents it', async () => {
    const { t } = team
    const layer = await makeLayer(t, team.owner, '水井', 1)
    const created = expectOk(await call('/api/marker/save', { layer_id: layer, name: '1号井', type: 0, points: '116.4,39.9' }))
    t.clock.advance(1000)
    const updated = expectOk(await call('/api/marker/save', { id: created.id, layer_id: layer, name: '一号井', type: 0, points: '116.5,39.9' }))
    t.clock.advance(1000)
    expectOk(await call('/api/marker/delete', { id: created.id }))

    const entries = (await log()).filter((e) => e.entity === 'marker')
    expect(entries.map((e) => [e.action, e.name, e.entity_id])).toEqual([
      ['create', '1号井', created.id],
      ['update', '一号井', created.id],
      ['delete', '一号井', created.id],
    ])
    expect(entries[0]).toMatchObject({ before: null, after: created })
    expect(entries[1]).toMatchObject({ before: created, after: updated })
    expect(entries[2]).toMatchObject({ before: updated, after: null, at: t.clock.now().toISOString() })
  })
})

describe('restoring from the log', () => {
  it('should bring back a folder with exactly what was deleted with it, and log the restore', async () => {
    const { t } = team
    const folder = await makeLayer(t, team.owner, '片区', 0)
    const sub = await makeLayer(t, team.owner, '子文件夹', 0, folder)
    const a = await makeLayer(t, team.owner, 'A', 1, sub)
    const kept = await makeMarker(t, team.owner, a, { name: '留着' })
    const earlier = await makeMarker(t, team.owner, a, { name: '早删了' })
    expectOk(await call('/api/marker/delete', { id: earlier }))
    t.clock.advance(1000)
    expectOk(await call('/api/layer/delete', { id: folder }))
    t.clock.advance(1000)

    expect(await restoreLayerNow(folder)).toEqual({ layers: 2, markers: 1 })

    const layers = expectOk(await call('/api/layer/getlist', {}))
    expect(layers.map((l: any) => [l.id, l.marker_count])).toEqual([
      [folder, 1],
      [sub, 1],
      [a, 1],
    ])
    expect(expectOk(await call('/api/marker/getbyid', { ids: [kept, earlier] })).map((m: any) => m.id)).toEqual([kept])
    const last = (await log()).pop()!
    expect(last).toMatchObject({ entity: 'layer', entity_id: folder, action: 'restore', before: null, after: { id: folder, marker_count: 1 } })
  })

  it('should bring a layer back at the root when its folder is still deleted, and not as a second default', async () => {
    const { t } = team
    const folder = await makeLayer(t, team.owner, '片区', 0)
    const layer = await makeLayer(t, team.owner, '图层', 1, folder)
    expectOk(await call('/api/layer/delete', { id: layer }))
    t.clock.advance(1000)
    expectOk(await call('/api/layer/delete', { id: folder }))
    const newDefault = await makeLayer(t, team.owner, '新图层', 1)
    await restoreLayerNow(layer)
    const byId = new Map(expectOk(await call('/api/layer/getlist', {})).map((l: any) => [l.id, l]))
    expect(byId.get(layer)).toMatchObject({ parent_id: 0, is_default: false })
    expect(byId.get(newDefault)).toMatchObject({ is_default: true })
  })

  it('should bring back a deleted marker and log it, but not while its layer is deleted', async () => {
    const { t } = team
    const layer = await makeLayer(t, team.owner, '图层', 1)
    const marker = await makeMarker(t, team.owner, layer, { name: '井' })
    expectOk(await call('/api/marker/delete', { id: marker }))
    await restoreMarkerNow(marker)
    expect(expectOk(await call('/api/marker/getbyid', { ids: [marker] })).map((m: any) => m.name)).toEqual(['井'])
    expect((await log()).pop()).toMatchObject({ entity: 'marker', entity_id: marker, action: 'restore', after: { id: marker, name: '井' } })

    expectOk(await call('/api/marker/delete', { id: marker }))
    t.clock.advance(1000)
    expectOk(await call('/api/layer/delete', { id: layer }))
    await expect(restoreMarkerNow(marker)).rejects.toMatchObject({ errcode: ErrCode.CONFLICT, message: MAP_MSG.restoreNotPossible })
  })

  it('should refuse to restore what is not deleted', async () => {
    const layer = await makeLayer(team.t, team.owner, '图层', 1)
    const marker = await makeMarker(team.t, team.owner, layer)
    await expect(restoreLayerNow(layer)).rejects.toMatchObject({ errcode: ErrCode.CONFLICT })
    await expect(restoreMarkerNow(marker)).rejects.toMatchObject({ errcode: ErrCode.CONFLICT })
  })

  it('should keep the marker limit when restoring and change nothing when it would pass it', async () => {
    const { t } = team
    const layer = await makeLayer(t, team.owner, '图层', 1)
    const marker = await makeMarker(t, team.owner, layer)
    await makeMarker(t, team.owner, layer)
    expectOk(await call('/api/marker/delete', { id: marker }))
    await t.db.kysely.updateTable('groups').set({ marker_limit: 1 }).where('id', '=', team.groupId).execute()
    await expect(restoreMarkerNow(marker)).rejects.toMatchObject({ errcode: ErrCode.LIMIT_REACHED, message: MAP_MSG.markerLimit(1) })

    expectOk(await call('/api/layer/delete', { id: layer }))
    await makeMarker(t, team.owner, await makeLayer(t, team.owner, '另一个', 1))
    const logged = (await log()).length
    await expect(restoreLayerNow(layer)).rejects.toMatchObject({ errcode: ErrCode.LIMIT_REACHED })
    expect((await log()).length).toBe(logged)
    const row = await t.db.kysely.selectFrom('layers').select('deleted_at').where('id', '=', layer).executeTakeFirstOrThrow()
    expect(row.deleted_at).not.toBeNull()
  })
})
