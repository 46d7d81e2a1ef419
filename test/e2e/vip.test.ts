/**
 * The membership journey against the real server (sandbox payments, no merchant keys):
 * a new user on the 7-day trial is greeted, fills in the questionnaire and gets 30 more days; buys
 * VIP 1 in the sandbox and sees the new limits after the payment callback's poll; when the team's
 * membership has run out, the administrator and a member see their own variants of the expired
 * dialog in two browser contexts: the member moves to their own map, the administrator resets the
 * team to free with a remark (SPEC 4, 5, 9).
 */
import type { Page } from 'playwright-core'
import { apiCall, apiSignIn, button, input, notice, on, openWorld, shot, signIn, signUp, type Server, type World, acceptInvitation } from './harness'

jest.setTimeout(300_000)

let world: World
let server: Server
let admin: Page

const ADMIN_PHONE = '13844440004'
const MEMBER_PHONE = '13844440005'

beforeAll(async () => {
  // Purchases complete through the local sandbox, which only PAY_SANDBOX=1 turns on.
  world = await openWorld({ PAY_SANDBOX: '1' })
  ;({ server } = world)
  admin = await world.newPage()
})

afterAll(() => world?.close())

describe('membership: trial, questionnaire, sandbox purchase, expiry dialogs, reset to free', () => {
  it('a new user on the trial is greeted and fills in the questionnaire for 30 more days', async () => {
    await signUp(admin, server, ADMIN_PHONE, '钱会员', { keepWelcome: true })
    // SPEC 2 trial welcome: 'contact service' and 'fill in questionnaire'.
    await admin.getByText('欢迎试用团队地图').waitFor()
    await button(admin, '联系客服').waitFor()
    await on(admin, '.map-level', '试用版 · 剩余7天').waitFor()
    await shot(admin, '60-trial-welcome')
    await button(admin, '填写问卷').click()
    await on(admin, '.verify-form').waitFor()

    // SPEC 5: company name first, then each required field in the form's order.
    await button(admin, '提交问卷').click()
    await notice(admin, '请输入企业名称').waitFor()
    await input(admin, '请输入企业名称').fill('钱氏物流')
    await input(admin, '请输入您的行业或工作性质').fill('物流配送')
    await button(admin, '提交问卷').click()
    await notice(admin, '请输入企业规模').waitFor()
    await on(admin, '.verify-size .nut-radio', '20-50人').click()
    await input(admin, '请输入您的称呼').fill('钱经理')
    await button(admin, '提交问卷').click()
    await notice(admin, '请输入 问卷1 回答').waitFor()
    const answers = admin.locator('textarea[placeholder="请输入您的回答"]:visible')
    await answers.nth(0).fill('客户网点和配送站')
    await button(admin, '提交问卷').click()
    await notice(admin, '请输入 问卷3 回答').waitFor()
    await answers.nth(2).fill('外勤人员的签到和路线')
    await shot(admin, '61-questionnaire')
    await button(admin, '提交问卷').click()
    await notice(admin, '提交成功，已为您增加30天试用期').waitFor()
    await on(admin, '.map-level', '试用版 · 剩余37天').waitFor()

    // The centre no longer offers the bonus: it is given once.
    await on(admin, '.map-level').click()
    await admin.waitForURL(/\/vip$/)
    await on(admin, '.vip-card__exp', '剩余37天').waitFor()
    expect(await on(admin, '.vip-bonus').count()).toBe(0)
    await on(admin, '.vip-meter--markers .vip-meter__text', '0 / 300').waitFor()
  })

  it('buys VIP 1 in the sandbox: success notice, then the new level and limits arrive', async () => {
    await on(admin, '.vip-product--1 .nut-button', '购买').click()
    await admin.getByText('模拟支付').waitFor()
    // The sheet names the purchase, nothing of the server's configuration.
    const sheet = (await on(admin, '.sandbox-pay').textContent()) ?? ''
    expect(sheet).toMatch(/VIP 1.*¥/)
    expect(sheet).not.toMatch(/服务器|商户号|沙箱|配置/)
    await shot(admin, '62-sandbox-pay')
    await button(admin, '确认支付').click()
    await notice(admin, '支付成功，会员权益即将生效').waitFor()
    // SPEC 4/9: 7 s of the success notice, then user info every 3 s until the level shows.
    await notice(admin, '会员已生效：VIP 1').waitFor({ timeout: 30_000 })
    await on(admin, '.vip-card__level', 'VIP 1').waitFor()
    await on(admin, '.vip-meter--markers .vip-meter__text', '0 / 1000').waitFor()
    await on(admin, '.vip-meter--members .vip-meter__text', '0 / 10人').waitFor()
    await on(admin, '.vip-meter--storage .vip-meter__text', '0M / 512M').waitFor()
    await on(admin, '.vip-product--1 .nut-button', '续费').waitFor()
    await on(admin, '.page-header__title', '会员中心').waitFor()
    await shot(admin, '63-vip-centre')

    await button(admin, '我的订单').click()
    await admin.waitForURL(/\/order$/)
    await on(admin, '.order-item--1 .order-item__status', '已支付').waitFor()
    await on(admin, '.order-item--1 .order-item__price', '¥88.00').waitFor()
    await shot(admin, '64-orders')
  })

  it('an expired team shows the administrator and member dialogs; the member moves to their own map, the administrator resets to free', async () => {
    const auth = await apiSignIn(server, ADMIN_PHONE)
    expect((await apiCall(server, '/api/user/pre/register', { nickname: '孙成员', phone: MEMBER_PHONE, department_id: 0 }, auth)).header.errcode).toBe(0)
    const member = await world.newPage()
    await signIn(member, server, MEMBER_PHONE)
    await acceptInvitation(member)
    await on(member, '.map-level', 'VIP 1').waitFor()

    // The membership ran out yesterday (no API makes that state).
    server.sql('UPDATE groups SET vip_exp = ? WHERE id = ?', new Date(Date.now() - 24 * 3600_000).toISOString(), auth.groupid)

    await admin.goto(`${server.url}/map`)
    await admin.getByText('您的团队会员已过期，请续费或重置为免费版').waitFor()
    await button(admin, '立即续费').waitFor()
    await button(admin, '重置为免费版').waitFor()
    await button(admin, '退出登录').waitFor()
    await shot(admin, '65-expired-admin')

    await member.goto(`${server.url}/map`)
    await member.getByText('团队会员已过期，请联系团队管理员续费，或切换到您自己的地图').waitFor()
    expect(await button(member, '重置为免费版').count()).toBe(0)
    await shot(member, '66-expired-member')
    await button(member, '切换到我的地图').click()
    await notice(member, '已切换到').waitFor()
    await on(member, '.map-level', '试用版').waitFor()
    expect(await member.getByText('团队会员已过期').count()).toBe(0)
    await member.context().close()

    // Renewing is possible without the dialog in the way.
    await button(admin, '立即续费').click()
    await admin.waitForURL(/\/vip$/)
    await on(admin, '.vip-card .nut-tag', '已过期').waitFor()
    expect(await admin.getByText('您的团队会员已过期').count()).toBe(0)

    await admin.goto(`${server.url}/map`)
    await button(admin, '重置为免费版').click()
    await admin.getByText(/重置为免费版后将移除所有协作成员/).waitFor()
    await button(admin, '确定重置').click()
    // SPEC 5: a reset needs a remark.
    await notice(admin, '请填写重置会员备注信息').waitFor()
    await input(admin, '请填写重置会员备注信息').fill('暂不续费，先用免费版')
    await shot(admin, '67-reset-confirm')
    await button(admin, '确定重置').click()
    await notice(admin, '已重置为免费版').waitFor()
    await on(admin, '.map-level', '免费版').waitFor()
    expect(await admin.getByText('您的团队会员已过期').count()).toBe(0)
    // The member was removed from the team.
    const joins = await apiCall(server, '/api/group/get/joins', {}, auth)
    expect(joins.data.list.map((m: { user: { nickname: string } }) => m.user.nickname)).toEqual(['钱会员'])
  })
})
