/**
 * Sending verification codes. SMS_PROVIDER picks the sender: `aliyun` (Alibaba Cloud SMS) and
 * `tencent` (Tencent Cloud SMS) through their official SDKs, `http` a generic gateway, `console`
 * the development sender that prints the code to stdout (no keys needed, DESIGN 1).
 *
 * A sender either resolves with a receipt (the provider's request id, for the operator to trace a
 * message with the provider's console), or throws: an SmsRefusal when the provider refused for a
 * reason the user can act on (too often, a wrong number, the day's limit), any other error when the
 * message could not be sent. No sender puts the code into what it returns or throws: both are logged.
 */
import Dysmsapi, * as $Dysmsapi from '@alicloud/dysmsapi20170525'
import * as $OpenApi from '@alicloud/openapi-client'
import * as tencentcloud from 'tencentcloud-sdk-nodejs-sms'
import { ErrCode } from '../../../types/api'
import { MSG } from '../../../src/domain/messages'

export interface SmsReceipt {
  provider: SmsProviderName
  /** The provider's id of the request (Alibaba Cloud RequestId/BizId, Tencent Cloud RequestId/SerialNo). */
  requestId?: string
  bizId?: string
}

export interface SmsSender {
  /** Which adapter this is (logged with refusals); stand-ins in tests may leave it out. */
  readonly provider?: SmsProviderName
  send(phone: string, code: string): Promise<SmsReceipt | void>
}

export type SmsProviderName = 'console' | 'http' | 'aliyun' | 'tencent'
export const SMS_PROVIDERS: readonly SmsProviderName[] = ['console', 'http', 'aliyun', 'tencent']

/** The provider refused the message for a reason the user can act on; `message` is for the user. */
export class SmsRefusal extends Error {
  readonly errcode: ErrCode
  constructor(
    message: string,
    readonly providerCode: string,
    readonly requestId?: string,
    errcode: ErrCode = ErrCode.RATE_LIMITED,
  ) {
    super(message)
    this.name = 'SmsRefusal'
    this.errcode = errcode
  }
}

/** A provider error without the SDK's request details (they hold the template parameters: the code). */
export class SmsProviderError extends Error {
  constructor(
    readonly provider: SmsProviderName,
    readonly providerCode: string,
    providerMessage: string,
    readonly requestId?: string,
  ) {
    super(`${provider} SMS failed: ${providerCode} ${providerMessage}`.trim())
    this.name = 'SmsProviderError'
  }
}

/** A setting that cannot work: the start stops with this sentence. */
export class SmsConfigError extends Error {}

const tooFrequent = (code: string, requestId?: string) => new SmsRefusal(MSG.smsTooFrequent, code, requestId)
const dailyLimit = (code: string, requestId?: string) => new SmsRefusal(MSG.codeDailyCap, code, requestId)
const badNumber = (code: string, requestId?: string) => new SmsRefusal(MSG.smsPhoneUnreachable, code, requestId, ErrCode.VALIDATION)

/**
 * Prints exactly one line `[sms] phone=<phone> code=<code>`; the e2e tests read it from stdout.
 * With `hideCode` (production) the line names the phone only: a log is read by more people than
 * the phone's owner.
 */
export function consoleSmsSender(write: (line: string) => void = (line) => process.stdout.write(line), hideCode = false): SmsSender {
  return {
    provider: 'console',
    async send(phone, code) {
      write(hideCode ? `[sms] phone=${phone} code not printed in production: set SMS_PROVIDER\n` : `[sms] phone=${phone} code=${code}\n`)
    },
  }
}

export interface HttpSmsOptions {
  url: string
  token?: string
  timeoutMs?: number
  fetch?: typeof fetch
}

/** POSTs {phone, code} as JSON with a bearer token; any non-2xx answer is a failure. */
export function httpSmsSender(options: HttpSmsOptions): SmsSender {
  const doFetch = options.fetch ?? fetch
  return {
    provider: 'http',
    async send(phone, code) {
      const res = await doFetch(options.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(options.token ? { authorization: `Bearer ${options.token}` } : {}) },
        body: JSON.stringify({ phone, code }),
        signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
      })
      if (!res.ok) throw new Error(`SMS gateway answered HTTP ${res.status}`)
      return { provider: 'http', requestId: res.headers.get('x-request-id') ?? undefined }
    },
  }
}

export interface AliyunSmsOptions {
  accessKeyId: string
  accessKeySecret: string
  signName: string
  /** The approved template's code (SMS_…); its text holds `${code}`. */
  templateCode: string
  /** Host (and port) of the API; dysmsapi.aliyuncs.com unless a test points elsewhere. */
  endpoint?: string
  protocol?: 'https' | 'http'
  timeoutMs?: number
}

/**
 * Alibaba Cloud's refusals (SendSms answers HTTP 200 with a Code other than OK). Its flow control
 * (isv.BUSINESS_LIMIT_CONTROL) covers the minute, the hour and the day; the message says which
 * (触发天级流控 for the day).
 */
function aliyunRefusal(code: string, message: string, requestId?: string): SmsRefusal | undefined {
  switch (code) {
    case 'isv.BUSINESS_LIMIT_CONTROL':
      return /天级|day/i.test(message) ? dailyLimit(code, requestId) : tooFrequent(code, requestId)
    case 'isv.DAY_LIMIT_CONTROL':
      return dailyLimit(code, requestId)
    case 'isv.MOBILE_NUMBER_ILLEGAL':
    case 'isv.MOBILE_COUNT_OVER_LIMIT':
      return badNumber(code, requestId)
    default:
      return undefined
  }
}

export function aliyunSmsSender(options: AliyunSmsOptions): SmsSender {
  const client = new Dysmsapi(
    new $OpenApi.Config({
      accessKeyId: options.accessKeyId,
      accessKeySecret: options.accessKeySecret,
      endpoint: options.endpoint ?? 'dysmsapi.aliyuncs.com',
      protocol: options.protocol ?? 'https',
      readTimeout: options.timeoutMs ?? 10_000,
      connectTimeout: options.timeoutMs ?? 10_000,
    }),
  )
  return {
    provider: 'aliyun',
    async send(phone, code) {
      const request = new $Dysmsapi.SendSmsRequest({ phoneNumbers: phone, signName: options.signName, templateCode: options.templateCode, templateParam: JSON.stringify({ code }) })
      let body: $Dysmsapi.SendSmsResponseBody | undefined
      try {
        body = (await client.sendSms(request)).body
      } catch (err) {
        // An HTTP error (a wrong key or signature, a throttled account): the SDK's error carries
        // the request, so only its code, message and request id go on.
        const e = err as { code?: string; message?: string; data?: { RequestId?: string; Message?: string } }
        const refusal = aliyunRefusal(e.code ?? '', e.data?.Message ?? '', e.data?.RequestId)
        if (refusal) throw refusal
        throw new SmsProviderError('aliyun', e.code ?? 'error', e.data?.Message ?? '', e.data?.RequestId)
      }
      if (body?.code !== 'OK') {
        const refusal = aliyunRefusal(body?.code ?? '', body?.message ?? '', body?.requestId)
        if (refusal) throw refusal
        throw new SmsProviderError('aliyun', body?.code ?? 'no answer', body?.message ?? '', body?.requestId)
      }
      return { provider: 'aliyun', requestId: body.requestId, bizId: body.bizId }
    },
  }
}

export interface TencentSmsOptions {
  secretId: string
  secretKey: string
  /** SmsSdkAppId of the SMS application (1400…). */
  sdkAppId: string
  signName: string
  /** The approved template's id; its text holds `{1}` for the code. */
  templateId: string
  region?: string
  /** Host (and port) of the API; sms.tencentcloudapi.com unless a test points elsewhere. */
  endpoint?: string
  protocol?: 'https' | 'http'
  timeoutMs?: number
}

/** Tencent Cloud's refusals of one number (SendStatusSet[].Code) and of the request (Error.Code). */
function tencentRefusal(code: string, requestId?: string): SmsRefusal | undefined {
  switch (code) {
    case 'LimitExceeded.PhoneNumberThirtySecondLimit':
    case 'LimitExceeded.PhoneNumberOneHourLimit':
    case 'LimitExceeded.DeliveryFrequencyLimit':
    case 'RequestLimitExceeded':
      return tooFrequent(code, requestId)
    case 'LimitExceeded.PhoneNumberDailyLimit':
    case 'LimitExceeded.AppDailyLimit':
    case 'LimitExceeded.DailyLimit':
      return dailyLimit(code, requestId)
    case 'InvalidParameterValue.IncorrectPhoneNumber':
    case 'FailedOperation.PhoneNumberInBlacklist':
    case 'UnsupportedOperation.UnsupportedRegion':
      return badNumber(code, requestId)
    default:
      return undefined
  }
}

/** Mainland numbers as Tencent Cloud wants them (E.164). */
function e164(phone: string): string {
  return phone.startsWith('+') ? phone : `+86${phone}`
}

export function tencentSmsSender(options: TencentSmsOptions): SmsSender {
  const client = new tencentcloud.sms.v20210111.Client({
    credential: { secretId: options.secretId, secretKey: options.secretKey },
    region: options.region ?? 'ap-guangzhou',
    profile: {
      httpProfile: {
        endpoint: options.endpoint ?? 'sms.tencentcloudapi.com',
        protocol: `${options.protocol ?? 'https'}://`,
        reqTimeout: Math.ceil((options.timeoutMs ?? 10_000) / 1000),
      },
    },
  })
  return {
    provider: 'tencent',
    async send(phone, code) {
      let answer: Awaited<ReturnType<typeof client.SendSms>>
      try {
        answer = await client.SendSms({ SmsSdkAppId: options.sdkAppId, SignName: options.signName, TemplateId: options.templateId, TemplateParamSet: [code], PhoneNumberSet: [e164(phone)] })
      } catch (err) {
        const e = err as { code?: string; message?: string; requestId?: string }
        const refusal = tencentRefusal(e.code ?? '', e.requestId)
        if (refusal) throw refusal
        throw new SmsProviderError('tencent', e.code ?? 'error', e.message ?? '', e.requestId)
      }
      const status = answer.SendStatusSet?.[0]
      if (status?.Code !== 'Ok') {
        const refusal = tencentRefusal(status?.Code ?? '', answer.RequestId)
        if (refusal) throw refusal
        throw new SmsProviderError('tencent', status?.Code ?? 'no status', status?.Message ?? '', answer.RequestId)
      }
      return { provider: 'tencent', requestId: answer.RequestId, bizId: status.SerialNo }
    },
  }
}

/** The settings the SMS senders read: any subset of the process environment (tests pass only these). */
export type SmsEnv = Partial<NodeJS.ProcessEnv>

function required(env: SmsEnv, provider: string, names: string[]): Record<string, string> {
  const missing = names.filter((name) => !env[name]?.trim())
  if (missing.length) throw new SmsConfigError(`SMS_PROVIDER=${provider} needs ${missing.join(', ')}`)
  return Object.fromEntries(names.map((name) => [name, env[name]!.trim()]))
}

/** SMS_PROVIDER, or `http` when SMS_HTTP_URL is set (settings of earlier versions), else `console`. */
export function smsProviderOf(env: SmsEnv): SmsProviderName {
  const named = env.SMS_PROVIDER?.trim().toLowerCase()
  if (!named) return env.SMS_HTTP_URL ? 'http' : 'console'
  if (!(SMS_PROVIDERS as readonly string[]).includes(named)) throw new SmsConfigError(`SMS_PROVIDER=${env.SMS_PROVIDER}: use one of ${SMS_PROVIDERS.join(', ')}`)
  return named as SmsProviderName
}

/** The sender the settings name; a provider without its keys stops the start with what is missing. */
export function smsSenderFromEnv(env: SmsEnv): SmsSender {
  const provider = smsProviderOf(env)
  switch (provider) {
    case 'aliyun': {
      const s = required(env, provider, ['SMS_ALIYUN_ACCESS_KEY_ID', 'SMS_ALIYUN_ACCESS_KEY_SECRET', 'SMS_SIGN_NAME', 'SMS_TEMPLATE'])
      return aliyunSmsSender({
        accessKeyId: s.SMS_ALIYUN_ACCESS_KEY_ID,
        accessKeySecret: s.SMS_ALIYUN_ACCESS_KEY_SECRET,
        signName: s.SMS_SIGN_NAME,
        templateCode: s.SMS_TEMPLATE,
        ...endpointOf(env.SMS_ENDPOINT),
      })
    }
    case 'tencent': {
      const s = required(env, provider, ['SMS_TENCENT_SECRET_ID', 'SMS_TENCENT_SECRET_KEY', 'SMS_TENCENT_SDK_APP_ID', 'SMS_SIGN_NAME', 'SMS_TEMPLATE'])
      return tencentSmsSender({
        secretId: s.SMS_TENCENT_SECRET_ID,
        secretKey: s.SMS_TENCENT_SECRET_KEY,
        sdkAppId: s.SMS_TENCENT_SDK_APP_ID,
        signName: s.SMS_SIGN_NAME,
        templateId: s.SMS_TEMPLATE,
        region: env.SMS_TENCENT_REGION?.trim() || undefined,
        ...endpointOf(env.SMS_ENDPOINT),
      })
    }
    case 'http': {
      const s = required(env, provider, ['SMS_HTTP_URL'])
      return httpSmsSender({ url: s.SMS_HTTP_URL, token: env.SMS_HTTP_TOKEN })
    }
    case 'console':
      return consoleSmsSender(undefined, env.NODE_ENV === 'production')
  }
}

/** SMS_ENDPOINT: `host[:port]` (https) or `http://host:port` (a local stand-in). */
function endpointOf(value: string | undefined): { endpoint?: string; protocol?: 'http' | 'https' } {
  const v = value?.trim()
  if (!v) return {}
  const m = /^(https?):\/\/(.+?)\/?$/.exec(v)
  return m ? { protocol: m[1] as 'http' | 'https', endpoint: m[2] } : { endpoint: v }
}

/** The start's warning when production would not send real messages; undefined when it will. */
export function smsStartWarning(env: SmsEnv, sender: SmsSender): string | undefined {
  if (env.NODE_ENV !== 'production' || sender.provider !== 'console') return undefined
  return 'SMS: no real provider in production (SMS_PROVIDER=console): verification codes are neither sent nor logged, nobody can sign in by SMS; set SMS_PROVIDER=aliyun or tencent (or http) with its keys'
}
