/**
 * The data list on H5 against the real server: 张三 opens a layer of 100 shops from the layer
 * panel's 数据列表, filters it to the 40 whose 状态 is 待拜访, picks them all with 全选 and sets
 * 状态 to 已拜访 in one action. One of them was changed by a teammate meanwhile: it is reported,
 * not overwritten. 李四's list of the same filter, open in a second browser, follows live.
 */
import type { Page } from 'playwright-core'
import { DATA_LIST_MSG } from '../../src/domain/dataListMessages'
import { acceptInvitation, apiOk, apiSignIn, exact, on, openWorld, shot, signIn, signUp, type ApiAuth, type Server, type World } from './harness'

jest.setTimeout(300_000)

const ADMIN_PHONE = '13800000701'
const MEMBER_PHONE = '13800000702'
const SEEN = { timeout: 20_000 }

let world: World
let server: Server
let a: Page
let b: Page
let adminApi: Required<ApiAuth>
let layerId = 0
let statusField = 0

beforeAll(async () => {
  world = await openWorld()
  ;({ server } = world)
  a = await world.newPage()
  b = await world.newPage()
})

afterAll(async () => {
  await world?.close()
})

const api = (path: string, body: Record<string, unknown>) => apiOk(server, path, body, adminApi)
const countLine = (page: Page, text: string) => on(page, '.datalist-count__text', exact(text)).waitFor(SEEN)

async function filterPending(page: Page): Promise<void> {
  await on(page, '.datalist-top__btn', '筛选').click()
  await on(page, '.datalist-filter-row', '状态').click()
  await on(page, '.datalist-filter .nut-checkbox', exact('待拜访')).click()
  await on(page, '.datalist-filter__actions .nut-button', exact('确定')).click()
  await page.locator('.nut-popup:visible').waitFor({ state: 'hidden' })
}

describe('the data list', () => {
  it('sets up a team with a layer of 100 shops, 40 of them 待拜访', async () => {
    await signUp(a, server, ADMIN_PHONE, '张三')
    adminApi = await apiSignIn(server, ADMIN_PHONE)
    layerId = (await api('/api/layer/save', { name: '门店', parent_id: 0, type: 1 })).id
    statusField = (await api('/api/layer/field/save', { layer_id: layerId, name: '状态', kind: 'choice', options: ['待拜访', '已拜访', '无效'] })).id
    await api('/api/layer/field/save', { layer_id: layerId, name: '金额', kind: 'number' })
    for (let i = 0; i < 100; i++) {
      const status = i < 40 ? '待拜访' : i < 80 ? '已拜访' : '无效'
      await api('/api/marker/save', { layer_id: layerId, name: `门店${String(i + 1).padStart(3, '0')}`, type: 0, points: `116.${300 + i},39.9`, fields: { [statusField]: status } })
    }
    await api('/api/user/pre/register', { nickname: '李四', phone: MEMBER_PHONE, department_id: 0 })
    await signIn(b, server, MEMBER_PHONE)
    // Joining takes the person's own yes: 李四 accepts the invitation on his first start.
    await acceptInvitation(b)
    const joins = await api('/api/group/get/joins', {})
    const member = joins.list.find((m: { user: { nickname: string } }) => m.user.nickname === '李四')
    await api('/api/group/join/setting/manager', { join_id: member.join_id, is_manager: true })
  })

  it('opens from the layer panel’s 数据列表 and renders only the rows in view', async () => {
    await a.goto(`${server.url}/map`)
    await on(a, '.map-tool', '图层').click()
    await on(a, '.layer-panel').waitFor(SEEN)
    await on(a, '.layer-row')
      .filter({ has: a.locator('.layer-row__name', { hasText: exact('门店') }) })
      .locator('.layer-row__more')
      .click()
    await on(a, '.nut-actionsheet-item', exact(DATA_LIST_MSG.entry)).click()
    await a.waitForURL(/\/datalist\?layer_id=/)
    await countLine(a, '共 100 条')
    await on(a, '.datalist-row', '门店001').waitFor(SEEN)
    const rendered = await a.locator('.datalist-row').count()
    expect(rendered).toBeGreaterThan(5)
    expect(rendered).toBeLessThan(40)
    await shot(a, 'datalist-open')
  })

  it('filters to the 40 待拜访', async () => {
    await filterPending(a)
    await countLine(a, '共 100 条 · 筛选出 40 条')
    await shot(a, 'datalist-filtered')
  })

  it('sets 状态 of all 40 at once; a row changed meanwhile is reported and 李四’s list follows live', async () => {
    await b.goto(`${server.url}/datalist?layer_id=${layerId}`)
    await countLine(b, '共 100 条')
    await filterPending(b)
    await countLine(b, '共 100 条 · 筛选出 40 条')

    await on(a, '.datalist-top__btn', '选择').click()
    await on(a, '.datalist-head .nut-checkbox', DATA_LIST_MSG.selectAll).click()
    await on(a, '.datalist-bar__count', exact(DATA_LIST_MSG.selectedLine(40))).waitFor(SEEN)
    await shot(a, 'datalist-selected')
    await on(a, '.datalist-bar .nut-button', '批量操作').click()
    await on(a, '.nut-actionsheet-item', exact(DATA_LIST_MSG.actions.set_field)).click()
    await on(a, '.datalist-form__title', exact(DATA_LIST_MSG.actions.set_field)).waitFor(SEEN)
    await shot(a, 'datalist-set-field-open')
    await on(a, '.datalist-form .nut-radio', exact('状态')).click()
    await on(a, '.datalist-form .field-input__radios .nut-radio', exact('已拜访')).click()
    await on(a, '.datalist-form__confirm', DATA_LIST_MSG.confirmSetField(40, '状态', '已拜访')).waitFor(SEEN)
    await shot(a, 'datalist-set-field')
    // A teammate renames 门店007 while 张三's call is on its way: the list showed the rev before it.
    const found = await api('/api/marker/search', { kw: '门店007', pageindex: 1, pagesize: 10 })
    const m = found.list[0]
    await a.route('**/api/marker/bulk', async (route) => {
      await api('/api/marker/save', { id: m.id, layer_id: layerId, name: '门店007（新址）', type: 0, points: m.points, fields: m.fields, rev: m.rev })
      await route.continue()
    })
    await on(a, '.datalist-form .nut-button', '确定（40 条）').click()

    await on(a, '.datalist-notice--warn', DATA_LIST_MSG.staleRows(1)).waitFor(SEEN)
    await countLine(a, '共 100 条 · 筛选出 1 条')
    await on(a, '.datalist-row', '门店007（新址）').waitFor(SEEN)
    await shot(a, 'datalist-after-bulk')

    // 李四 did nothing: live sync brought the 39 changes and the renamed one.
    await countLine(b, '共 100 条 · 筛选出 1 条')
    await on(b, '.datalist-row', '门店007（新址）').waitFor(SEEN)
    await shot(b, 'datalist-live')
    const visited = await api('/api/marker/datalist', { layer_id: layerId, query: { filters: [{ field_id: statusField, op: 'in', values: ['已拜访'] }] } })
    expect(visited.matched).toBe(79)
  })
})
