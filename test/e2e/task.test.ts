/**
 * Tasks against the real server, with two phones: on a VIP map the administrator creates
 * a task at a marker on /task/add, assigned to a member; the member opens /task, finds it under 我的,
 * starts it and completes it with a check-in at the marker with a photo from Chromium's fake camera;
 * the task reads 已完成 with the proof photo; the administrator sees it done under 全部. On the free
 * tier the task tabs show the locked notice with a way to /vip while 签到记录 still lists check-ins;
 * /task/add opened directly shows its form. Screenshots 100-109.
 */
import type { Page } from 'playwright-core'
import { wgs84ToGcj02 } from '../../src/domain/geo'
import { apiCall, apiSignIn, button, expectSearchBarAligned, input, on, openWorld, quiet, shot, signIn, signUp, type ApiAuth, type Server, type World, acceptInvitation } from './harness'

jest.setTimeout(300_000)

let world: World
let server: Server
let admin: Page
let member: Page
let adminAuth: Required<ApiAuth>

const ADMIN_PHONE = '13833330001'
const MEMBER_PHONE = '13944440002'
/** Where the member stands (the browser reports WGS-84); the marker is put there in GCJ-02, as stored. */
const HERE = { longitude: 116.4035, latitude: 39.9145 }
const MARKER_AT = wgs84ToGcj02({ lng: HERE.longitude, lat: HERE.latitude })

beforeAll(async () => {
  world = await openWorld()
  ;({ server } = world)
  admin = await world.newPage()
  member = await world.newPage({ permissions: ['geolocation', 'camera'], geolocation: HERE })
})

afterAll(() => world?.close())

const call = (path: string, body: Record<string, unknown>, auth?: ApiAuth) => apiCall(server, path, body, auth)

describe('tasks', () => {
  it('sets up a VIP map with a marker and a member who holds the dispatch module', async () => {
    await signUp(admin, server, ADMIN_PHONE, '周队长')
    adminAuth = await apiSignIn(server, ADMIN_PHONE)
    // A VIP 2 map for a year (no trial prompts).
    server.sql('UPDATE groups SET level = 3, vip_exp = ? WHERE id = ?', new Date(Date.now() + 365 * 24 * 3600_000).toISOString(), adminAuth.groupid)
    const layer = await call('/api/layer/save', { name: '消防设施', type: 1 }, adminAuth)
    const marker = await call('/api/marker/save', { layer_id: layer.data.id, type: 0, name: '东门消防栓', points: `${MARKER_AT.lng},${MARKER_AT.lat}` }, adminAuth)
    expect(marker.header.errcode).toBe(0)
    expect((await call('/api/user/pre/register', { nickname: '小孙', phone: MEMBER_PHONE, department_id: 0 }, adminAuth)).header.errcode).toBe(0)

    await signIn(member, server, MEMBER_PHONE)
    await acceptInvitation(member)

    const joins = await call('/api/group/get/joins', {}, adminAuth)
    const memberId = joins.data.list.find((m: { user: { nickname: string } }) => m.user.nickname === '小孙').user.id
    const role = await call('/api/role/save', { name: '外勤' }, adminAuth)
    expect((await call('/api/role/save/module', { role_id: role.data.id, module_ids: ['module_dispatch'] }, adminAuth)).header.errcode).toBe(0)
    expect((await call('/api/role/save/join', { role_id: role.data.id, user_ids: [memberId] }, adminAuth)).header.errcode).toBe(0)
  })

  it('the administrator creates a task at the marker for the member on /task/add', async () => {
    await admin.goto(`${server.url}/home`)
    await on(admin, '.home-tasks').click()
    await admin.waitForURL(/\/task$/)
    await on(admin, '.nut-tabs-titles-item', '全部').waitFor()
    await button(admin, '新建任务').click()
    await admin.waitForURL(/\/task\/add$/)
    // The H5 title bar: the page's title, and back returns to the task centre.
    await on(admin, '.page-header__title', '新建任务').waitFor()
    await on(admin, '.page-header__back').click()
    await admin.waitForURL(/\/task$/)
    await button(admin, '新建任务').click()
    await admin.waitForURL(/\/task\/add$/)
    // No place is a real choice, in plain text rather than a greyed, disabled look; the search has no grey band of its own.
    const anyPlace = on(admin, '.task-place__name', '不限地点')
    expect(await anyPlace.evaluate((el) => getComputedStyle(el).fontWeight)).toBe('400')
    expect(await on(admin, '.task-place__search').evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgba(0, 0, 0, 0)')
    await input(admin, '例如：巡查东门消防栓').fill('检查东门消防栓')
    await input(admin, '任务要求、注意事项（选填）').fill('看压力表，拍照留存')
    await input(admin, '搜索标注名称').fill('消防栓')
    await on(admin, '.task-place__go').click()
    await on(admin, '.task-result', '东门消防栓').locator('.task-result__pick').click()
    await on(admin, '.task-place__name', '标注：东门消防栓').waitFor()
    await on(admin, '.task-pick-users').click()
    await on(admin, '.task-pick__row', '小孙').click()
    await on(admin, '.task-pick__row--on', '小孙').waitFor()
    await button(admin, '确定').click()
    await on(admin, '.task-pick-users', '小孙').waitFor()
    await shot(admin, '100-task-add')
    await button(admin, '发布任务').click()
    await admin.waitForURL(/\/task$/)
    // Not the administrator's own work: 我的 stays empty; 我创建的 lists it with its count.
    await on(admin, '.task-chip', '全部状态 0').waitFor()
    expect(await on(admin, '.task-card', '检查东门消防栓').count()).toBe(0)
    await on(admin, '.nut-tabs-titles-item', '我创建的').click()
    await on(admin, '.task-card', '检查东门消防栓').waitFor()
    await on(admin, '.task-chip', '全部状态 1').waitFor()
    await quiet(admin)
    await shot(admin, '101-task-centre-admin')
    // Every status chip with its count is on the screen (they wrap, nothing runs off the edge).
    const width = admin.viewportSize()!.width
    const chips = await on(admin, '.task-chip').evaluateAll((els) => els.map((e) => ({ text: e.textContent?.trim(), right: e.getBoundingClientRect().right })))
    expect(chips.map((c) => c.text)).toEqual(['全部状态 1', '待处理 1', '进行中 0', '已逾期 0', '已完成 0'])
    for (const c of chips) expect(c.right).toBeLessThanOrEqual(width)
    await expectSearchBarAligned(admin, '.task-bar', '.task-card')
  })

  it('the member finds it under 我的, starts it and completes it with a photo check-in', async () => {
    await member.goto(`${server.url}/task`)
    await on(member, '.nut-tabs-titles-item', '我的').waitFor()
    expect(await on(member, '.nut-tabs-titles-item', '全部').count()).toBe(0)
    const card = on(member, '.task-card', '检查东门消防栓')
    await card.waitFor()
    await on(member, '.task-chip', '待处理 1').waitFor()
    await on(member, '.task-chip', '全部状态 1').waitFor()
    await quiet(member)
    await shot(member, '102-task-mine')
    await card.click()
    await on(member, '.task-detail', '东门消防栓').waitFor()
    await quiet(member)
    await shot(member, '103-task-detail')
    await button(member, '开始').click()
    await on(member, '.task-detail .task-status', '进行中').waitFor()
    await button(member, '签到完成').click()
    await completeCheckIn(member)
    await on(member, '.task-detail .task-status', '已完成').waitFor()
    await on(member, '.task-detail__photo').first().waitFor()
    await quiet(member)
    await shot(member, '106-task-done')
    await on(member, '.task-detail-popup .nut-popup-title-right, .task-detail-popup .nut-popup-close').first().click()
    await on(member, '.task-card', '检查东门消防栓').locator('.task-status', { hasText: '已完成' }).waitFor()
  })

  it('the administrator sees it done under 全部, with the proof photo', async () => {
    await admin.goto(`${server.url}/task`)
    await on(admin, '.nut-tabs-titles-item', '全部').click()
    const card = on(admin, '.task-card', '检查东门消防栓')
    await card.locator('.task-status', { hasText: '已完成' }).waitFor()
    await on(admin, '.task-chip', '已完成 1').waitFor()
    await card.click()
    await on(admin, '.task-detail', '小孙 于').waitFor()
    await on(admin, '.task-detail__photo').first().waitFor()
    await quiet(admin)
    await shot(admin, '108-task-admin-done')
  })

  it('without the dispatch module (free tier) the task tabs say so with a way to /vip, and 签到记录 still lists check-ins', async () => {
    server.sql('UPDATE groups SET level = 0, vip_exp = NULL WHERE id = ?', adminAuth.groupid)
    await member.goto(`${server.url}/task`)
    await on(member, '.task-locked__text', '会员功能').waitFor()
    expect(await on(member, '.task-card').count()).toBe(0)
    await on(member, '.task-locked__vip').waitFor()
    await quiet(member)
    await shot(member, '107-task-locked')
    await on(member, '.nut-tabs-titles-item', '签到记录').click()
    // The member's own check-in for the task.
    await on(member, '[data-testid=sign-record]', '东门消防栓').waitFor()
    await shot(member, '109-task-signs-tab')
    await on(member, '.nut-tabs-titles-item', '我的').click()
    await on(member, '.task-locked__vip').click()
    await member.waitForURL(/\/vip$/)
    server.sql('UPDATE groups SET level = 3, vip_exp = ? WHERE id = ?', new Date(Date.now() + 365 * 24 * 3600_000).toISOString(), adminAuth.groupid)
  })

  it('opens /task/add directly and shows the form', async () => {
    await admin.goto(`${server.url}/task/add`)
    await input(admin, '例如：巡查东门消防栓').waitFor()
    await on(admin, '.task-pick-users').waitFor()
    await on(admin, '.task-due', '无截止日期').waitFor()
    await button(admin, '发布任务').waitFor()
    await on(admin, '.task-place__name', '不限地点').waitFor()
    await shot(admin, '100b-task-add-direct')
    // Opened directly there is no page to go back to: back lands on the task centre.
    await on(admin, '.page-header__back').click()
    await admin.waitForURL(/\/task$/)
  })
})

/** In the check-in sheet opened for the task: the ticket at the marker, one photo from the fake camera, 提交签到. */
async function completeCheckIn(page: Page): Promise<void> {
  const sheet = page.locator('[data-testid=checkin-sheet]:visible')
  await sheet.locator('.checkin-sheet__subtitle', { hasText: '检查东门消防栓' }).waitFor()
  // The server measured the position to the task's marker.
  await sheet.locator('.checkin-sheet__value', { hasText: '东门消防栓' }).waitFor()
  await shot(page, '104-task-checkin-sheet')
  // A photo is asked for until one is taken, and not after.
  await sheet.locator('.checkin-sheet__photo-hint', { hasText: '请至少拍摄一张照片' }).waitFor()
  await sheet.locator('[data-testid=checkin-take-photo]').click()
  await page.locator('[data-testid=watermark-camera] .wm-camera__shutter:not(.wm-camera__shutter--off)').waitFor()
  await page.locator('[data-testid=camera-shutter]').click()
  await sheet.locator('.checkin-sheet__thumb').first().waitFor()
  expect(await sheet.getByText('请至少拍摄一张照片').count()).toBe(0)
  await shot(page, '105-task-checkin-photo')
  await button(page, '提交签到').click()
}
