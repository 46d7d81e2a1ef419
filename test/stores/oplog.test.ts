import { MAP_MSG } from '../../src/domain/messages'
import { DATA_LIST_MSG } from '../../src/domain/dataListMessages'
import { PERM } from '../../src/domain/permissions'
import { describeChanges } from '../../src/stores/OpLogStore'
import '../../src/stores/oplogStores'
import { ok } from '../support/fakes'
import { buildLayer, buildMarker, buildOpLog, signedInRoot } from '../support/mapBuilders'

const rows = Array.from({ length: 45 }, (_, i) => buildOpLog({ id: i + 1, at: new Date(Date.UTC(2026, 10, 1, 0, i)).toISOString(), action: i % 3 === 0 ? 'delete' : 'update', name: `标注${i + 1}` }))

function pagedLog(body: any) {
  const filtered = rows.filter((r) => (!body.entity || r.entity === body.entity) && (!body.action || r.action === body.action)).reverse()
  const start = (body.pageindex - 1) * body.pagesize
  return ok({ list: filtered.slice(start, start + body.pagesize), total: filtered.length })
}

describe('OpLogStore (the operation log)', () => {
  it('lists newest first and loads more pages until all are there', async () => {
    const { root, calls } = await signedInRoot({ '/api/oplog/getlist': pagedLog })
    await root.oplog.load()
    expect(root.oplog.list).toHaveLength(20)
    expect(root.oplog.list[0].id).toBe(45)
    expect(root.oplog.canLoadMore).toBe(true)
    await root.oplog.loadMore()
    await root.oplog.loadMore()
    expect(root.oplog.list).toHaveLength(45)
    expect(root.oplog.finished).toBe(true)
    expect(await root.oplog.loadMore()).toBe(false)
    expect(calls.map((c) => c.body.pageindex)).toEqual([1, 2, 3])
  })

  it('filters by entity and action, starting again at the first page', async () => {
    const { root, calls } = await signedInRoot({ '/api/oplog/getlist': pagedLog })
    await root.oplog.load()
    await root.oplog.setAction('delete')
    expect(calls.at(-1)?.body).toMatchObject({ pageindex: 1, action: 'delete' })
    expect(calls.at(-1)?.body.entity).toBeUndefined()
    expect(root.oplog.list.every((r) => r.action === 'delete')).toBe(true)
    expect(root.oplog.total).toBe(15)
    await root.oplog.setEntity('layer')
    expect(calls.at(-1)?.body).toMatchObject({ entity: 'layer', action: 'delete' })
    expect(root.oplog.list).toEqual([])
  })

  it('restores a deleted marker and brings it back on the map', async () => {
    const layer = buildLayer({ id: 1, show: true })
    const deleted = buildOpLog({ id: 100, entity: 'marker', entity_id: 8, action: 'delete', restorable: true, before: { layer_id: 1, name: '井盖' } })
    let restored = false
    const { root, calls } = await signedInRoot({
      '/api/oplog/getlist': () => ok({ list: restored ? [buildOpLog({ id: 101, action: 'restore' }), { ...deleted, restorable: false }] : [deleted], total: restored ? 2 : 1 }),
      '/api/oplog/restore': () => {
        restored = true
        return ok(null)
      },
      '/api/layer/getlist': () => ok([layer]),
      '/api/marker/getlist': () => ok({ list: restored ? [buildMarker({ id: 8, layer_id: 1 })] : [], total: restored ? 1 : 0 }),
    })
    await root.oplog.load()
    expect(root.oplog.canRestore(root.oplog.list[0])).toBe(true)
    expect(await root.oplog.restore(root.oplog.list[0])).toBe(true)
    expect(calls.find((c) => c.path === '/api/oplog/restore')?.body).toMatchObject({ id: 100 })
    expect(root.app.notices.some((n) => n.text === MAP_MSG.restoreOk)).toBe(true)
    expect(root.markers.find(8)).toBeDefined()
    expect(root.oplog.list[0].action).toBe('restore')
    expect(root.oplog.canRestore(root.oplog.list[1])).toBe(false)
  })

  it('lets members restore only with the log permission on the layer', async () => {
    const mine = buildLayer({ id: 1, manager: false, layer_opts: [PERM.LAYER_LOG] })
    const other = buildLayer({ id: 2, manager: false, layer_opts: [] })
    const { root } = await signedInRoot({ '/api/layer/getlist': () => ok([mine, other]) }, { admin: false })
    await root.layers.load()
    const del = (layer_id: number) => buildOpLog({ restorable: true, before: { layer_id } })
    expect(root.oplog.canRestore(del(1))).toBe(true)
    expect(root.oplog.canRestore(del(2))).toBe(false)
    expect(root.oplog.canRestore(buildOpLog({ action: 'update', restorable: false, before: { layer_id: 1 } }))).toBe(false)
  })

  it('summarises before and after in words', () => {
    expect(describeChanges({ entity: 'marker', before: { name: '旧', type: 0, points: '1,1' }, after: { name: '新', type: 0, points: '1,1' } })).toEqual([{ label: '名称', before: '旧', after: '新' }])
    expect(describeChanges({ entity: 'marker', before: { name: '井', type: 3, points: '1,1|2,1|2,2' }, after: null })).toEqual([
      { label: '名称', before: '井', after: '—' },
      { label: '类型', before: '多边形', after: '—' },
      { label: '坐标', before: '3个点', after: '—' },
    ])
  })

  it('names field types in Chinese as /fields does, and leaves out option lines with no options', () => {
    expect(describeChanges({ entity: 'field', before: null, after: { name: '口径', kind: 'number', options: [], required: false } })).toEqual([
      { label: '名称', before: '—', after: '口径' },
      { label: '字段类型', before: '—', after: '数字' },
      { label: '必填', before: '—', after: '否' },
    ])
    expect(describeChanges({ entity: 'field', before: { name: '状态', kind: 'text', options: [] }, after: { name: '状态', kind: 'choice', options: ['待办', '完成'] } })).toEqual([
      { label: '字段类型', before: '文本', after: '选项' },
      { label: '选项', before: '—', after: '待办、完成' },
    ])
  })

  it('names layers by their path instead of their ids, and shows a radius for circles only', () => {
    const names: Record<number, string> = { 7: '外业数据 / 管线', 8: '外业数据 / 片区' }
    const layerName = (id: number) => names[id] ?? ''
    expect(describeChanges({ entity: 'marker', before: { layer_id: 7, type: 1, radius: 0 }, after: { layer_id: 8, type: 1, radius: 0 } }, layerName)).toEqual([
      { label: '图层', before: '外业数据 / 管线', after: '外业数据 / 片区' },
    ])
    expect(describeChanges({ entity: 'marker', before: null, after: { name: '点', type: 0, radius: 0, layer_id: 99 } }, layerName)).toEqual([
      { label: '名称', before: '—', after: '点' },
      { label: '类型', before: '—', after: '点' },
      { label: '图层', before: '—', after: '#99' },
    ])
    expect(describeChanges({ entity: 'marker', before: { type: 5, radius: 100 }, after: { type: 5, radius: 250 } })).toEqual([{ label: '半径', before: '100', after: '250' }])
    expect(describeChanges({ entity: 'layer', before: { parent_id: 3 }, after: { parent_id: 0 } }, () => '外业数据')).toEqual([{ label: '上级文件夹', before: '外业数据', after: '最外层' }])
  })

  it('offers a data list bulk change for undoing and restores a whole bulk action as one', async () => {
    const change = buildOpLog({ id: 200, entity: 'marker', entity_id: 8, action: 'update', restorable: true, batch_id: 'batch-1', before: { layer_id: 1 } })
    const { root, calls } = await signedInRoot({
      '/api/oplog/getlist': () => ok({ list: [change], total: 1 }),
      '/api/oplog/restore/batch': () => ok({ done: 39, refused: [{ id: 8, reason: 'conflict', message: 'x' }], batch_id: 'batch-2' }),
      '/api/layer/getlist': () => ok([buildLayer({ id: 1 })]),
    })
    await root.oplog.load()
    expect(root.oplog.canRestore(root.oplog.list[0])).toBe(true)
    expect(root.oplog.canRestore({ ...change, batch_id: undefined })).toBe(false)
    expect(await root.oplog.restoreBatch('batch-1')).toBe(true)
    expect(calls.find((c) => c.path === '/api/oplog/restore/batch')?.body).toMatchObject({ batch_id: 'batch-1' })
    expect(root.app.notices.map((n) => n.text)).toContain(DATA_LIST_MSG.someRefused(39, 1))
  })
})
