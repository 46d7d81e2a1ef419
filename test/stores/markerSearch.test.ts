/** MarkerSearch: picking markers by name on /route/add and /task/add (one store for both forms). */
import { ROUTE_MSG } from '../../src/domain/routeMessages'
import { TASK_MSG } from '../../src/domain/taskMessages'
import { MarkerSearch } from '../../src/stores/MarkerSearch'
import { ok } from '../support/fakes'
import { buildMarker, signedInRoot } from '../support/mapBuilders'
import '../../src/stores/routeStores'
import '../../src/stores/taskStores'

const found = [buildMarker({ id: 1, name: '东门消防栓' }), buildMarker({ id: 2, name: '西门消防栓' })]

describe('MarkerSearch', () => {
  it('asks for a keyword before calling, then shows one page of what the server found', async () => {
    const { root, calls } = await signedInRoot({ '/api/marker/search': () => ok({ list: found, total: 2 }) })
    const s = new MarkerSearch(root, '请输入关键字', 30)
    expect(await s.search('  ')).toBe(false)
    expect(root.app.notices.at(-1)?.text).toBe('请输入关键字')
    expect(calls.filter((c) => c.path === '/api/marker/search')).toHaveLength(0)
    expect(s.searched).toBe(false)
    s.setKw(' 消防栓 ')
    expect(await s.search()).toBe(true)
    expect(calls.find((c) => c.path === '/api/marker/search')?.body).toMatchObject({ kw: '消防栓', pageindex: 1, pagesize: 30 })
    expect(s.results.map((m) => m.name)).toEqual(['东门消防栓', '西门消防栓'])
    expect(s.searched).toBe(true)
    s.clear()
    expect([s.kw, s.results, s.searched]).toEqual(['', [], false])
  })

  it('keeps what it showed when the server refuses', async () => {
    let refuse = false
    const { root } = await signedInRoot({ '/api/marker/search': () => (refuse ? { status: 200, data: { header: { errcode: 1003, errmsg: '无权限' }, data: null } } : ok({ list: found, total: 2 })) })
    const s = new MarkerSearch(root, '请输入关键字', 30)
    await s.search('消防栓')
    refuse = true
    expect(await s.search('阀门')).toBe(false)
    expect(s.results).toHaveLength(2)
    expect(s.searching).toBe(false)
  })

  it('the route and task forms each say their own message for an empty keyword', async () => {
    const { root } = await signedInRoot()
    await root.route.draft.markerSearch.search('')
    expect(root.app.notices.at(-1)?.text).toBe(ROUTE_MSG.searchKwRequired)
    await root.task.draft.markerSearch.search('')
    expect(root.app.notices.at(-1)?.text).toBe(TASK_MSG.searchKwRequired)
  })
})
