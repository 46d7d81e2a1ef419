/**
 * Live team sync on H5 against the real server: two phones of one team (the administrator 张三
 * and the member 李四). What 张三 does shows on 李四's map without a reload; both edit one
 * marker, 李四's stale save opens the conflict sheet and the merge keeps both edits; 李四 sees
 * 「张三正在编辑」; the status chip says 已同步. Waits are for DOM changes (timeouts only guard failures).
 */
import type { Page } from 'playwright-core'
import { SYNC_MSG } from '../../src/domain/syncMessages'
import { apiOk, apiSignIn, button, exact, input, on, openWorld, shot, signIn, signUp, type ApiAuth, type Server, type World, acceptInvitation } from './harness'

jest.setTimeout(300_000)

const ADMIN_PHONE = '13800000601'
const MEMBER_PHONE = '13800000602'
/** Long enough for a slow shared machine; a change normally shows within 2 s. */
const SEEN = { timeout: 20_000 }

let world: World
let server: Server
let a: Page
let b: Page
let adminApi: Required<ApiAuth>
let markerId = 0

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

/** How many markers a phone's store holds (the map's count line carries it). */
const held = (page: Page, n: number) => page.locator(`.map-count[data-loaded="${n}"]`).waitFor(SEEN)

async function openDetailBySearch(page: Page, name: string): Promise<void> {
  await on(page, '.map-search-entry').click()
  await input(page, '搜索标注名称、备注、字段内容').fill(name)
  await on(page, '.map-search__go').click()
  await on(page, '.map-search__results .nut-cell', name).first().click()
  await on(page, '.marker-detail__name', exact(name)).waitFor()
}

describe('live team sync between two phones', () => {
  it('sets up a team: 张三 administers it with a point layer, 李四 is a manager in it', async () => {
    await signUp(a, server, ADMIN_PHONE, '张三')
    adminApi = await apiSignIn(server, ADMIN_PHONE)
    await api('/api/layer/save', { name: '客户', parent_id: 0, type: 1 })
    await api('/api/user/pre/register', { nickname: '李四', phone: MEMBER_PHONE, department_id: 0 })
    await signIn(b, server, MEMBER_PHONE)
    await acceptInvitation(b)
    const joins = await api('/api/group/get/joins', {})
    const member = joins.list.find((m: { user: { nickname: string } }) => m.user.nickname === '李四')
    await api('/api/group/join/setting/manager', { join_id: member.join_id, is_manager: true })
    // Both phones start from the map as it is now.
    for (const p of [a, b]) {
      await p.goto(`${server.url}/map`)
      await held(p, 0)
    }
    await on(b, '.sync-chip', SYNC_MSG.synced).waitFor(SEEN)
  })

  it('张三 adds a marker and 李四 sees it without reloading', async () => {
    await on(a, '.map-tool', '添加').click()
    await on(a, '.nut-actionsheet-item', exact('手动输入坐标')).click()
    await a.waitForURL(/\/addinfo/)
    await input(a, '请输入标注名称').fill('东门仓库')
    await input(a, '经度,纬度').fill('116.397428,39.90923')
    await button(a, '设为此坐标').click()
    await button(a, '保存标注').click()
    await a.waitForURL(/\/map$/)
    await on(a, '.marker-detail__name', exact('东门仓库')).waitFor()
    await held(b, 1)
    const found = await api('/api/marker/search', { kw: '东门仓库', pageindex: 1, pagesize: 10 })
    markerId = found.list[0].id
    await on(b, '.sync-chip', SYNC_MSG.synced).waitFor(SEEN)
    await on(b, '.sync-chip', SYNC_MSG.online(1)).waitFor(SEEN)
    await shot(b, '90-sync-b-after-add')
  })

  it('张三 moves it and adds a note; 李四’s open detail follows', async () => {
    await openDetailBySearch(b, '东门仓库')
    const [current] = await api('/api/marker/getbyid', { ids: [markerId] })
    await api('/api/marker/save', { ...current, points: '116.5,39.95', rev: current.rev })
    await on(b, '.marker-detail__coord', '116.5, 39.95').waitFor(SEEN)
    await api('/api/marker/note/save', { marker_id: markerId, content: '下午三点后可以卸货' })
    await on(b, '.note__content', '下午三点后可以卸货').waitFor(SEEN)
  })

  it('李四 sees 「张三正在编辑」 while 张三 has the marker’s editor open', async () => {
    await a.goto(`${server.url}/addinfo?id=${markerId}`)
    await input(a, '请输入标注名称').waitFor()
    await on(b, '.marker-detail__presence', SYNC_MSG.editing(['张三'])).waitFor(SEEN)
    await shot(b, '91-sync-presence')
  })

  it('both edit the marker: 李四’s stale save opens the conflict sheet and the merge keeps both edits', async () => {
    await on(b, '.marker-detail__edit').click()
    await b.waitForURL(/\/addinfo/)
    await input(b, '经度,纬度').waitFor()
    // 张三 renames it and saves first.
    await input(a, '请输入标注名称').fill('东门仓库（新）')
    await button(a, '保存修改').click()
    await a.waitForURL(/\/map$/)
    // 李四 moved it on the form opened before that save.
    await input(b, '经度,纬度').fill('116.6,39.96')
    await button(b, '设为此坐标').click()
    await button(b, '保存修改').click()
    await on(b, '.conflict-sheet .nut-popup-title-title', SYNC_MSG.conflictTitle).waitFor(SEEN)
    await on(b, '.conflict-row__label', exact('名称')).waitFor()
    await on(b, '.conflict-row__label', exact('位置')).waitFor()
    // What was typed is still in the form behind the sheet.
    expect(await input(b, '请输入标注名称').inputValue()).toBe('东门仓库')
    await shot(b, '92-sync-conflict-sheet')
    await button(b, SYNC_MSG.merge).click()
    await b.waitForURL(/\/map$/)
    const [saved] = await api('/api/marker/getbyid', { ids: [markerId] })
    expect(saved.name).toBe('东门仓库（新）')
    expect(saved.points.startsWith('116.6')).toBe(true)
    expect(saved.points).toContain(',39.96')
    // 张三's phone gets 李四's position.
    await on(a, '.marker-detail__coord', '116.6, 39.96').waitFor(SEEN)
  })

  it('张三 deletes it and it leaves 李四’s map', async () => {
    const [current] = await api('/api/marker/getbyid', { ids: [markerId] })
    await api('/api/marker/delete', { id: markerId, rev: current.rev })
    await held(b, 0)
    await on(b, '.sync-chip', SYNC_MSG.synced).waitFor(SEEN)
  })
})
