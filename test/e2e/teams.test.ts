/**
 * The teams journey with two browser contexts against the real server: the administrator
 * builds nested departments, authorises one layer to a child department, creates a role and adds a
 * second person by phone; that person signs in on another phone, accepts the invitation, sees exactly
 * the authorised layer, cannot edit it (the UI hides it and the server refuses a forged call), gets
 * the data-refresh notice within about 10 s when the administrator gives their role a module, and
 * loses access the moment they are removed.
 */
import type { Page } from 'playwright-core'
import { ErrCode } from '../../types/api'
import { apiCall, apiSignIn, button, exact, input, on, openWorld, shot, signIn, signUp, type ApiAuth, type Server, type World, acceptInvitation } from './harness'

jest.setTimeout(300_000)

let world: World
let server: Server
let admin: Page
let member: Page

const ADMIN_PHONE = '13811110001'
const MEMBER_PHONE = '13922220002'

beforeAll(async () => {
  world = await openWorld()
  ;({ server } = world)
  admin = await world.newPage()
  member = await world.newPage()
})

afterAll(() => world?.close())

const call = (path: string, body: Record<string, unknown>, auth?: ApiAuth) => apiCall(server, path, body, auth)
const apiLogin = (phone: string) => apiSignIn(server, phone)

async function openLayerPanel(page: Page): Promise<void> {
  await on(page, '.map-tool', '图层').click()
  await on(page, '.layer-panel').waitFor()
}

async function closePopups(page: Page): Promise<void> {
  await page.waitForFunction(() => ![...document.querySelectorAll('.nut-overlay')].some((el) => (el as HTMLElement).offsetParent !== null))
}

async function tick(page: Page, name: string): Promise<void> {
  await on(page, '.tree-select__row', exact(name)).click()
}

describe('teams: departments, roles, invitation, authorised layers, refresh, removal', () => {
  let customersLayerId = 0

  it('the administrator creates two layers', async () => {
    await signUp(admin, server, ADMIN_PHONE, '王管理')
    await openLayerPanel(admin)
    for (const name of ['客户', '仓库']) {
      await button(admin, '新建图层').click()
      await input(admin, '请输入图层名称').fill(name)
      await on(admin, '.nut-radio', exact('点图层')).click()
      await button(admin, '确定').click()
      await on(admin, '.layer-row__name', exact(name)).waitFor()
    }
    const auth = await apiLogin(ADMIN_PHONE)
    const layers = await call('/api/layer/getlist', {}, auth)
    customersLayerId = layers.data.find((l: { name: string }) => l.name === '客户').id
    expect(customersLayerId).toBeGreaterThan(0)
  })

  it('builds nested departments and authorises the 客户 layer to the child department', async () => {
    await admin.goto(`${server.url}/department`)
    await button(admin, '添加部门').click()
    await input(admin, '请输入部门名称').fill('销售部')
    await button(admin, '保存').click()
    await on(admin, '.dept__name', exact('销售部')).click()
    await on(admin, '.nut-actionsheet-item', exact('添加下级部门')).click()
    await input(admin, '请输入部门名称').fill('华北组')
    await button(admin, '保存').click()
    await on(admin, '.dept__name', exact('华北组')).waitFor()
    await closePopups(admin)

    await on(admin, '.dept__name', exact('华北组')).click()
    await on(admin, '.nut-actionsheet-item', exact('授权图层')).click()
    await tick(admin, '客户')
    await shot(admin, '40-team-layer-pick')
    await button(admin, '确定').click()
    // The permissions step: data list and notes are preselected; add 新增标注.
    await on(admin, '.tree-select__row', /新增标注/).waitFor()
    await tick(admin, '标注 · 新增标注')
    await button(admin, '确定').click()
    await on(admin, '.dept__line', /授权图层：客户/).waitFor()
    await on(admin, '.dept__line', /新增标注/).waitFor()
    await shot(admin, '41-departments')
  })

  it('creates a role, and pre-registers the second person into 华北组', async () => {
    await admin.goto(`${server.url}/group`)
    await on(admin, '.nut-tabs-titles-item', '角色').click()
    await button(admin, '新建角色').click()
    await input(admin, '如：外勤人员').fill('外勤')
    await on(admin, '.role-form .nut-button', '保存').click()
    await on(admin, '.role__name', exact('外勤')).waitFor()
    await closePopups(admin)

    await on(admin, '.nut-tabs-titles-item', '成员').click()
    await button(admin, '手机号添加').click()
    await input(admin, '请输入成员姓名').fill('李外勤')
    await input(admin, '请输入手机号').fill(MEMBER_PHONE)
    await on(admin, '.add-form__picker').click()
    await on(admin, '.dept-pick__name', exact('华北组')).click()
    await button(admin, '添加').click()
    await on(admin, '.member--pending .member__name', exact('李外勤')).waitFor()
    await on(admin, '.section-head', '成员').filter({ hasText: '协作成员 1/5' }).waitFor()
    await shot(admin, '42-group-members')
  })

  it('the second person signs in with their phone and lands in the team seeing only the authorised layer', async () => {
    await signIn(member, server, MEMBER_PHONE)
    // Invited: asked at once (on the guide), and 加入 takes them to the team's map with the name given, no nickname step.
    await acceptInvitation(member)
    await openLayerPanel(member)
    await on(member, '.layer-row__name', exact('客户')).waitFor()
    expect(await on(member, '.layer-row__name', exact('仓库')).count()).toBe(0)
    // No 新建图层 at the top level for a plain member.
    expect(await button(member, '新建图层').count()).toBe(0)
    await shot(member, '43-member-layers')
  })

  it('the member cannot edit the layer: the UI hides it and the server refuses a forged call', async () => {
    await on(member, '.layer-row', /客户/).locator('.layer-row__more').click()
    await on(member, '.nut-actionsheet-item', exact('在此图层添加标注')).waitFor()
    expect(await on(member, '.nut-actionsheet-item', exact('重命名')).count()).toBe(0)
    expect(await on(member, '.nut-actionsheet-item', exact('删除图层')).count()).toBe(0)
    await shot(member, '44-member-layer-actions')
    await on(member, '.nut-actionsheet-cancel').click()

    const auth = await apiLogin(MEMBER_PHONE)
    const forged = await call('/api/layer/save', { id: customersLayerId, name: '改名' }, auth)
    expect(forged.header.errcode).toBe(ErrCode.FORBIDDEN)
    const del = await call('/api/layer/delete', { id: customersLayerId }, auth)
    expect(del.header.errcode).toBe(ErrCode.FORBIDDEN)
    // What the member was given works.
    const added = await call('/api/marker/save', { layer_id: customersLayerId, type: 0, name: '张三门店', points: '116.40,39.90' }, auth)
    expect(added.header.errcode).toBe(0)
  })

  it('the member sees the refresh notice within about 10 s when their role gains a module', async () => {
    await member.goto(`${server.url}/home`)
    await on(member, '.home-team').waitFor()
    expect(await on(member, '.home-oplog').count()).toBe(0)

    await admin.goto(`${server.url}/group`)
    await on(admin, '.nut-tabs-titles-item', '角色').click()
    await on(admin, '.role', /外勤/).locator('.role__line', { hasText: '模块' }).click()
    // The log needs the 日志 module and, within it, the 操作日志 permission (moduleGate FEATURES.log).
    await tick(admin, '日志')
    await tick(admin, '操作日志')
    await button(admin, '确定').click()
    await on(admin, '.role__value', /日志/).waitFor()
    await closePopups(admin)
    await on(admin, '.role', /外勤/).locator('.role__line', { hasText: '成员' }).click()
    await tick(admin, '李外勤')
    await button(admin, '确定').click()
    await on(admin, '.role__value', exact('李外勤')).waitFor()
    await shot(admin, '45-roles')

    await member.getByText('团队数据已更新').waitFor({ timeout: 15_000 })
    await on(member, '.home-oplog').waitFor()
    await shot(member, '46-member-refreshed')
  })

  it('a member without the module gets a clear message on the page address', async () => {
    const auth = await apiLogin(ADMIN_PHONE)
    const roles = await call('/api/role/getlist', {}, auth)
    const role = roles.data.find((r: { name: string }) => r.name === '外勤')
    expect((await call('/api/role/save/module', { role_id: role.id, module_ids: ['module_map'] }, auth)).header.errcode).toBe(0)
    await member.getByText('团队数据已更新').last().waitFor({ timeout: 15_000 })
    await member.goto(`${server.url}/oplog`)
    await member.getByText('您没有「日志」模块的权限，请联系团队管理员开通').waitFor()
    await shot(member, '47-module-blocked')
  })

  it('removing the member ends their access at once', async () => {
    const memberAuth = await apiLogin(MEMBER_PHONE)
    await admin.goto(`${server.url}/group`)
    await on(admin, '.member', /李外勤/)
      .locator('.member__more')
      .click()
    await on(admin, '.nut-actionsheet-item', exact('移出团队')).click()
    await button(admin, '移出').click()
    await on(admin, '.member__name', exact('李外勤')).waitFor({ state: 'detached' })

    // Their token can no longer read the group's data.
    const read = await call('/api/marker/getlist', { layer_ids: [customersLayerId], pageindex: 1, pagesize: 100 }, memberAuth)
    const leaked = read.header.errcode === 0 ? read.data.list.filter((m: { layer_id: number }) => m.layer_id === customersLayerId) : []
    expect(leaked).toEqual([])
    // Their app takes them to a map of their own.
    await member.goto(`${server.url}/map`)
    await member.getByText('团队数据已更新').waitFor({ timeout: 15_000 })
    const info = await call('/api/user/getinfo', {}, memberAuth)
    expect(info.data.user.select_groupid).not.toBe(memberAuth.groupid)
  })
})
