/**
 * Consent on the phone, against the real server: a team's invitation asks the invited person (on
 * their next start and under 我的, with the team's name and who invited them) and they join only by
 * 加入; the map says quietly that their position goes to the team (位置共享中 · 团队名) until they
 * turn it off in settings; settings lists the signed-in devices and 退出其他设备 ends the others.
 */
import type { Page } from 'playwright-core'
import { apiCall, apiSignIn, button, on, openWorld, shot, signUp, type ApiAuth, type Server, type World } from './harness'

jest.setTimeout(300_000)

let world: World
let server: Server
let admin: Page
let member: Page
let adminAuth: ApiAuth

const ADMIN_PHONE = '13811115001'
const MEMBER_PHONE = '13922225002'
const TEAM = '王队长的地图'

beforeAll(async () => {
  world = await openWorld()
  ;({ server } = world)
  admin = await world.newPage()
  member = await world.newPage({ permissions: ['geolocation'], geolocation: { longitude: 116.397, latitude: 39.909 } })
})

afterAll(() => world?.close())

describe('consent: invitations, position sharing, signed-in devices', () => {
  it('an invitation asks the person on their next start, names the team and who invited them, and joins nothing until 加入', async () => {
    await signUp(admin, server, ADMIN_PHONE, '王队长')
    await signUp(member, server, MEMBER_PHONE, '李四')
    adminAuth = await apiSignIn(server, ADMIN_PHONE)
    const invited = await apiCall(server, '/api/user/pre/register', { nickname: '李四', phone: MEMBER_PHONE, department_id: 0 }, adminAuth)
    expect(invited.data).toEqual({ joined: false })

    // The next start of the app asks.
    await member.goto(`${server.url}/map`)
    const dialog = member.locator('.invite-dialog')
    await dialog.getByText(`王队长 邀请你加入「${TEAM}」`).waitFor()
    await shot(member, 'consent-invitation-dialog')
    await dialog.locator('.invite-dialog__later').click()
    await dialog.waitFor({ state: 'hidden' })
    // Put off: still not a member, and listed under 我的.
    const joins = await apiCall(server, '/api/group/get/joins', {}, adminAuth)
    expect(joins.data.list.map((m: { user: { nickname: string } }) => m.user.nickname)).toEqual(['王队长'])
    await member.goto(`${server.url}/home`)
    const row = on(member, '.home-invitation', TEAM)
    await row.waitFor()
    await row.getByText('王队长 邀请你加入').waitFor()
    await shot(member, 'consent-invitation-home')
    await row.locator('.home-invitation__accept').click()
    await member.waitForURL(/\/map$/)
    await member.getByText(`已加入「${TEAM}」`).waitFor()
    const after = await apiCall(server, '/api/group/get/joins', {}, adminAuth)
    expect(after.data.list.map((m: { user: { nickname: string } }) => m.user.nickname)).toEqual(['王队长', '李四'])
  })

  it('the map says the position goes to the team, and settings turns it off', async () => {
    await member.goto(`${server.url}/map`)
    const line = member.locator('.map-location-share')
    await on(member, '.map-location-share', `位置共享中 · ${TEAM}`).waitFor()
    await shot(member, 'consent-location-sharing-map')

    await member.goto(`${server.url}/system/setting`)
    const sharing = member.locator('.setting-location-share')
    await sharing.getByText('向团队共享我的位置').waitFor()
    await sharing.locator('.nut-switch').click()
    await member.getByText('已停止共享位置').waitFor()
    await shot(member, 'consent-location-sharing-off')
    expect((await apiCall(server, '/api/user/location/getbygroupid', {}, adminAuth)).data).toEqual([])

    await member.goto(`${server.url}/map`)
    await on(member, '.map-count', '视野内').waitFor()
    await line.waitFor({ state: 'hidden' })
    expect(await line.count()).toBe(0)
  })

  it('settings lists the signed-in devices and 退出其他设备 ends the others', async () => {
    // The same account signed in on another device.
    const other = await apiSignIn(server, MEMBER_PHONE)
    await member.goto(`${server.url}/system/setting`)
    const devices = member.locator('.setting-device')
    await member.locator('.setting-device--current').getByText('本机').waitFor()
    await expectCount(devices, 2)
    await shot(member, 'consent-devices')
    await button(member, '退出其他设备').click()
    await member.locator('.setting-signout-dialog').getByText('其他设备上的登录将失效').waitFor()
    await member.locator('.setting-signout-dialog .nut-dialog-footer-ok').click()
    await member.getByText('已退出1台其他设备').waitFor()
    await expectCount(devices, 1)
    await button(member, '仅本机登录').waitFor()
    await shot(member, 'consent-devices-signed-out')
    const res = await fetch(`${server.url}/api/user/getinfo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ header: { userid: other.userid, token: other.token } }),
    })
    expect(res.status).toBe(401)
  })
})

async function expectCount(locator: ReturnType<Page['locator']>, n: number): Promise<void> {
  await locator.nth(n - 1).waitFor()
  await locator.nth(n).waitFor({ state: 'detached' })
  expect(await locator.count()).toBe(n)
}
