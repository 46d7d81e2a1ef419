/** The group's change log (types/sync.ts) and /api/sync/changes: what each change appends, and what each caller may read of it. */
import type { SyncChange, SyncChangesRes } from '../../types/sync'
import { CHANGES_LIMIT_MAX, PRUNE_EVERY } from '../../server/src/services/sync'
import { expectOk, grant, makeLayer, makeMarker, makeTeam, setMarkerLimit, type Team } from './mapdata-fixture'
import { makeWorld, ok, type TeamWorld } from './teams-fixture'
import { passTrial } from './vip-fixture'

let team: Team
let layer: number
beforeEach(async () => {
  team = await makeTeam()
  layer = await makeLayer(team.t, team.owner, '点图层', 1)
})
afterEach(() => team.t.close())

const call = (path: string, body: object, auth = team.owner) => team.t.call(path, body, auth)
const changes = async (since: number, auth = team.owner, limit?: number): Promise<SyncChangesRes> => expectOk(await call('/api/sync/changes', { since, ...(limit ? { limit } : {}) }, auth))
const point = (over: object = {}) => ({ layer_id: layer, name: '标注', type: 0, points: '116.397428,39.90923', ...over })

async function logRows() {
  return team.t.db.kysely.selectFrom('sync_changes').select(['seq', 'kind', 'entity_id', 'op', 'rev', 'layer_id', 'marker_id']).where('group_id', '=', team.groupId).orderBy('seq').execute()
}

async function seqNow(): Promise<number> {
  return (await changes(0)).seq
}

const brief = (list: SyncChange[]) => list.map((c) => `${c.kind}:${c.id}:${c.op}:${c.rev}`)

describe('the change log', () => {
  it("should number each group's entries 1, 2, 3 ... in the order of the changes", async () => {
    const id = await makeMarker(team.t, team.owner, layer)
    expectOk(await call('/api/marker/save', point({ id, name: '改名' })))
    const rows = await logRows()
    expect(rows.map((r) => r.seq)).toEqual([1, 2, 3])
    expect(rows.map((r) => `${r.kind}:${r.entity_id}:${r.op}:${r.rev}`)).toEqual([`layer:${layer}:upsert:1`, `marker:${id}:upsert:1`, `marker:${id}:upsert:2`])
  })

  it('should log a delete and a restore from the operation log with the rev each left', async () => {
    const id = await makeMarker(team.t, team.owner, layer)
    const since = await seqNow()
    expectOk(await call('/api/marker/delete', { id }))
    expect(brief((await changes(since)).changes)).toEqual([`marker:${id}:delete:2`])
    const entry = expectOk(await call('/api/oplog/getlist', { pageindex: 1, pagesize: 5, entity: 'marker', action: 'delete' })).list[0]
    const before = await seqNow()
    expectOk(await call('/api/oplog/restore', { id: entry.id }))
    expect(brief((await changes(before)).changes)).toEqual([`marker:${id}:upsert:3`])
  })

  it('should write nothing to the log when a save is refused', async () => {
    const id = await makeMarker(team.t, team.owner, layer)
    expectOk(await call('/api/marker/save', point({ id, name: '他人' })))
    const before = await logRows()
    expect((await call('/api/marker/save', point({ id, name: '过期', rev: 1 }))).errcode).not.toBe(0)
    expect(await logRows()).toEqual(before)
  })

  it('should log a move as a delete in the old layer and an upsert in the new one', async () => {
    const other = await makeLayer(team.t, team.owner, '另一个', 1)
    const id = await makeMarker(team.t, team.owner, layer)
    const since = await seqNow()
    expectOk(await call('/api/marker/save', point({ id, layer_id: other })))
    const rows = (await logRows()).filter((r) => r.seq > since)
    expect(rows.map((r) => [r.op, r.layer_id])).toEqual([
      ['delete', layer],
      ['upsert', other],
    ])
    // A member who reads only the old layer learns that the marker left it.
    await grant(team, layer, team.member, ['layer_data_list'])
    expect(brief((await changes(since, team.member)).changes)).toEqual([`marker:${id}:delete:2`])
    // One who reads both sees where it is now.
    expect((await changes(since)).changes).toEqual([expect.objectContaining({ kind: 'marker', id, op: 'upsert', layer_id: other })])
  })

  it('should log one entry per imported marker', async () => {
    const since = await seqNow()
    const content = JSON.stringify({
      type: 'FeatureCollection',
      features: [1, 2, 3].map((i) => ({ type: 'Feature', properties: { name: `导入${i}` }, geometry: { type: 'Point', coordinates: [116.4 + i / 100, 39.9] } })),
    })
    expect(expectOk(await call('/api/marker/import', { layer_id: layer, format: 'geojson', content })).imported).toBe(3)
    const list = (await changes(since)).changes
    expect(list).toHaveLength(3)
    expect(list.every((c) => c.kind === 'marker' && c.op === 'upsert' && c.layer_id === layer && c.rev === 1)).toBe(true)
  })

  it('should log a layer delete as one entry per layer and folder it takes, and its restore with the markers that come back', async () => {
    const folder = await makeLayer(team.t, team.owner, '文件夹', 0)
    const inner = await makeLayer(team.t, team.owner, '里面', 1, folder)
    const id = await makeMarker(team.t, team.owner, inner)
    const since = await seqNow()
    expectOk(await call('/api/layer/delete', { id: folder }))
    expect(brief((await changes(since)).changes).sort()).toEqual([`layer:${folder}:delete:2`, `layer:${inner}:delete:2`].sort())
    const entry = expectOk(await call('/api/oplog/getlist', { pageindex: 1, pagesize: 5, entity: 'layer', action: 'delete' })).list[0]
    const before = await seqNow()
    expectOk(await call('/api/oplog/restore', { id: entry.id }))
    const back = (await changes(before)).changes
    expect(back.map((c) => `${c.kind}:${c.id}:${c.op}`).sort()).toEqual([`layer:${folder}:upsert`, `layer:${inner}:upsert`, `marker:${id}:upsert`].sort())
  })

  it('should log notes, field definitions and title styles in their layer', async () => {
    const markerId = await makeMarker(team.t, team.owner, layer)
    const since = await seqNow()
    const note = expectOk(await call('/api/marker/note/save', { marker_id: markerId, content: '备注' }))
    const field = expectOk(await call('/api/layer/field/save', { layer_id: layer, name: '电话', kind: 'phone' }))
    const style = expectOk(await call('/api/system/title/style/save', { layer_id: layer, font_size: 16 }))
    const defaultStyle = expectOk(await call('/api/system/title/style/save', { font_size: 15 }))
    expectOk(await call('/api/marker/note/delete', { ids: [note.id] }))
    expectOk(await call('/api/layer/field/delete', { id: field.id }))
    const list = (await changes(since)).changes
    expect(list).toEqual([
      expect.objectContaining({ kind: 'title_style', id: style.id, op: 'upsert', layer_id: layer }),
      expect.objectContaining({ kind: 'title_style', id: defaultStyle.id, op: 'upsert', layer_id: 0 }),
      { seq: expect.any(Number), kind: 'note', id: note.id, op: 'delete', rev: 2, layer_id: layer, marker_id: markerId },
      expect.objectContaining({ kind: 'field', id: field.id, op: 'delete', rev: 2, layer_id: layer }),
    ])
  })

  it('should log a permission change as a layer upsert the member it concerns reads as an upsert, and as a delete once it is taken away', async () => {
    const since = await seqNow()
    expectOk(await call('/api/layer/save/auth', { layer_id: layer, user_id: team.member.userid, opts: ['layer_data_list'] }))
    expect(brief((await changes(since, team.member)).changes)).toEqual([`layer:${layer}:upsert:1`])
    const granted = await seqNow()
    expectOk(await call('/api/layer/save/auth', { layer_id: layer, user_id: team.member.userid, opts: [] }))
    expect(brief((await changes(granted, team.member)).changes)).toEqual([`layer:${layer}:delete:1`])
  })
})

describe('/api/sync/changes', () => {
  it('should answer the current seq and no changes for since 0', async () => {
    await makeMarker(team.t, team.owner, layer)
    expect(await changes(0)).toEqual({ seq: 2, changes: [], more: false, reload: false })
  })

  it('should never tell a member about a layer they cannot read, its markers or its notes', async () => {
    const secret = await makeLayer(team.t, team.owner, '机密', 1)
    await grant(team, layer, team.member, ['layer_data_list'])
    const open = await makeMarker(team.t, team.owner, layer)
    const hidden = await makeMarker(team.t, team.owner, secret)
    expectOk(await call('/api/marker/note/save', { marker_id: hidden, content: '机密备注' }))
    expectOk(await call('/api/layer/field/save', { layer_id: secret, name: '机密字段', kind: 'text' }))
    expectOk(await call('/api/system/title/style/save', { layer_id: secret, font_size: 16 }))
    expectOk(await call('/api/layer/save', { id: secret, name: '机密2' }))
    expectOk(await call('/api/layer/delete', { id: secret }))
    const first = await makeMarker(team.t, team.owner, layer)
    const res = expectOk(await call('/api/sync/changes', { since: 1 }, team.member))
    expect(res.changes.map((c: SyncChange) => c.layer_id).every((id: number) => id === layer)).toBe(true)
    expect(res.changes.map((c: SyncChange) => c.id)).toEqual([open, first])
    expect(JSON.stringify(res)).not.toContain(`"layer_id":${secret}`)
  })

  it('should page with limit and more, continuing from the answered seq', async () => {
    const since = await seqNow()
    const ids: number[] = []
    for (let i = 0; i < 5; i++) ids.push(await makeMarker(team.t, team.owner, layer, { name: `点${i}` }))
    const first = await changes(since, team.owner, 2)
    expect(first).toMatchObject({ more: true, seq: since + 2 })
    const second = await changes(first.seq, team.owner, 2)
    const third = await changes(second.seq, team.owner, 2)
    expect(third).toMatchObject({ more: false, seq: since + 5 })
    expect([...first.changes, ...second.changes, ...third.changes].map((c) => c.id)).toEqual(ids)
  })

  it('should collapse several changes of one marker to the latest', async () => {
    const id = await makeMarker(team.t, team.owner, layer)
    const since = await seqNow()
    expectOk(await call('/api/marker/save', point({ id, name: '一' })))
    expectOk(await call('/api/marker/save', point({ id, name: '二' })))
    expect(brief((await changes(since)).changes)).toEqual([`marker:${id}:upsert:3`])
  })

  it('should ask for a reload when since is ahead of the log or behind what it keeps', async () => {
    await makeMarker(team.t, team.owner, layer)
    expect(await changes(99)).toEqual({ seq: 2, changes: [], more: false, reload: true })
    await team.t.db.kysely.updateTable('sync_seqs').set({ pruned_seq: 1 }).where('group_id', '=', team.groupId).execute()
    expect(await changes(1)).toMatchObject({ seq: 2, changes: [expect.objectContaining({ kind: 'marker', seq: 2 })], more: false, reload: false })
    await team.t.db.kysely.updateTable('sync_seqs').set({ pruned_seq: 2 }).where('group_id', '=', team.groupId).execute()
    expect((await changes(1)).reload).toBe(true)
  })

  it('should prune entries past the retention as the log grows, and ask a reader behind them to reload', async () => {
    await setMarkerLimit(team, 5000)
    await makeMarker(team.t, team.owner, layer)
    // Entries from before the retention window (RETAIN_DAYS).
    await team.t.db.kysely.updateTable('sync_changes').set({ created_at: '2000-01-01T00:00:00.000Z' }).where('group_id', '=', team.groupId).execute()
    const features = Array.from({ length: PRUNE_EVERY }, (_, i) => ({ type: 'Feature', properties: { name: `导入${i}` }, geometry: { type: 'Point', coordinates: [116 + i / 10_000, 39.9] } }))
    expectOk(await call('/api/marker/import', { layer_id: layer, format: 'geojson', content: JSON.stringify({ type: 'FeatureCollection', features }) }))
    expect((await logRows())[0].seq).toBe(3)
    expect(await changes(1)).toEqual({ seq: PRUNE_EVERY + 2, changes: [], more: false, reload: true })
    const fromPruned = await changes(2)
    expect(fromPruned).toMatchObject({ seq: PRUNE_EVERY + 2, more: false, reload: false })
    expect(fromPruned.changes).toHaveLength(PRUNE_EVERY)
  })

  it('should refuse a limit above the maximum and require a session', async () => {
    expect((await call('/api/sync/changes', { since: 0, limit: CHANGES_LIMIT_MAX + 1 })).errcode).not.toBe(0)
    expect((await team.t.call('/api/sync/changes', { since: 0 }, null)).status).toBe(401)
  })
})

describe('reset to free', () => {
  let w: TeamWorld
  beforeEach(async () => {
    w = await makeWorld()
  })
  afterEach(() => w.close())

  it('should log the markers a reset hides as deletes', async () => {
    const layerId = await w.layer('甲')
    const ids: number[] = []
    for (let i = 0; i < 22; i++) ids.push(await w.marker(layerId, `m${i}`))
    const since = ok(await w.call('/api/sync/changes', { since: 0 }, w.owner)).seq
    passTrial(w)
    expect(ok(await w.call('/api/vip/recovery', { remarks: '暂不续费' }, w.owner)).hidden_markers).toBe(2)
    const list = ok(await w.call('/api/sync/changes', { since }, w.owner)).changes as SyncChange[]
    expect(list.map((c) => `${c.id}:${c.op}`)).toEqual([`${ids[0]}:delete`, `${ids[1]}:delete`])
  })
})
