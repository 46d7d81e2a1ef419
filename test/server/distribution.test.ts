/**
 * Distribution (SPEC 2 /reg and /distribution/view are public; SPEC 7
 * /api/user/distribution/register; contract types/distribution.ts).
 */
import { ErrCode } from '../../types/api'
import { DISTRIBUTION_CODE_LENGTH, DISTRIBUTOR_COMPANY_MAX, DISTRIBUTOR_NAME_MAX, isDistributionCode } from '../../src/domain/distribution'
import { DIST_MSG } from '../../src/domain/distributionMessages'
import { MSG } from '../../src/domain/messages'
import { SMS_CODE_TTL_MS, SMS_MAX_WRONG_TRIES } from '../../src/domain/constants'
import { makeTestApp, type TestApp } from './helpers'
import { makeWorld, ok, type TeamWorld } from './teams-fixture'
import { buyInSandbox } from './vip-fixture'

const PROMOTER = '13912340000'

let t: TestApp

async function distributorCount(): Promise<number> {
  const row = await t.db.kysely
    .selectFrom('distributors')
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

async function sendCode(phone: string): Promise<string> {
  ok(await t.call('/api/system/send/code', { phone }))
  const code = t.sms.lastCode(phone)
  t.clock.advance(61_000)
  return code
}

async function register(fields: Record<string, unknown>) {
  return t.call('/api/user/distribution/register', fields)
}

describe('distribution register and view', () => {
  beforeEach(async () => {
    t = await makeTestApp()
  })
  afterEach(async () => {
    await t.close()
  })

  it('should register a promoter publicly (no session) with a random code of the invite alphabet', async () => {
    const code = await sendCode(PROMOTER)
    const res = await register({ name: ' 王推广 ', phone: PROMOTER, code, company: ' 星火渠道 ' })
    expect(res.status).toBe(200)
    const view = ok(res)
    expect(view).toMatchObject({ name: '王推广', company: '星火渠道', registered: 0, paid: 0, created_at: t.clock.now().toISOString() })
    expect(view.code).toHaveLength(DISTRIBUTION_CODE_LENGTH)
    expect(isDistributionCode(view.code)).toBe(true)
    expect(view.invite_path).toBe(`/login?channel=dist_${view.code}`)
    // The promotion page is public too, and reads the same.
    expect(ok(await t.call('/api/user/distribution/view', { code: view.code }))).toEqual(view)
    // Any case of the code opens it (people type codes).
    expect(ok(await t.call('/api/user/distribution/view', { code: view.code.toLowerCase() })).code).toBe(view.code)
  })

  it('should answer the existing code, name unchanged, when the same phone registers again', async () => {
    const first = ok(await register({ name: '王推广', phone: PROMOTER, code: await sendCode(PROMOTER) }))
    const again = ok(await register({ name: '换个名字', phone: PROMOTER, code: await sendCode(PROMOTER), company: '别的公司' }))
    expect(again).toEqual(first)
    expect(await distributorCount()).toBe(1)
    // Another phone gets another code.
    const other = ok(await register({ name: '李推广', phone: '13912340001', code: await sendCode('13912340001') }))
    expect(other.code).not.toBe(first.code)
  })

  it('should refuse a wrong code, with the login messages, storing nothing and counting the try', async () => {
    const code = await sendCode(PROMOTER)
    const wrong = code === '000000' ? '111111' : '000000'
    const res = await register({ name: '王推广', phone: PROMOTER, code: wrong })
    expect(res).toMatchObject({ errcode: ErrCode.CODE_INVALID, errmsg: MSG.codeWrong })
    expect(await distributorCount()).toBe(0)
    // The wrong try was counted (SMS_MAX_WRONG_TRIES in all, as for login): after the limit even the right code is refused.
    for (let i = 1; i < SMS_MAX_WRONG_TRIES; i++) await register({ name: '王推广', phone: PROMOTER, code: wrong })
    expect(await register({ name: '王推广', phone: PROMOTER, code })).toMatchObject({ errcode: ErrCode.CODE_INVALID, errmsg: MSG.codeTooManyTries })
    expect(await distributorCount()).toBe(0)
  })

  it('should refuse an expired code and a code never sent, storing nothing', async () => {
    expect(await register({ name: '王推广', phone: PROMOTER, code: '123456' })).toMatchObject({ errcode: ErrCode.CODE_INVALID, errmsg: MSG.codeWrong })
    const code = await sendCode(PROMOTER)
    t.clock.advance(SMS_CODE_TTL_MS)
    expect(await register({ name: '王推广', phone: PROMOTER, code })).toMatchObject({ errcode: ErrCode.CODE_INVALID, errmsg: MSG.codeExpired })
    expect(await distributorCount()).toBe(0)
  })

  it('should use the code once: the code that registered cannot sign in or register again', async () => {
    const code = await sendCode(PROMOTER)
    ok(await register({ name: '王推广', phone: PROMOTER, code }))
    expect(await t.call('/api/user/login', { phone: PROMOTER, code })).toMatchObject({ errcode: ErrCode.CODE_INVALID, errmsg: MSG.codeWrong })
  })

  it.each([
    [{ phone: PROMOTER, code: '123456' }, DIST_MSG.nameRequired],
    [{ name: '   ', phone: PROMOTER, code: '123456' }, DIST_MSG.nameRequired],
    [{ name: '名'.repeat(DISTRIBUTOR_NAME_MAX + 1), phone: PROMOTER, code: '123456' }, DIST_MSG.nameTooLong(DISTRIBUTOR_NAME_MAX)],
    [{ name: '王推广', code: '123456' }, MSG.phoneRequired],
    [{ name: '王推广', phone: '12345', code: '123456' }, MSG.phoneInvalid],
    [{ name: '王推广', phone: PROMOTER }, MSG.codeRequired],
    [{ name: '王推广', phone: PROMOTER, code: '12ab' }, MSG.codeInvalidFormat],
    [{ name: '王推广', phone: PROMOTER, code: '123456', company: '司'.repeat(DISTRIBUTOR_COMPANY_MAX + 1) }, DIST_MSG.companyTooLong(DISTRIBUTOR_COMPANY_MAX)],
  ])('should refuse bad input %j with its message, leaving the code unused', async (fields: Record<string, unknown>, message) => {
    const code = await sendCode(PROMOTER)
    const res = await register({ ...fields, ...(fields.code === '123456' ? { code } : {}) })
    expect(res).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: message })
    expect(await distributorCount()).toBe(0)
    // Nothing was used up: the same code still registers.
    expect(ok(await register({ name: '王推广', phone: PROMOTER, code })).name).toBe('王推广')
  })

  it('should accept a company of exactly the limit and names of exactly the limit', async () => {
    const view = ok(await register({ name: '名'.repeat(DISTRIBUTOR_NAME_MAX), phone: PROMOTER, code: await sendCode(PROMOTER), company: '司'.repeat(DISTRIBUTOR_COMPANY_MAX) }))
    expect(view.company).toHaveLength(DISTRIBUTOR_COMPANY_MAX)
  })

  it.each([['ABCDEFGH'], ['abc'], ['ABCDEFG0'], ["' or 1=1 --"]])('should answer NOT_FOUND 推广码无效 for an unknown or malformed code %s', async (code) => {
    expect(await t.call('/api/user/distribution/view', { code })).toMatchObject({ errcode: ErrCode.NOT_FOUND, errmsg: DIST_MSG.codeInvalid })
  })

  it('should ask for a code when the view has none', async () => {
    expect(await t.call('/api/user/distribution/view', {})).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: DIST_MSG.codeRequired })
    expect(await t.call('/api/user/distribution/view', { code: ' ' })).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: DIST_MSG.codeRequired })
  })
})

describe('distribution counts (registered through the invitation, and of those, paid)', () => {
  let w: TeamWorld

  beforeEach(async () => {
    w = await makeWorld({ paySandbox: true })
    t = w.t
  })
  afterEach(async () => {
    await t.close()
  })

  /** Signs in through the invitation link's channel, as /login?channel=dist_<code> does. */
  async function signInWithChannel(phone: string, channel: string) {
    const login = ok(await t.call('/api/user/login', { phone, code: await sendCode(phone), channel }))
    return { userid: login.user.id as number, token: login.user.token as string }
  }

  it('should count first sign-ins through the invitation, and those with a paid membership order', async () => {
    const promo = ok(await register({ name: '王推广', phone: PROMOTER, code: await sendCode(PROMOTER) }))
    const channel = `dist_${promo.code}`
    const counts = async () => {
      const v = ok(await t.call('/api/user/distribution/view', { code: promo.code }))
      return { registered: v.registered, paid: v.paid }
    }

    // The login call accepts the invitation's channel and records it on the first sign-in.
    const buyer = await signInWithChannel('13700000001', channel)
    expect((await t.db.kysely.selectFrom('users').select('source').where('id', '=', buyer.userid).executeTakeFirstOrThrow()).source).toBe(channel)
    expect(await counts()).toEqual({ registered: 1, paid: 0 })

    // A second sign-in of the same person counts once; a later sign-in through the link by an existing user does not count.
    await signInWithChannel('13700000001', channel)
    await signInWithChannel('13800000000', channel) // the team's administrator, signed up before
    // Someone else's channel, and the app's own channel, do not count.
    await signInWithChannel('13700000002', 'dist_ZZZZZZZZ')
    await signInWithChannel('13700000003', 'app_h5')
    expect(await counts()).toEqual({ registered: 1, paid: 0 })

    // An order waiting for payment is not paid.
    ok(await t.call('/api/group/create', {}, buyer))
    ok(await t.call('/api/vip/order/add', { product_id: 1 }, buyer))
    expect(await counts()).toEqual({ registered: 1, paid: 0 })

    // Paying through the sandbox makes them a paid one; a second paid order still counts one person.
    await buyInSandbox(w, 1, buyer)
    expect(await counts()).toEqual({ registered: 1, paid: 1 })
    await buyInSandbox(w, 1, buyer)
    const second = await signInWithChannel('13700000004', channel)
    expect(await counts()).toEqual({ registered: 2, paid: 1 })
    ok(await t.call('/api/group/create', {}, second))

    // The administrator (not invited) paying does not count.
    await buyInSandbox(w, 1, w.owner)
    expect(await counts()).toEqual({ registered: 2, paid: 1 })

    // The promoter sees the same counts when registering again.
    expect(ok(await register({ name: '王推广', phone: PROMOTER, code: await sendCode(PROMOTER) }))).toMatchObject({ registered: 2, paid: 1 })
  })
})
