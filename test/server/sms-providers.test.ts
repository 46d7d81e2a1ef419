/**
 * Alibaba Cloud and Tencent Cloud SMS through their official SDKs, against local stand-ins that
 * check each request's signature as the providers do: a code reaches the phone, a wrong key is
 * refused, the providers' refusals become messages the user can act on, and the code is never in
 * what is logged.
 */
import { MSG } from '../../src/domain/messages'
import { ErrCode } from '../../types/api'
import { aliyunSmsSender, SmsConfigError, SmsRefusal, smsSenderFromEnv, smsStartWarning, tencentSmsSender, type SmsSender } from '../../server/src/services/sms'
import { makeTestApp, type TestApp } from './helpers'
import { fakeAliyunSms, fakeTencentSms, type SmsFake } from './sms-provider-fakes'

const PHONE = '13800138000'

/** Settings as the server reads them from the environment (the project's env typing asks for more keys). */
const asEnv = (vars: Record<string, string>) => vars as unknown as NodeJS.ProcessEnv

interface Provider {
  name: 'aliyun' | 'tencent'
  start(): Promise<SmsFake>
  sender(fake: SmsFake, secret?: string): SmsSender
  env(fake: SmsFake): NodeJS.ProcessEnv
  /** How the provider names the number. */
  number: string
  tooFrequent: [string, string]
  daily: [string, string]
  invalid: [string, string]
}

const providers: Provider[] = [
  {
    name: 'aliyun',
    start: () => fakeAliyunSms('LTAI-test', 'ali-secret'),
    sender: (fake, secret = 'ali-secret') =>
      aliyunSmsSender({ accessKeyId: 'LTAI-test', accessKeySecret: secret, signName: '团队地图', templateCode: 'SMS_100', endpoint: fake.host, protocol: 'http' }),
    env: (fake) =>
      asEnv({
        SMS_PROVIDER: 'aliyun',
        SMS_ALIYUN_ACCESS_KEY_ID: 'LTAI-test',
        SMS_ALIYUN_ACCESS_KEY_SECRET: 'ali-secret',
        SMS_SIGN_NAME: '团队地图',
        SMS_TEMPLATE: 'SMS_100',
        SMS_ENDPOINT: fake.url,
      }),
    number: PHONE,
    tooFrequent: ['isv.BUSINESS_LIMIT_CONTROL', '触发分钟级流控Permits:1'],
    daily: ['isv.BUSINESS_LIMIT_CONTROL', '触发天级流控Permits:10'],
    invalid: ['isv.MOBILE_NUMBER_ILLEGAL', '非法手机号'],
  },
  {
    name: 'tencent',
    start: () => fakeTencentSms('AKID-test', 'tc-secret'),
    sender: (fake, secret = 'tc-secret') =>
      tencentSmsSender({ secretId: 'AKID-test', secretKey: secret, sdkAppId: '1400000001', signName: '团队地图', templateId: '200', endpoint: fake.host, protocol: 'http' }),
    env: (fake) =>
      asEnv({
        SMS_PROVIDER: 'tencent',
        SMS_TENCENT_SECRET_ID: 'AKID-test',
        SMS_TENCENT_SECRET_KEY: 'tc-secret',
        SMS_TENCENT_SDK_APP_ID: '1400000001',
        SMS_SIGN_NAME: '团队地图',
        SMS_TEMPLATE: '200',
        SMS_ENDPOINT: fake.url,
      }),
    number: `+86${PHONE}`,
    tooFrequent: ['LimitExceeded.PhoneNumberThirtySecondLimit', 'the number of sms messages sent from a single mobile number within 30 seconds exceeds the upper limit'],
    daily: ['LimitExceeded.PhoneNumberDailyLimit', 'the number of sms messages sent from a single mobile number every day exceeds the upper limit'],
    invalid: ['InvalidParameterValue.IncorrectPhoneNumber', 'invalid mobile number'],
  },
]

describe.each(providers)('$name SMS', (p) => {
  let fake: SmsFake
  beforeEach(async () => {
    fake = await p.start()
  })
  afterEach(() => fake.close())

  it('should deliver the code with the sign name and template, signed so that the provider accepts it', async () => {
    const receipt = await p.sender(fake).send(PHONE, '402913')
    expect(fake.rejectedSignatures).toBe(0)
    expect(fake.accepted).toEqual([{ phone: p.number, signName: '团队地图', template: p.name === 'aliyun' ? 'SMS_100' : '200', code: '402913' }])
    // The provider's request id, for the operator to trace a message that did not arrive.
    expect(receipt).toMatchObject({ provider: p.name, requestId: expect.stringMatching(/REQ-1$/) })
  })

  it('should be refused by the provider when signed with a wrong secret, and say nothing of the code', async () => {
    const err = await p
      .sender(fake, 'not-the-secret')
      .send(PHONE, '402913')
      .catch((e: unknown) => e as Error)
    expect(err).toBeInstanceOf(Error)
    expect(err).not.toBeInstanceOf(SmsRefusal)
    expect(fake.rejectedSignatures).toBe(1)
    expect(fake.accepted).toEqual([])
    expect((err as Error).message).toMatch(/Signature/)
    expect(JSON.stringify({ ...(err as object), message: (err as Error).message })).not.toContain('402913')
  })

  it.each([
    ['tooFrequent', MSG.smsTooFrequent],
    ['daily', MSG.codeDailyCap],
    ['invalid', MSG.smsPhoneUnreachable],
  ] as const)('should turn the provider refusal %s into a message the user can act on', async (kind, message) => {
    const [code, text] = p[kind]
    fake.refuse(p.number, code, text)
    const err = await p
      .sender(fake)
      .send(PHONE, '402913')
      .catch((e: unknown) => e)
    expect(err).toBeInstanceOf(SmsRefusal)
    expect(err).toMatchObject({ message, providerCode: code, requestId: expect.stringMatching(/REQ-1$/) })
  })

  it('should be chosen by SMS_PROVIDER with its keys, and /api/system/send/code answers a refusal in Chinese without holding the phone', async () => {
    const t: TestApp = await makeTestApp({ sms: smsSenderFromEnv(p.env(fake)) })
    try {
      fake.refuse(p.number, ...p.tooFrequent)
      const refused = await t.call('/api/system/send/code', { phone: PHONE })
      expect(refused).toMatchObject({ errcode: ErrCode.RATE_LIMITED, errmsg: MSG.smsTooFrequent })
      expect(await t.count('sms_codes')).toBe(0)
      // The refusal did not start the server's cooldown: the next try goes out.
      const sent = await t.call('/api/system/send/code', { phone: PHONE })
      expect(sent).toMatchObject({ errcode: 0 })
      expect(fake.accepted.map((a) => a.phone)).toEqual([p.number])
      const code = fake.accepted[0].code
      expect(await t.call('/api/system/check/code', { phone: PHONE, code })).toMatchObject({ errcode: 0 })
    } finally {
      await t.close()
    }
  })

  it('should stop the start with what is missing when a key is not set', () => {
    const env = { ...p.env(fake), SMS_SIGN_NAME: '' }
    expect(() => smsSenderFromEnv(env)).toThrow(SmsConfigError)
    expect(() => smsSenderFromEnv(env)).toThrow(`SMS_PROVIDER=${p.name} needs SMS_SIGN_NAME`)
  })
})

describe('SMS settings', () => {
  it('should refuse an unknown SMS_PROVIDER with the ones it knows', () => {
    expect(() => smsSenderFromEnv(asEnv({ SMS_PROVIDER: 'twilio' }))).toThrow('SMS_PROVIDER=twilio: use one of console, http, aliyun, tencent')
  })

  it('should not print the code in production when no real provider is set, and warn once at start', async () => {
    const env = asEnv({ NODE_ENV: 'production' })
    const sender = smsSenderFromEnv(env)
    const write = jest.spyOn(process.stdout, 'write').mockImplementation(() => true)
    try {
      await sender.send(PHONE, '771203')
      expect(write).toHaveBeenCalledTimes(1)
      expect(String(write.mock.calls[0][0])).toContain(PHONE)
      expect(String(write.mock.calls[0][0])).not.toContain('771203')
    } finally {
      write.mockRestore()
    }
    expect(smsStartWarning(env, sender)).toMatch(/^SMS: no real provider in production/)
  })

  it('should not warn in development, nor in production with a real provider', async () => {
    expect(smsStartWarning(asEnv({ NODE_ENV: 'test' }), smsSenderFromEnv(asEnv({})))).toBeUndefined()
    const fake = await fakeAliyunSms('LTAI-test', 'ali-secret')
    try {
      const env = { ...providers[0].env(fake), NODE_ENV: 'production' as const }
      expect(smsStartWarning(env, smsSenderFromEnv(env))).toBeUndefined()
    } finally {
      await fake.close()
    }
  })
})
