/**
 * The data list's server side: a layer's list page with search, filters and sort; the bulk call's
 * four actions on picked rows and on everything a query matched; who may do them (data_list, the
 * action's permission, a department manager's layers); stale rows reported, not overwritten; one
 * op-log entry and one sync change per marker; restoring one entry and a whole action; kept counts.
 */
import { sql } from 'kysely'
import { ErrCode } from '../../types/api'
import { DATA_LIST_MSG } from '../../src/domain/dataListMessages'
import { MAP_MSG } from '../../src/domain/messages'
import { PERM } from '../../src/domain/permissions'
import { SYNC_CONFLICT_MSG } from '../../src/domain/syncMessages'
import { makeWorld, ok, type Person, type TeamWorld } from './teams-fixture'

jest.setTimeout(60_000)

let w: TeamWorld
let shops: number
let statusField: number
let amountField: number
let ids: number[]

const STATUSES = ['待拜访', '已拜访', '无效']

/** A layer of 12 shops: 状态 cycles through the three options, 金额 is 10 × i. */
beforeEach(async () => {
  w = await makeWorld()
  shops = await w.layer('门店')
  statusField = ok(await w.call('/api/layer/field/save', { layer_id: shops, name: '状态', kind: 'choice', options: STATUSES }, w.owner)).id
  amountField = ok(await w.call('/api/layer/field/save', { layer_id: shops, name: '金额', kind: 'number' }, w.owner)).id
  ids = []
  const names = ['北京店', '重庆店', '长沙店', '安庆店', '郑州店', '成都店', '广州店', '深圳店', '杭州店', '南京店', '武汉店', '西安店']
  for (let i = 0; i < names.length; i++) {
    const fields = { [statusField]: STATUSES[i % 3], [amountField]: 10 * i }
    ids.push(ok(await w.call('/api/marker/save', { layer_id: shops, name: names[i], type: 0, points: `116.${400 + i},39.9`, fields }, w.owner)).id)
  }
})
afterEach(() => w.close())

const list = (auth: Person, body: object) => w.call('/api/marker/datalist', { layer_id: shops, ...body }, auth)
const bulk = (auth: Person, body: object) => w.call('/api/marker/bulk', { layer_id: shops, ...body }, auth)
const pendingQuery = () => ({ filters: [{ field_id: statusField, op: 'in', values: ['待拜访'] }] })

async function rowsNow(auth: Person = w.owner) {
  return ok(await list(auth, { pagesize: 5000 })).list as any[]
}

async function items(which: number[], auth: Person = w.owner) {
  const rows = await rowsNow(auth)
  return which.map((id) => ({ id, rev: rows.find((r) => r.id === id).rev }))
}

async function countsInStep() {
  const drifted = await sql<{ id: number }>`select id from layers where marker_count <> (select count(*) from markers where markers.layer_id = layers.id and markers.deleted_at is null)`.execute(
    w.t.db.kysely,
  )
  expect(drifted.rows).toEqual([])
}

async function layerCount(id: number) {
  const layers = ok(await w.call('/api/layer/getlist', {}, w.owner)) as any[]
  return layers.find((l) => l.id === id).marker_count as number
}

async function opsOf(batchId: string) {
  return w.t.db.kysely.selectFrom('oplog').selectAll().where('batch_id', '=', batchId).execute()
}

describe('the list', () => {
  it('should filter, count and sort a layer, Chinese names in pinyin order', async () => {
    const page = ok(await list(w.owner, { query: { ...pendingQuery(), sort: { key: 'name', dir: 'asc' } } }))
    expect(page.total).toBe(12)
    expect(page.matched).toBe(4)
    // 待拜访: 北京, 安庆, 广州, 南京 (i = 0, 3, 6, 9) in pinyin order
    expect(page.list.map((r: any) => r.name)).toEqual(['安庆店', '北京店', '广州店', '南京店'])
    expect(page.list[0]).toMatchObject({ layer_id: shops, type: 0, notes_count: 0, editor_name: '队长' })
    expect(typeof page.listed_at).toBe('string')
  })

  it('should sort numbers as numbers and answer in pages', async () => {
    const first = ok(await list(w.owner, { query: { sort: { key: `field:${amountField}`, dir: 'desc' } }, pagesize: 5, pageindex: 1 }))
    const second = ok(await list(w.owner, { query: { sort: { key: `field:${amountField}`, dir: 'desc' } }, pagesize: 5, pageindex: 2 }))
    expect([...first.list, ...second.list].map((r: any) => r.fields[amountField])).toEqual([110, 100, 90, 80, 70, 60, 50, 40, 30, 20])
  })

  it('should count notes and name the last editor', async () => {
    const member = await w.join('13900000001', '小王')
    await w.grant(shops, { user_id: member.userid }, [PERM.LAYER_DATA_LIST, PERM.MARKER_EDIT, PERM.NOTE_ADD])
    await w.note(ids[0], '门口有台阶')
    await w.note(ids[0], '周一休息')
    const [item] = await items([ids[0]], member)
    ok(await bulk(member, { action: 'set_field', field_id: statusField, value: '已拜访', items: [item] }))
    const row = (await rowsNow()).find((r) => r.id === ids[0])
    expect(row).toMatchObject({ notes_count: 2, editor_name: '小王' })
    const byNotes = ok(await list(w.owner, { query: { sort: { key: 'notes', dir: 'desc' } } }))
    expect(byNotes.list[0].id).toBe(ids[0])
  })

  it('should refuse a filter that does not fit its field', async () => {
    const res = await list(w.owner, { query: { filters: [{ field_id: amountField, op: 'in', values: ['1'] }] } })
    expect(res.errcode).toBe(ErrCode.VALIDATION)
    expect(res.errmsg).toBe(DATA_LIST_MSG.filterNotFitting('金额'))
  })

  it('should need data_list on the layer, and let a department manager list their departments’ layers', async () => {
    const member = await w.join('13900000002', '小李')
    await w.grant(shops, { user_id: member.userid }, [PERM.MARKER_EDIT])
    const refused = await list(member, {})
    expect(refused.errcode).toBe(ErrCode.FORBIDDEN)
    expect(refused.errmsg).toBe(DATA_LIST_MSG.noPermission)
    const refusedBulk = await bulk(member, { action: 'delete', items: [{ id: ids[0], rev: 1 }] })
    expect(refusedBulk.errmsg).toBe(DATA_LIST_MSG.noPermission)

    const boss = await w.join('13900000003', '部门经理')
    const dept = await w.department('华北区')
    await w.grant(shops, { department_id: dept }, [PERM.NOTE_LIST])
    expect((await list(boss, {})).errcode).toBe(ErrCode.FORBIDDEN)
    ok(await w.call('/api/department/setting/manager', { department_id: dept, userids: [boss.userid] }, w.owner))
    expect(ok(await list(boss, {})).total).toBe(12)
  })

  it('should refuse a folder', async () => {
    const folder = await w.layer('文件夹', 0)
    expect((await w.call('/api/marker/datalist', { layer_id: folder }, w.owner)).errmsg).toBe(DATA_LIST_MSG.notMarkerLayer)
  })
})

describe('设置字段', () => {
  it('should set one field on every picked marker, each with its own op-log entry and sync change', async () => {
    const picked = await items(ids.slice(0, 5))
    const seqBefore = await w.t.db.kysely
      .selectFrom('sync_changes')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow()
    const res = ok(await bulk(w.owner, { action: 'set_field', field_id: statusField, value: '无效', items: picked }))
    expect(res).toMatchObject({ done: 5, refused: [] })
    const rows = await rowsNow()
    for (const id of ids.slice(0, 5)) expect(rows.find((r) => r.id === id).fields[statusField]).toBe('无效')
    // The amount is kept
    expect(rows.find((r) => r.id === ids[4]).fields[amountField]).toBe(40)
    const ops = await opsOf(res.batch_id)
    expect(ops.map((o) => o.entity_id).sort()).toEqual(ids.slice(0, 5).sort())
    expect(ops.every((o) => o.action === 'update' && o.entity === 'marker')).toBe(true)
    const seqAfter = await w.t.db.kysely
      .selectFrom('sync_changes')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow()
    expect(Number(seqAfter.n) - Number(seqBefore.n)).toBe(5)
  })

  it('should validate the value by the field’s kind and change nothing when it is wrong', async () => {
    const picked = await items(ids.slice(0, 3))
    const bad = await bulk(w.owner, { action: 'set_field', field_id: statusField, value: '不存在的选项', items: picked })
    expect(bad.errcode).toBe(ErrCode.VALIDATION)
    expect(bad.errmsg).toBe(MAP_MSG.fieldChoice('状态'))
    const notNumber = await bulk(w.owner, { action: 'set_field', field_id: amountField, value: 'abc', items: picked })
    expect(notNumber.errmsg).toBe(MAP_MSG.fieldNumber('金额'))
    const otherLayer = await w.layer('别的图层')
    const foreign = ok(await w.call('/api/layer/field/save', { layer_id: otherLayer, name: '备注', kind: 'text' }, w.owner)).id
    expect((await bulk(w.owner, { action: 'set_field', field_id: foreign, value: 'x', items: picked })).errmsg).toBe(DATA_LIST_MSG.fieldNotInLayer)
    expect(await w.t.db.kysely.selectFrom('oplog').selectAll().where('batch_id', 'is not', null).execute()).toEqual([])
    expect((await rowsNow()).find((r) => r.id === ids[0]).fields[statusField]).toBe('待拜访')
  })

  it('should report a row changed since the list showed it, and not overwrite it', async () => {
    const picked = await items(ids.slice(0, 3))
    ok(await w.call('/api/marker/save', { id: ids[1], layer_id: shops, name: '重庆新店', type: 0, points: '116.401,39.9', rev: picked[1].rev }, w.owner))
    const res = ok(await bulk(w.owner, { action: 'set_field', field_id: statusField, value: '无效', items: picked }))
    expect(res.done).toBe(2)
    expect(res.refused).toEqual([{ id: ids[1], reason: 'conflict', message: SYNC_CONFLICT_MSG.markerChanged }])
    const stale = (await rowsNow()).find((r) => r.id === ids[1])
    expect(stale).toMatchObject({ name: '重庆新店' })
    expect(stale.fields[statusField]).toBe('已拜访')
  })

  it('should over 全选 change everything the query matched but the unticked rows, reporting rows changed after the list was read', async () => {
    const page = ok(await list(w.owner, { query: pendingQuery() }))
    expect(page.matched).toBe(4)
    w.t.clock.advance(1000)
    // 北京店 (ids[0]) is unticked; 安庆店 (ids[3]) changes meanwhile
    const anqing = (await rowsNow()).find((r) => r.id === ids[3])
    ok(
      await w.call(
        '/api/marker/save',
        { id: ids[3], layer_id: shops, name: '安庆店', type: 0, points: '116.403,39.9', rev: anqing.rev, fields: { [statusField]: '待拜访', [amountField]: 31 } },
        w.owner,
      ),
    )
    const res = ok(await bulk(w.owner, { action: 'set_field', field_id: statusField, value: '已拜访', query: pendingQuery(), except_ids: [ids[0]], listed_at: page.listed_at }))
    expect(res.done).toBe(2)
    expect(res.refused).toEqual([{ id: ids[3], reason: 'conflict', message: SYNC_CONFLICT_MSG.markerChanged }])
    const rows = await rowsNow()
    expect(rows.filter((r) => r.fields[statusField] === '待拜访').map((r) => r.id)).toEqual([ids[0], ids[3]])
  })

  it('should work through many markers in chunks, each marker its own entry', async () => {
    await w.t.db.kysely.updateTable('groups').set({ marker_limit: 10_000 }).where('id', '=', w.groupId).execute()
    const features = Array.from({ length: 400 }, (_, i) => ({ type: 'Feature', properties: { name: `导入${i}` }, geometry: { type: 'Point', coordinates: [116 + i / 1000, 39.9] } }))
    ok(await w.call('/api/marker/import', { layer_id: shops, format: 'geojson', content: JSON.stringify({ type: 'FeatureCollection', features }) }, w.owner))
    const page = ok(await list(w.owner, { query: { kw: '导入' } }))
    expect(page.matched).toBe(400)
    const res = ok(await bulk(w.owner, { action: 'set_field', field_id: amountField, value: 7, query: { kw: '导入' }, listed_at: page.listed_at }))
    expect(res).toMatchObject({ done: 400, refused: [] })
    expect(await opsOf(res.batch_id)).toHaveLength(400)
    expect(ok(await list(w.owner, { query: { filters: [{ field_id: amountField, op: 'range', min: 7, max: 7 }] } })).matched).toBe(400)
  })
})

describe('permissions per marker', () => {
  it('should refuse every marker, with why, to a member without marker_edit or marker_delete', async () => {
    const member = await w.join('13900000004', '小赵')
    await w.grant(shops, { user_id: member.userid }, [PERM.LAYER_DATA_LIST])
    const picked = await items(ids.slice(0, 2), member)
    const res = ok(await bulk(member, { action: 'set_field', field_id: statusField, value: '无效', items: picked }))
    expect(res.done).toBe(0)
    expect(res.refused).toEqual(picked.map((p) => ({ id: p.id, reason: 'forbidden', message: DATA_LIST_MSG.refusal.forbidden })))
    const del = ok(await bulk(member, { action: 'delete', items: picked }))
    expect(del.refused.map((r: any) => r.message)).toEqual([DATA_LIST_MSG.refusal.forbiddenDelete, DATA_LIST_MSG.refusal.forbiddenDelete])

    await w.grant(shops, { user_id: member.userid }, [PERM.LAYER_DATA_LIST, PERM.MARKER_EDIT])
    expect(ok(await bulk(member, { action: 'set_field', field_id: statusField, value: '无效', items: picked })).done).toBe(2)
    expect(ok(await bulk(member, { action: 'delete', items: await items(ids.slice(0, 2), member) })).done).toBe(0)
  })

  it('should refuse ids of another layer, unknown or deleted ones, one by one', async () => {
    const other = await w.layer('仓库')
    const elsewhere = await w.marker(other, '一号仓')
    ok(await w.call('/api/marker/delete', { id: ids[5] }, w.owner))
    const res = ok(
      await bulk(w.owner, {
        action: 'delete',
        items: [
          { id: elsewhere, rev: 1 },
          { id: ids[5], rev: 1 },
          { id: 999999, rev: 1 },
          { id: ids[6], rev: 1 },
        ],
      }),
    )
    expect(res.done).toBe(1)
    expect(res.refused).toEqual([
      { id: elsewhere, reason: 'invalid', message: DATA_LIST_MSG.refusal.notInLayer },
      { id: ids[5], reason: 'not_found', message: DATA_LIST_MSG.refusal.notFound },
      { id: 999999, reason: 'not_found', message: DATA_LIST_MSG.refusal.notFound },
    ])
  })

  it('should not let a caller of another group touch the layer', async () => {
    const stranger = await w.stranger('13700000001', '外人')
    expect((await bulk(stranger, { action: 'delete', items: [{ id: ids[0], rev: 1 }] })).errcode).toBe(ErrCode.NOT_FOUND)
    expect((await list(stranger, {})).errcode).toBe(ErrCode.NOT_FOUND)
  })
})

describe('修改样式', () => {
  it('should set colour and size on the picked markers and restore them as they were', async () => {
    const picked = await items(ids.slice(0, 3))
    const res = ok(await bulk(w.owner, { action: 'set_style', style: { color: '#00b42a', size: 40 }, items: picked }))
    expect(res.done).toBe(3)
    const changed = ok(await w.call('/api/marker/getbyid', { ids: ids.slice(0, 3) }, w.owner)) as any[]
    for (const m of changed) expect(m).toMatchObject({ style: { color: '#00B42A', size: 40 }, width: 40 })
    const restored = ok(await w.call('/api/oplog/restore/batch', { batch_id: res.batch_id }, w.owner))
    expect(restored).toMatchObject({ done: 3, refused: [] })
    const back = ok(await w.call('/api/marker/getbyid', { ids: ids.slice(0, 3) }, w.owner)) as any[]
    for (const m of back) expect(m).toMatchObject({ style: { color: '#165DFF', size: 32 }, width: 32 })
  })

  it('should refuse a style with nothing to set', async () => {
    expect((await bulk(w.owner, { action: 'set_style', style: { color: 'red' }, items: await items([ids[0]]) })).errmsg).toBe(DATA_LIST_MSG.pickStyle)
  })
})

describe('移动到图层', () => {
  it('should move markers into another layer of the same kind, keeping both layers’ counts right', async () => {
    const target = await w.layer('已关店')
    const res = ok(await bulk(w.owner, { action: 'move', to_layer_id: target, items: await items(ids.slice(0, 4)) }))
    expect(res.done).toBe(4)
    expect(await layerCount(shops)).toBe(8)
    expect(await layerCount(target)).toBe(4)
    await countsInStep()
    const changes = await w.t.db.kysely.selectFrom('sync_changes').selectAll().where('entity_id', '=', ids[0]).orderBy('seq', 'desc').limit(2).execute()
    expect(changes.map((c) => [c.op, c.layer_id]).sort()).toEqual([
      ['delete', shops],
      ['upsert', target],
    ])
    ok(await w.call('/api/oplog/restore/batch', { batch_id: res.batch_id }, w.owner))
    expect(await layerCount(shops)).toBe(12)
    expect(await layerCount(target)).toBe(0)
    await countsInStep()
  })

  it('should refuse a target of another kind, and per marker a target the member may not add to', async () => {
    const lines = await w.layer('路线', 2)
    expect((await bulk(w.owner, { action: 'move', to_layer_id: lines, items: await items([ids[0]]) })).errmsg).toBe(MAP_MSG.markerKindMismatch)
    const member = await w.join('13900000005', '小孙')
    const target = await w.layer('目标')
    await w.grant(shops, { user_id: member.userid }, [PERM.LAYER_DATA_LIST, PERM.MARKER_EDIT])
    await w.grant(target, { user_id: member.userid }, [PERM.NOTE_LIST])
    const res = ok(await bulk(member, { action: 'move', to_layer_id: target, items: await items([ids[0]], member) }))
    expect(res.refused).toEqual([{ id: ids[0], reason: 'forbidden', message: DATA_LIST_MSG.refusal.forbiddenTarget }])
    expect(await layerCount(target)).toBe(0)
  })
})

describe('删除 and restoring from the op log', () => {
  it('should delete markers, restore one entry on its own and the rest of the action as one', async () => {
    const res = ok(await bulk(w.owner, { action: 'delete', items: await items(ids.slice(0, 6)) }))
    expect(res.done).toBe(6)
    expect(await layerCount(shops)).toBe(6)
    await countsInStep()

    const log = ok(await w.call('/api/oplog/getlist', { pageindex: 1, pagesize: 50, entity: 'marker', action: 'delete' }, w.owner))
    const entries = log.list.filter((e: any) => e.batch_id === res.batch_id)
    expect(entries).toHaveLength(6)
    expect(entries.every((e: any) => e.restorable)).toBe(true)
    const one = entries.find((e: any) => e.entity_id === ids[0])
    ok(await w.call('/api/oplog/restore', { id: one.id }, w.owner))
    expect(await layerCount(shops)).toBe(7)

    const whole = ok(await w.call('/api/oplog/restore/batch', { batch_id: res.batch_id }, w.owner))
    expect(whole.done).toBe(5)
    expect(whole.refused).toEqual([{ id: ids[0], reason: 'conflict', message: DATA_LIST_MSG.refusal.changedSince }])
    expect(await layerCount(shops)).toBe(12)
    await countsInStep()
  })

  it('should hold the marker limit when restoring a deleted action', async () => {
    const res = ok(await bulk(w.owner, { action: 'delete', items: await items(ids.slice(0, 3)) }))
    for (let i = 0; i < 3; i++) await w.marker(shops, `新店${i}`)
    await w.t.db.kysely.updateTable('groups').set({ marker_limit: 13 }).where('id', '=', w.groupId).execute()
    const refused = await w.call('/api/oplog/restore/batch', { batch_id: res.batch_id }, w.owner)
    expect(refused.errcode).toBe(ErrCode.LIMIT_REACHED)
    expect(await layerCount(shops)).toBe(12)
  })

  it('should undo one set-field entry on its own only while the marker is as the action left it', async () => {
    const res = ok(await bulk(w.owner, { action: 'set_field', field_id: statusField, value: '无效', items: await items(ids.slice(0, 2)) }))
    const log = ok(await w.call('/api/oplog/getlist', { pageindex: 1, pagesize: 50, entity: 'marker', action: 'update' }, w.owner))
    const [a, b] = [ids[0], ids[1]].map((id) => log.list.find((e: any) => e.batch_id === res.batch_id && e.entity_id === id))
    expect(a.restorable && b.restorable).toBe(true)
    ok(await w.call('/api/oplog/restore', { id: a.id }, w.owner))
    expect((await rowsNow()).find((r) => r.id === ids[0]).fields[statusField]).toBe('待拜访')

    const [item] = await items([ids[1]])
    ok(await bulk(w.owner, { action: 'set_field', field_id: amountField, value: 5, items: [item] }))
    const again = await w.call('/api/oplog/restore', { id: b.id }, w.owner)
    expect(again.errcode).toBe(ErrCode.CONFLICT)
    expect((await rowsNow()).find((r) => r.id === ids[1]).fields[statusField]).toBe('无效')
  })

  it('should need the log feature to restore a whole action', async () => {
    const res = ok(await bulk(w.owner, { action: 'delete', items: await items([ids[0]]) }))
    const member = await w.join('13900000006', '小周')
    expect((await w.call('/api/oplog/restore/batch', { batch_id: res.batch_id }, member)).errcode).toBe(ErrCode.FORBIDDEN)
    expect((await w.call('/api/oplog/restore/batch', { batch_id: 'nope' }, w.owner)).errcode).toBe(ErrCode.NOT_FOUND)
  })
})

describe('导出 of a selection', () => {
  it('should export only the picked markers of the layer', async () => {
    const file = ok(await w.call('/api/marker/export', { layer_id: shops, format: 'geojson', crs: 'gcj02', ids: [ids[0], ids[2]] }, w.owner))
    const names = JSON.parse(file.content).features.map((f: any) => f.properties.name)
    expect(names).toEqual(['北京店', '长沙店'])
    const all = ok(await w.call('/api/marker/export', { layer_id: shops, format: 'geojson', crs: 'gcj02' }, w.owner))
    expect(JSON.parse(all.content).features).toHaveLength(12)
  })
})
