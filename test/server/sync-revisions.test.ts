/** Revisions (types/sync.ts): every change bumps rev; a save or delete from an older rev is refused with the current version. */
import { ErrCode } from '../../types/api'
import { SYNC_CONFLICT_MSG } from '../../src/domain/syncMessages'
import { expectOk, makeLayer, makeMarker, makeTeam, type Team } from './mapdata-fixture'

let team: Team
let layer: number
beforeEach(async () => {
  team = await makeTeam()
  layer = await makeLayer(team.t, team.owner, '点图层', 1)
})
afterEach(() => team.t.close())

const call = (path: string, body: object, auth = team.owner) => team.t.call(path, body, auth)
const marker = (over: object = {}) => ({ layer_id: layer, name: '标注', type: 0, points: '116.397428,39.90923', ...over })

async function storedMarker(id: number) {
  return team.t.db.kysely.selectFrom('markers').select(['name', 'rev', 'deleted_at']).where('id', '=', id).executeTakeFirstOrThrow()
}

describe('marker revisions', () => {
  it('should create a marker at rev 1 and add one on every update, delete and restore', async () => {
    const created = expectOk(await call('/api/marker/save', marker()))
    expect(created.rev).toBe(1)
    const updated = expectOk(await call('/api/marker/save', marker({ id: created.id, name: '改名', rev: 1 })))
    expect(updated.rev).toBe(2)
    expectOk(await call('/api/marker/delete', { id: created.id, rev: 2 }))
    expect((await storedMarker(created.id)).rev).toBe(3)
    const logged = expectOk(await call('/api/oplog/getlist', { pageindex: 1, pagesize: 10, entity: 'marker', action: 'delete' }))
    expectOk(await call('/api/oplog/restore', { id: logged.list[0].id }))
    expect((await storedMarker(created.id)).rev).toBe(4)
  })

  it('should refuse a save started from an older revision, answering the current marker', async () => {
    const id = await makeMarker(team.t, team.owner, layer)
    expectOk(await call('/api/marker/save', marker({ id, name: '他人的修改', rev: 1 }), team.owner))
    const stale = await call('/api/marker/save', marker({ id, name: '我的修改', rev: 1 }))
    expect(stale.errcode).toBe(ErrCode.CONFLICT)
    expect(stale.errmsg).toBe(SYNC_CONFLICT_MSG.markerChanged)
    expect(stale.data).toMatchObject({ id, name: '他人的修改', rev: 2 })
    expect(await storedMarker(id)).toMatchObject({ name: '他人的修改', rev: 2, deleted_at: null })
  })

  it('should refuse a delete started from an older revision and delete nothing', async () => {
    const id = await makeMarker(team.t, team.owner, layer)
    expectOk(await call('/api/marker/save', marker({ id, name: '新名' })))
    const stale = await call('/api/marker/delete', { id, rev: 1 })
    expect(stale.errcode).toBe(ErrCode.CONFLICT)
    expect(stale.errmsg).toBe(SYNC_CONFLICT_MSG.markerChanged)
    expect(stale.data).toMatchObject({ id, name: '新名', rev: 2 })
    expect(await storedMarker(id)).toMatchObject({ rev: 2, deleted_at: null })
  })

  it('should answer an edit of a deleted marker with a conflict and no data, never bringing it back', async () => {
    const id = await makeMarker(team.t, team.owner, layer)
    expectOk(await call('/api/marker/delete', { id }))
    const res = await call('/api/marker/save', marker({ id, name: '复活', rev: 1 }))
    expect(res.errcode).toBe(ErrCode.CONFLICT)
    expect(res.errmsg).toBe(SYNC_CONFLICT_MSG.markerDeleted)
    expect(res.data).toBeNull()
    expect((await storedMarker(id)).deleted_at).not.toBeNull()
    expect((await call('/api/marker/delete', { id, rev: 2 })).errmsg).toBe(SYNC_CONFLICT_MSG.markerDeleted)
  })

  it('should keep saves and deletes without rev as they were', async () => {
    const id = await makeMarker(team.t, team.owner, layer)
    expectOk(await call('/api/marker/save', marker({ id, name: '一' })))
    expect(expectOk(await call('/api/marker/save', marker({ id, name: '二' }))).rev).toBe(3)
    expectOk(await call('/api/marker/delete', { id }))
    expect((await call('/api/marker/save', marker({ id, name: '三' }))).errcode).toBe(ErrCode.NOT_FOUND)
  })

  it('should bump the rev of a marker that moves to another layer', async () => {
    const other = await makeLayer(team.t, team.owner, '另一个', 1)
    const id = await makeMarker(team.t, team.owner, layer)
    expect(expectOk(await call('/api/marker/save', marker({ id, layer_id: other, rev: 1 }))).rev).toBe(2)
  })
})

describe('layer revisions', () => {
  it('should refuse a stale layer save and a stale layer delete with the current layer', async () => {
    expectOk(await call('/api/layer/save', { id: layer, name: '改过', rev: 1 }))
    const stale = await call('/api/layer/save', { id: layer, name: '旧的', rev: 1 })
    expect(stale.errcode).toBe(ErrCode.CONFLICT)
    expect(stale.errmsg).toBe(SYNC_CONFLICT_MSG.layerChanged)
    expect(stale.data).toMatchObject({ id: layer, name: '改过', rev: 2 })
    const staleDelete = await call('/api/layer/delete', { id: layer, rev: 1 })
    expect(staleDelete.errcode).toBe(ErrCode.CONFLICT)
    const row = await team.t.db.kysely.selectFrom('layers').select(['name', 'rev', 'deleted_at']).where('id', '=', layer).executeTakeFirstOrThrow()
    expect(row).toMatchObject({ name: '改过', rev: 2, deleted_at: null })
    expectOk(await call('/api/layer/delete', { id: layer, rev: 2 }))
    const gone = await call('/api/layer/save', { id: layer, name: '再改', rev: 3 })
    expect(gone.errmsg).toBe(SYNC_CONFLICT_MSG.layerDeleted)
    expect(gone.data).toBeNull()
  })

  it('should bump the rev of the markers a layer delete takes with it', async () => {
    const id = await makeMarker(team.t, team.owner, layer)
    expectOk(await call('/api/layer/delete', { id: layer }))
    expect((await storedMarker(id)).rev).toBe(2)
  })
})

describe('note revisions', () => {
  it('should refuse a stale note save with the current note, and a deleted one with no data', async () => {
    const markerId = await makeMarker(team.t, team.owner, layer)
    const note = expectOk(await call('/api/marker/note/save', { marker_id: markerId, content: '第一版' }))
    expect(note.rev).toBe(1)
    expect(expectOk(await call('/api/marker/note/save', { id: note.id, marker_id: markerId, content: '第二版', rev: 1 })).rev).toBe(2)
    const stale = await call('/api/marker/note/save', { id: note.id, marker_id: markerId, content: '旧的', rev: 1 })
    expect(stale.errcode).toBe(ErrCode.CONFLICT)
    expect(stale.errmsg).toBe(SYNC_CONFLICT_MSG.noteChanged)
    expect(stale.data).toMatchObject({ id: note.id, content: '第二版', rev: 2 })
    expectOk(await call('/api/marker/note/delete', { ids: [note.id] }))
    const gone = await call('/api/marker/note/save', { id: note.id, marker_id: markerId, content: '复活', rev: 3 })
    expect(gone.errmsg).toBe(SYNC_CONFLICT_MSG.noteDeleted)
    expect(gone.data).toBeNull()
  })
})

describe('note delete revisions', () => {
  it('should refuse a delete of notes when one of them changed since, deleting none, and keep a delete without revs as it was', async () => {
    const markerId = await makeMarker(team.t, team.owner, layer)
    const a = expectOk(await call('/api/marker/note/save', { marker_id: markerId, content: '甲' }))
    const b = expectOk(await call('/api/marker/note/save', { marker_id: markerId, content: '乙' }))
    expectOk(await call('/api/marker/note/save', { id: b.id, marker_id: markerId, content: '乙改' }))
    const stale = await call('/api/marker/note/delete', { ids: [a.id, b.id], revs: [1, 1] })
    expect(stale.errcode).toBe(ErrCode.CONFLICT)
    expect(stale.errmsg).toBe(SYNC_CONFLICT_MSG.noteChanged)
    expect(stale.data).toMatchObject({ id: b.id, content: '乙改', rev: 2 })
    expect(await team.t.db.kysely.selectFrom('notes').select('id').where('deleted_at', 'is', null).execute()).toHaveLength(2)
    expect((await call('/api/marker/note/delete', { ids: [a.id, b.id], revs: [1] })).errcode).toBe(ErrCode.VALIDATION)
    expectOk(await call('/api/marker/note/delete', { ids: [a.id, b.id], revs: [1, 2] }))
    expect(await team.t.db.kysely.selectFrom('notes').select('id').where('deleted_at', 'is', null).execute()).toHaveLength(0)
  })
})

describe('field revisions', () => {
  it('should refuse a stale field save and delete with the current definition', async () => {
    const field = expectOk(await call('/api/layer/field/save', { layer_id: layer, name: '电话', kind: 'phone' }))
    expect(field.rev).toBe(1)
    expectOk(await call('/api/layer/field/save', { id: field.id, layer_id: layer, name: '手机', kind: 'phone', rev: 1 }))
    const stale = await call('/api/layer/field/save', { id: field.id, layer_id: layer, name: '座机', kind: 'phone', rev: 1 })
    expect(stale.errcode).toBe(ErrCode.CONFLICT)
    expect(stale.errmsg).toBe(SYNC_CONFLICT_MSG.fieldChanged)
    expect(stale.data).toMatchObject({ id: field.id, name: '手机', rev: 2 })
    expect((await call('/api/layer/field/delete', { id: field.id, rev: 1 })).errmsg).toBe(SYNC_CONFLICT_MSG.fieldChanged)
    expectOk(await call('/api/layer/field/delete', { id: field.id, rev: 2 }))
    const gone = await call('/api/layer/field/save', { id: field.id, layer_id: layer, name: '手机', kind: 'phone', rev: 3 })
    expect(gone.errmsg).toBe(SYNC_CONFLICT_MSG.fieldDeleted)
  })
})

describe('title style revisions', () => {
  it('should refuse a stale title style save with the current style', async () => {
    const first = expectOk(await call('/api/system/title/style/save', { layer_id: layer, font_size: 16 }))
    expect(first.rev).toBe(1)
    expect(expectOk(await call('/api/system/title/style/save', { layer_id: layer, font_size: 18, rev: 1 })).rev).toBe(2)
    const stale = await call('/api/system/title/style/save', { layer_id: layer, font_size: 20, rev: 1 })
    expect(stale.errcode).toBe(ErrCode.CONFLICT)
    expect(stale.errmsg).toBe(SYNC_CONFLICT_MSG.titleStyleChanged)
    expect(stale.data).toMatchObject({ layer_id: layer, font_size: 18, rev: 2 })
  })
})
