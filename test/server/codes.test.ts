/** Verification codes: /api/system/send/code, /api/system/check/code and the code rules of login. */
import { ErrCode } from '../../types/api'
import { SMS_CODE_TTL_MS, SMS_DAILY_CAP, SMS_MAX_WRONG_TRIES, SMS_RESEND_COOLDOWN_S } from '../../src/domain/constants'
import { MSG } from '../../src/domain/messages'
import { makeTestApp, type TestApp } from './helpers'

const PHONE = '13800138000'

let t: TestApp
beforeEach(async () => {
  t = await makeTestApp()
})
afterEach(() => t.close())

const send = (phone = PHONE) => t.call('/api/system/send/code', { phone })
const login = (code: string, phone = PHONE) => t.call('/api/user/login', { phone, code, channel: 'app_h5' })
const check = (code: string, phone = PHONE) => t.call('/api/system/check/code', { phone, code })
const wrongCodeFor = (code: string) => (code === '000000' ? '111111' : '000000')

describe('/api/system/send/code', () => {
  it('should send a 6-digit code to a mainland mobile and report the 60 s cooldown', async () => {
    const res = await send()
    expect(res).toMatchObject({ status: 200, errcode: 0, data: { sent: true, cooldown: SMS_RESEND_COOLDOWN_S } })
    expect(t.sms.sent).toHaveLength(1)
    expect(t.sms.sent[0]).toEqual({ phone: PHONE, code: expect.stringMatching(/^\d{6}$/) })
  })

  it.each([
    ['missing', undefined, MSG.phoneRequired],
    ['empty', '  ', MSG.phoneRequired],
    ['not starting 1[3-9]', '12800138000', MSG.phoneInvalid],
    ['too short', '1380013800', MSG.phoneInvalid],
    ['with letters', '1380013800a', MSG.phoneInvalid],
    ['a number, not a string', 13800138000, MSG.phoneInvalid],
  ])('should reject a phone that is %s with VALIDATION and send nothing', async (_what, phone, message) => {
    const res = await t.call('/api/system/send/code', phone === undefined ? {} : { phone })
    expect(res).toMatchObject({ status: 200, errcode: ErrCode.VALIDATION, errmsg: message })
    expect(t.sms.sent).toHaveLength(0)
    expect(await t.count('sms_codes')).toBe(0)
  })

  it('should accept a phone with surrounding spaces', async () => {
    expect((await send(` ${PHONE} `)).errcode).toBe(0)
    expect(t.sms.sent[0].phone).toBe(PHONE)
  })

  it('should refuse a second send within 60 s and say how many seconds remain', async () => {
    await send()
    t.clock.advance(15_000)
    const res = await send()
    expect(res).toMatchObject({ status: 200, errcode: ErrCode.RATE_LIMITED, errmsg: MSG.codeSendTooFrequent(45) })
    t.clock.advance(44_500)
    expect((await send()).errmsg).toBe(MSG.codeSendTooFrequent(1))
    expect(t.sms.sent).toHaveLength(1)
  })

  it('should allow another send after 60 s, and count the cooldown per phone', async () => {
    await send()
    expect((await send('13900139000')).errcode).toBe(0)
    t.clock.advance(SMS_RESEND_COOLDOWN_S * 1000)
    expect((await send()).errcode).toBe(0)
    expect(t.sms.sent).toHaveLength(3)
  })

  it(`should stop at ${SMS_DAILY_CAP} sends per phone per Asia/Shanghai day`, async () => {
    // 23:00 in Shanghai, 15:00 UTC: the next Shanghai day starts one hour later, the UTC day 9 hours later.
    t.clock.set('2025-06-01T15:00:00.000Z')
    for (let i = 0; i < SMS_DAILY_CAP; i++) {
      expect((await send()).errcode).toBe(0)
      t.clock.advance(61_000)
    }
    expect(await send()).toMatchObject({ errcode: ErrCode.RATE_LIMITED, errmsg: MSG.codeDailyCap })
    expect((await send('13900139000')).errcode).toBe(0)
    t.clock.set('2025-06-01T16:00:00.000Z')
    expect((await send()).errcode).toBe(0)
  })

  it('should store only a hash of the code, with a 5-minute expiry', async () => {
    await send()
    const code = t.sms.lastCode(PHONE)
    const rows = await t.db.kysely.selectFrom('sms_codes').selectAll().execute()
    expect(rows).toHaveLength(1)
    expect(rows[0].code_hash).not.toContain(code)
    expect(Date.parse(rows[0].expires_at) - Date.parse(rows[0].created_at)).toBe(SMS_CODE_TTL_MS)
    expect(rows[0]).toMatchObject({ phone: PHONE, wrong_tries: 0, used_at: null })
  })

  it('should not hold the phone in its cooldown when the SMS gateway fails', async () => {
    await t.close()
    let fail = true
    const sent: string[] = []
    t = await makeTestApp({
      sms: {
        async send(_phone, code) {
          if (fail) throw new Error('gateway down')
          sent.push(code)
        },
      },
    })
    expect(await send()).toMatchObject({ status: 200, errcode: ErrCode.INTERNAL, errmsg: MSG.codeSendFailed })
    expect(await t.count('sms_codes')).toBe(0)
    fail = false
    expect((await send()).errcode).toBe(0)
    expect(sent).toHaveLength(1)
  })
})

describe('/api/system/check/code', () => {
  it('should confirm a right code without consuming it', async () => {
    await send()
    const code = t.sms.lastCode(PHONE)
    expect(await check(code)).toMatchObject({ errcode: 0, data: { valid: true } })
    expect(await check(code)).toMatchObject({ errcode: 0, data: { valid: true } })
    expect((await login(code)).errcode).toBe(0)
  })

  it('should answer a wrong code with CODE_INVALID 验证码错误 and count the try', async () => {
    await send()
    const code = t.sms.lastCode(PHONE)
    expect(await check(wrongCodeFor(code))).toMatchObject({ errcode: ErrCode.CODE_INVALID, errmsg: MSG.codeWrong, data: null })
    const row = await t.db.kysely.selectFrom('sms_codes').selectAll().executeTakeFirstOrThrow()
    expect(row.wrong_tries).toBe(1)
  })

  it('should answer an expired code with 验证码已过期', async () => {
    await send()
    t.clock.advance(SMS_CODE_TTL_MS)
    expect(await check(t.sms.lastCode(PHONE))).toMatchObject({ errcode: ErrCode.CODE_INVALID, errmsg: MSG.codeExpired })
  })

  it('should validate the format before anything else', async () => {
    expect(await check('12345')).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: MSG.codeInvalidFormat })
    expect(await t.call('/api/system/check/code', { phone: PHONE })).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: MSG.codeRequired })
  })
})

describe('code rules of /api/user/login', () => {
  it('should log in with the code just sent', async () => {
    await send()
    const res = await login(t.sms.lastCode(PHONE))
    expect(res).toMatchObject({ status: 200, errcode: 0 })
    expect(res.data.user.phone).toBe(PHONE)
  })

  it('should answer a wrong code with 验证码错误 and count the try', async () => {
    await send()
    const res = await login(wrongCodeFor(t.sms.lastCode(PHONE)))
    expect(res).toMatchObject({ status: 200, errcode: ErrCode.CODE_INVALID, errmsg: MSG.codeWrong, data: null })
    const row = await t.db.kysely.selectFrom('sms_codes').selectAll().executeTakeFirstOrThrow()
    expect(row.wrong_tries).toBe(1)
    expect(await t.count('users')).toBe(0)
    expect(await t.count('sessions')).toBe(0)
  })

  it('should answer 验证码错误 when no code was ever sent', async () => {
    expect(await login('123456')).toMatchObject({ errcode: ErrCode.CODE_INVALID, errmsg: MSG.codeWrong })
  })

  it('should accept a code only once', async () => {
    await send()
    const code = t.sms.lastCode(PHONE)
    expect((await login(code)).errcode).toBe(0)
    expect(await login(code)).toMatchObject({ errcode: ErrCode.CODE_INVALID, errmsg: MSG.codeWrong })
    expect(await t.count('sessions')).toBe(1)
  })

  it('should accept a code until 5 minutes have passed, then answer 验证码已过期', async () => {
    await send()
    const code = t.sms.lastCode(PHONE)
    t.clock.advance(SMS_CODE_TTL_MS - 1000)
    expect((await check(code)).errcode).toBe(0)
    t.clock.advance(1000)
    expect(await login(code)).toMatchObject({ errcode: ErrCode.CODE_INVALID, errmsg: MSG.codeExpired })
    expect(await t.count('users')).toBe(0)
  })

  it(`should kill the code after ${SMS_MAX_WRONG_TRIES} wrong tries, even when the right one follows`, async () => {
    await send()
    const code = t.sms.lastCode(PHONE)
    for (let i = 0; i < SMS_MAX_WRONG_TRIES; i++) {
      expect(await login(wrongCodeFor(code))).toMatchObject({ errcode: ErrCode.CODE_INVALID, errmsg: MSG.codeWrong })
    }
    expect(await login(code)).toMatchObject({ errcode: ErrCode.CODE_INVALID, errmsg: MSG.codeTooManyTries })
    expect(await check(code)).toMatchObject({ errcode: ErrCode.CODE_INVALID, errmsg: MSG.codeTooManyTries })
    // A new code starts afresh.
    t.clock.advance(61_000)
    await send()
    expect((await login(t.sms.lastCode(PHONE))).errcode).toBe(0)
  })

  it('should count wrong tries of check/code and login together', async () => {
    await send()
    const code = t.sms.lastCode(PHONE)
    for (let i = 0; i < SMS_MAX_WRONG_TRIES - 1; i++) await check(wrongCodeFor(code))
    await login(wrongCodeFor(code))
    expect((await login(code)).errmsg).toBe(MSG.codeTooManyTries)
  })

  it('should only accept the latest code sent to the phone', async () => {
    await send()
    const first = t.sms.lastCode(PHONE)
    t.clock.advance(61_000)
    await send()
    const second = t.sms.lastCode(PHONE)
    if (first !== second) expect((await login(first)).errmsg).toBe(MSG.codeWrong)
    expect((await login(second)).errcode).toBe(0)
  })

  it('should not accept a code sent to another phone', async () => {
    await send('13900139000')
    expect((await login(t.sms.lastCode('13900139000'))).errmsg).toBe(MSG.codeWrong)
  })

  it('should reject a malformed code with VALIDATION without counting a try', async () => {
    await send()
    expect(await login('12ab56')).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: MSG.codeInvalidFormat })
    expect(await t.call('/api/user/login', { phone: PHONE })).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: MSG.codeRequired })
    const row = await t.db.kysely.selectFrom('sms_codes').selectAll().executeTakeFirstOrThrow()
    expect(row.wrong_tries).toBe(0)
  })
})

describe('a configured code cooldown (SMS_RESEND_COOLDOWN_S)', () => {
  it('should hold the phone for the configured seconds instead of 60', async () => {
    const short = await makeTestApp({ codeCooldownS: 5 })
    try {
      const first = await short.call('/api/system/send/code', { phone: PHONE })
      expect(first.data).toMatchObject({ sent: true, cooldown: 5 })
      const early = await short.call('/api/system/send/code', { phone: PHONE })
      expect(early).toMatchObject({ errcode: ErrCode.RATE_LIMITED, errmsg: MSG.codeSendTooFrequent(5) })
      short.clock.advance(5_000)
      expect((await short.call('/api/system/send/code', { phone: PHONE })).errcode).toBe(0)
    } finally {
      await short.close()
    }
  })
})
