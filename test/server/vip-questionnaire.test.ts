/**
 * The questionnaire and enterprise profile (SPEC 1, 3, 5, 9): SPEC 5's messages, +30 trial
 * days once, verifyed; and the reminder rules of src/domain/tiers applied to what the server says.
 */
import { ErrCode } from '../../types/api'
import { shanghaiDay, vipPrompt } from '../../src/domain/tiers'
import { DAY_MS, sessionsUsedUntilNow } from './helpers'
import { makeWorld, ok, type TeamWorld } from './teams-fixture'
import { buyInSandbox, groupRow, passTrial } from './vip-fixture'

let w: TeamWorld
beforeEach(async () => {
  w = await makeWorld({ paySandbox: true })
})
afterEach(() => w.close())

const FILLED = { name: '某测绘公司', business_type: '测绘', size: 3, contacts: '王工', post: '', qa: ['外业采集', '', '离线地图'] }

describe('/api/user/verify/submit', () => {
  it.each<[string, object, string]>([
    ['no company name', { name: '' }, '请输入企业名称'],
    ['a blank company name', { name: '  ' }, '请输入企业名称'],
    ['no industry', { business_type: undefined }, '请输入您的行业或工作性质'],
    ['no size', { size: undefined }, '请输入企业规模'],
    ['a size out of the options', { size: 7 }, '请输入企业规模'],
    ['a size as text', { size: '3' }, '请输入企业规模'],
    ['no contact name', { contacts: '' }, '请输入您的称呼'],
    ['no answer 1', { qa: ['', 'b', 'c'] }, '请输入 问卷1 回答'],
    ['no answer 3', { qa: ['a', 'b'] }, '请输入 问卷3 回答'],
    ['no answers', { qa: [] }, '请输入 问卷1 回答'],
  ])("should refuse %s with SPEC 5's message and change nothing", async (_name, patch, message) => {
    const before = await groupRow(w)
    expect(await w.call('/api/user/verify/submit', { ...FILLED, ...patch }, w.owner)).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: message })
    expect(await groupRow(w)).toEqual(before)
    expect(ok(await w.call('/api/user/getinfo', {}, w.owner)).user.verifyed).toBe(false)
  })

  it('should give the trial 30 more days once and mark the user verified', async () => {
    const trialExp = (await groupRow(w)).vip_exp as string
    expect(ok(await w.call('/api/vip/info', {}, w.owner))).toMatchObject({ verifyed: false, can_get_trial_bonus: true })
    const first = ok(await w.call('/api/user/verify/submit', FILLED, w.owner))
    const extended = new Date(Date.parse(trialExp) + 30 * DAY_MS).toISOString()
    expect(first).toEqual({ verifyed: true, bonus_days: 30, vip_exp: extended })
    expect(await groupRow(w)).toMatchObject({ level: 1, vip_exp: extended, marker_limit: 300, join_limit: 5 })
    expect(ok(await w.call('/api/user/getinfo', {}, w.owner)).user).toMatchObject({ verifyed: true, vip_exp: extended })
    expect(ok(await w.call('/api/vip/info', {}, w.owner))).toMatchObject({ verifyed: true, can_get_trial_bonus: false, days_left: 37 })

    // Again (and through enterprise/save): the profile changes, the days do not.
    const second = ok(await w.call('/api/user/verify/submit', { ...FILLED, name: '改名公司' }, w.owner))
    expect(second).toEqual({ verifyed: true, bonus_days: 0, vip_exp: extended })
    ok(await w.call('/api/user/enterprise/save', { ...FILLED, post: '经理' }, w.owner))
    expect((await groupRow(w)).vip_exp).toBe(extended)
    expect(ok(await w.call('/api/user/enterprise/get', {}, w.owner))).toEqual({ ...FILLED, post: '经理' })
  })

  it("should count an expired trial's 30 days from now", async () => {
    passTrial(w)
    const res = ok(await w.call('/api/user/verify/submit', FILLED, w.owner))
    expect(res.vip_exp).toBe(new Date(w.t.clock.now().getTime() + 30 * DAY_MS).toISOString())
    expect(ok(await w.call('/api/user/check/expired', {}, w.owner))).toMatchObject({ expired: false, level: 1 })
  })

  it('should give no days to a paid group, to a group the user does not own, or twice by concurrent submissions', async () => {
    await buyInSandbox(w, 1)
    const paid = await groupRow(w)
    expect(ok(await w.call('/api/user/verify/submit', FILLED, w.owner))).toMatchObject({ bonus_days: 0, vip_exp: paid.vip_exp })
    expect(await groupRow(w)).toEqual(paid)

    const member = await w.join('13900000001', '队员')
    expect(ok(await w.call('/api/user/verify/submit', FILLED, member))).toMatchObject({ verifyed: true, bonus_days: 0 })
    expect(await groupRow(w)).toEqual(paid)
    expect(ok(await w.call('/api/user/getinfo', {}, member)).user.verifyed).toBe(true)

    const other = await w.stranger('13900000002', '别人')
    const own = ok(await w.call('/api/user/getinfo', {}, other)).user.select_groupid as number
    const before = await groupRow(w, own)
    const results = await Promise.all([1, 2, 3].map(() => w.call('/api/user/verify/submit', FILLED, other)))
    expect(results.map((r) => r.data.bonus_days).sort()).toEqual([0, 0, 30])
    expect((await groupRow(w, own)).vip_exp).toBe(new Date(Date.parse(before.vip_exp as string) + 30 * DAY_MS).toISOString())
  })

  it('should keep the profile per user, trimmed, and start with none', async () => {
    expect(ok(await w.call('/api/user/enterprise/get', {}, w.owner))).toBeNull()
    expect(ok(await w.call('/api/user/enterprise/save', { ...FILLED, name: ' 公司 ', qa: [' a ', 'b', 'c '] }, w.owner))).toEqual({ ...FILLED, name: '公司', qa: ['a', 'b', 'c'] })
    // The first save is the questionnaire: it verifies and gives the days once.
    expect(ok(await w.call('/api/user/getinfo', {}, w.owner)).user.verifyed).toBe(true)
    const member = await w.join('13900000001', '队员')
    expect(ok(await w.call('/api/user/enterprise/get', {}, member))).toBeNull()
    expect(await w.call('/api/user/enterprise/save', { ...FILLED, contacts: '' }, w.owner)).toMatchObject({ errmsg: '请输入您的称呼' })
  })

  it('should go with the account when it is deleted', async () => {
    ok(await w.call('/api/user/verify/submit', FILLED, w.owner))
    ok(await w.call('/api/user/logoff', {}, w.owner))
    expect(await w.t.db.kysely.selectFrom('enterprises').selectAll().execute()).toEqual([])
  })
})

describe("reminder and expired dialogs on the server's data (SPEC 4)", () => {
  async function prompt(auth = w.owner, lastShown: string | null = null) {
    const info = ok(await w.call('/api/vip/info', {}, auth))
    return vipPrompt({ level: info.level, vip_exp: info.vip_exp }, info.is_admin, w.t.clock.now(), lastShown)
  }

  it('should skip a new trial at 7 days, remind from 6 days once a day, then show the expired dialogs by role', async () => {
    const member = await w.join('13900000001', '队员')
    expect(await prompt()).toBeNull()
    w.t.clock.advance(DAY_MS)
    expect(await prompt()).toEqual({ kind: 'reminder', days: 6 })
    expect(await prompt(member)).toEqual({ kind: 'reminder', days: 6 })
    const today = shanghaiDay(w.t.clock.now())
    expect(await prompt(w.owner, today)).toBeNull()
    w.t.clock.advance(DAY_MS)
    expect(await prompt(w.owner, today)).toEqual({ kind: 'reminder', days: 5 })
    w.t.clock.advance(5 * DAY_MS)
    expect(await prompt()).toEqual({ kind: 'expired_admin' })
    expect(await prompt(member)).toEqual({ kind: 'expired_member' })
  })

  it('should remind a VIP 7 days before, not 8', async () => {
    await buyInSandbox(w, 1)
    const exp = Date.parse((await groupRow(w)).vip_exp as string)
    w.t.clock.set(new Date(exp - 8 * DAY_MS))
    await sessionsUsedUntilNow(w.t)
    expect(await prompt()).toBeNull()
    w.t.clock.set(new Date(exp - 7 * DAY_MS))
    expect(await prompt()).toEqual({ kind: 'reminder', days: 7 })
  })
})
