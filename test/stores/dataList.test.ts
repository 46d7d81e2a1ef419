/**
 * DataListStore: a layer the phone holds is found and sorted on the phone, a larger one by the
 * server in pages; 全选 names the rows (with their revs) or the query; refusals are said; without
 * network the offline copy is shown and bulk actions are refused; teammates' changes read the rows again.
 */
import type { DataListRow } from '../../types/datalist'
import { DATA_LIST_MSG } from '../../src/domain/dataListMessages'
import { SYNC_CONFLICT_MSG } from '../../src/domain/syncMessages'
import { LIVE_RELOAD_MS } from '../../src/stores/DataListStore'
import '../../src/stores/dataListStores'
import { ok } from '../support/fakes'
import { buildLayer, buildMarker, signedInRoot } from '../support/mapBuilders'
import { manualScheduler } from '../support/manualScheduler'

const STATUS = { id: 11, layer_id: 1, name: '状态', kind: 'choice', options: ['待拜访', '已拜访'], required: false, sort: 1, rev: 1 }

function rowsOf(n: number): DataListRow[] {
  return Array.from({ length: n }, (_, i) => ({
    id: i + 1,
    layer_id: 1,
    name: `门店${i + 1}`,
    type: 0,
    style: {},
    fields: { 11: i < 4 ? '待拜访' : '已拜访' },
    rev: i + 10,
    notes_count: 0,
    editor_name: '小王',
    edited_at: '2026-01-01T00:00:00.000Z',
  }))
}

const pending = { field_id: 11, op: 'in' as const, values: ['待拜访'] }

async function open(markerCount: number, handlers: Record<string, (body: any) => any> = {}, scheduler?: ReturnType<typeof manualScheduler>['scheduler']) {
  const rows = rowsOf(Math.min(markerCount, 10))
  const made = await signedInRoot(
    {
      '/api/layer/getlist': () => ok([buildLayer({ id: 1, name: '门店', marker_count: markerCount })]),
      '/api/layer/field/getlist': () => ok([STATUS]),
      '/api/marker/datalist': (body) => ok({ list: rows.slice(0, body.pagesize), total: markerCount, matched: markerCount > 5000 ? 7000 : rows.length, listed_at: '2026-01-01T00:00:01.000Z' }),
      ...handlers,
    },
    { scheduler },
  )
  await made.root.dataList.open(1)
  return { ...made, rows, list: made.root.dataList }
}

describe('DataListStore', () => {
  it('reads a layer the phone holds once and filters it here, with the count line', async () => {
    const { list, calls } = await open(10)
    expect(calls.filter((c) => c.path === '/api/marker/datalist').map((c) => c.body)).toEqual([expect.objectContaining({ layer_id: 1, pageindex: 1, pagesize: 5000 })])
    expect(list.countLine).toBe('共 10 条')
    list.setFilter(11, pending)
    expect(list.shown.map((r) => r.name)).toEqual(['门店1', '门店2', '门店3', '门店4'])
    expect(list.countLine).toBe('共 10 条 · 筛选出 4 条')
    list.sortBy('name')
    list.sortBy('name')
    expect(list.shown[0].name).toBe('门店4')
    // Filtering and sorting on the phone asked the server nothing more.
    expect(calls.filter((c) => c.path === '/api/marker/datalist')).toHaveLength(1)
  })

  it('keeps each layer’s query for the session', async () => {
    const { list } = await open(10)
    list.setKw('门店1')
    await list.open(1)
    expect(list.query.kw).toBe('门店1')
  })

  it('asks the server for a layer larger than the phone holds, with the query, in pages', async () => {
    const { list, calls } = await open(8000)
    list.setFilter(11, pending)
    await Promise.resolve()
    const asked = calls.filter((c) => c.path === '/api/marker/datalist')
    expect(asked.at(-1)?.body).toMatchObject({ query: { filters: [pending] }, pageindex: 1, pagesize: 200 })
    expect(list.local).toBe(false)
  })

  it('全选 then 设置字段 names the matched rows with the rev each showed, and says what was refused', async () => {
    const { list, calls, root } = await open(10, {
      '/api/marker/bulk': (body) => ok({ done: body.items.length - 1, refused: [{ id: 2, reason: 'conflict', message: SYNC_CONFLICT_MSG.markerChanged }], batch_id: 'b1' }),
    })
    list.setFilter(11, pending)
    list.setSelecting(true)
    list.toggleAll()
    expect(list.selectedCount).toBe(4)
    const res = await list.runBulk({ action: 'set_field', field_id: 11, value: '已拜访' })
    expect(res?.done).toBe(3)
    const body = calls.find((c) => c.path === '/api/marker/bulk')?.body
    expect(body).toMatchObject({ action: 'set_field', field_id: 11, value: '已拜访', layer_id: 1, items: [1, 2, 3, 4].map((id) => ({ id, rev: id + 9 })) })
    expect(list.stale.map((r) => r.id)).toEqual([2])
    expect(root.app.notices.map((n) => n.text)).toContain(DATA_LIST_MSG.staleRows(1))
    expect(list.selecting).toBe(false)
  })

  it('全选 over a layer the server finds sends the query, the unticked rows and the time the list was read', async () => {
    const { list, calls } = await open(8000, { '/api/marker/bulk': () => ok({ done: 6999, refused: [], batch_id: 'b2' }) })
    list.setSelecting(true)
    list.toggleAll()
    list.toggle(3)
    expect(list.selectedCount).toBe(6999)
    await list.runBulk({ action: 'delete' })
    expect(calls.find((c) => c.path === '/api/marker/bulk')?.body).toMatchObject({ action: 'delete', layer_id: 1, query: {}, except_ids: [3], listed_at: '2026-01-01T00:00:01.000Z' })
  })

  it('offline shows the phone’s copy and refuses bulk actions without calling the server', async () => {
    const { root, calls } = await signedInRoot({ '/api/layer/getlist': () => ok([buildLayer({ id: 1, marker_count: 2 })]), '/api/layer/field/getlist': () => ok([STATUS]) })
    const saved = [buildMarker({ id: 5, layer_id: 1, name: '离线店', creator_name: '老李' }), buildMarker({ id: 6, layer_id: 1, name: '离线店2' })]
    root.offlineSink = { offline: () => true, answer: async (path: string) => (path === '/api/marker/getlist' ? { list: saved, total: 2 } : undefined) as never }
    await root.dataList.open(1)
    expect(root.dataList.offlineCopy).toBe(true)
    expect(root.dataList.shown.map((r) => [r.name, r.editor_name])).toEqual([
      ['离线店', '老李'],
      ['离线店2', saved[1].creator_name],
    ])
    root.dataList.setSelecting(true)
    root.dataList.toggleAll()
    expect(await root.dataList.runBulk({ action: 'delete' })).toBeUndefined()
    expect(root.app.notices.map((n) => n.text)).toContain(DATA_LIST_MSG.offlineBulk)
    expect(calls.some((c) => c.path === '/api/marker/bulk' || c.path === '/api/marker/datalist')).toBe(false)
  })

  it('reads the rows again once after teammates’ changes to the layer, not for other layers', async () => {
    const clock = manualScheduler()
    const { root, calls } = await open(10, {}, clock.scheduler)
    const reads = () => calls.filter((c) => c.path === '/api/marker/datalist').length
    root.dataListSink?.([{ seq: 1, kind: 'marker', id: 99, op: 'upsert', rev: 2, layer_id: 2 }])
    clock.advance(LIVE_RELOAD_MS)
    expect(reads()).toBe(1)
    root.dataListSink?.(Array.from({ length: 40 }, (_, i) => ({ seq: i + 2, kind: 'marker' as const, id: i + 1, op: 'upsert' as const, rev: 3, layer_id: 1 })))
    root.dataListSink?.([{ seq: 50, kind: 'marker', id: 1, op: 'upsert', rev: 4, layer_id: 1 }])
    clock.advance(LIVE_RELOAD_MS)
    await Promise.resolve()
    expect(reads()).toBe(2)
  })
})
