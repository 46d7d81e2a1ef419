/**
 * The WeChat Pay API v3 client (JSAPI): signed requests, platform-signed responses checked, the
 * notification verified and decrypted. Only fetch and node:crypto; the host is configurable so that
 * tests run it against a fake server on loopback.
 */
import type { WxPayParams } from '../../../../types/vip'
import type { WechatPayConfig } from './config'
import { NotificationRejected, type PaidTransaction, type PayProvider, type PaymentNotice, type PrepayRequest } from './provider'
import { authorization, decryptResource, nonceStr, platformSignatureProblem, requestPaymentParams, shanghaiRfc3339, type EncryptedResource, type SignedHeaders } from './wechat-v3'

const TIMEOUT_MS = 10_000

/** A v3 call that did not succeed: its HTTP status and WeChat's code and message. */
export class WechatPayError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(`WeChat Pay ${status} ${code}: ${message}`)
  }
}

function lowerCaseHeaders(headers: Record<string, string | string[] | undefined> | Headers): SignedHeaders & Record<string, string> {
  const out: Record<string, string> = {}
  if (headers instanceof Headers) headers.forEach((value, name) => (out[name.toLowerCase()] = value))
  else for (const [name, value] of Object.entries(headers)) if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value[0] : value
  return out
}

interface WechatTransaction {
  appid?: string
  mchid?: string
  out_trade_no?: string
  transaction_id?: string
  trade_state?: string
  success_time?: string
  amount?: { total?: number }
}

function transactionOf(t: WechatTransaction): PaidTransaction {
  return {
    order_no: String(t.out_trade_no ?? ''),
    transaction_id: String(t.transaction_id ?? ''),
    trade_state: String(t.trade_state ?? ''),
    amount: Number(t.amount?.total ?? -1),
    success_time: t.success_time ? new Date(t.success_time).toISOString() : null,
    appid: String(t.appid ?? ''),
    mchid: String(t.mchid ?? ''),
  }
}

export class WechatPay implements PayProvider {
  readonly mode = 'wechat' as const

  constructor(
    private readonly config: WechatPayConfig,
    /** Seconds since the epoch for signatures (tests may fix it). */
    private readonly nowSeconds: () => number = () => Math.floor(Date.now() / 1000),
  ) {}

  /** One signed v3 call; the response's platform signature is checked before its body is believed. */
  private async call<T>(method: 'GET' | 'POST', pathWithQuery: string, payload?: object): Promise<{ status: number; body: T | null }> {
    const body = payload === undefined ? '' : JSON.stringify(payload)
    const timestamp = String(this.nowSeconds())
    const auth = authorization({ mchid: this.config.mchid, serial: this.config.serial, privateKey: this.config.privateKey }, method, pathWithQuery, body, timestamp, nonceStr())
    const res = await fetch(`${this.config.base}${pathWithQuery}`, {
      method,
      headers: { Authorization: auth, Accept: 'application/json', 'Content-Type': 'application/json', 'User-Agent': 'teammap-server' },
      body: method === 'POST' ? body : undefined,
      signal: AbortSignal.timeout(TIMEOUT_MS),
    })
    const text = await res.text()
    if (res.status >= 200 && res.status < 300) {
      const problem = platformSignatureProblem(this.config.platformKeys, lowerCaseHeaders(res.headers), text, new Date(this.nowSeconds() * 1000))
      if (problem) throw new WechatPayError(res.status, 'SIGN_ERROR', `response signature: ${problem}`)
      return { status: res.status, body: text ? (JSON.parse(text) as T) : null }
    }
    let code = 'HTTP_ERROR'
    let message = text.slice(0, 200)
    try {
      const parsed = JSON.parse(text) as { code?: string; message?: string }
      code = parsed.code ?? code
      message = parsed.message ?? message
    } catch {
      // not JSON: keep the text
    }
    throw new WechatPayError(res.status, code, message)
  }

  async prepayJsapi(request: PrepayRequest): Promise<string> {
    const { body } = await this.call<{ prepay_id?: string }>('POST', '/v3/pay/transactions/jsapi', {
      appid: this.config.appid,
      mchid: this.config.mchid,
      description: request.description,
      out_trade_no: request.order_no,
      time_expire: shanghaiRfc3339(request.expires_at),
      notify_url: this.config.notifyUrl,
      amount: { total: request.amount, currency: 'CNY' },
      payer: { openid: request.openid },
    })
    if (!body?.prepay_id) throw new WechatPayError(200, 'NO_PREPAY_ID', 'no prepay_id in the response')
    return body.prepay_id
  }

  paymentParams(prepayId: string, now: Date): WxPayParams {
    return requestPaymentParams(this.config.appid, prepayId, this.config.privateKey, String(Math.floor(now.getTime() / 1000)), nonceStr())
  }

  async openidOf(code: string): Promise<string> {
    if (!this.config.appSecret) throw new WechatPayError(0, 'NO_APPSECRET', 'WX_APPSECRET is not set: send the openid instead of a code')
    const query = new URLSearchParams({ appid: this.config.appid, secret: this.config.appSecret, js_code: code, grant_type: 'authorization_code' })
    const res = await fetch(`${this.config.wxApiBase}/sns/jscode2session?${query}`, { signal: AbortSignal.timeout(TIMEOUT_MS) })
    const body = (await res.json()) as { openid?: string; errcode?: number; errmsg?: string }
    if (!body.openid) throw new WechatPayError(res.status, String(body.errcode ?? 'NO_OPENID'), body.errmsg ?? 'no openid')
    return body.openid
  }

  async closeOrder(orderNo: string): Promise<void> {
    await this.call('POST', `/v3/pay/transactions/out-trade-no/${encodeURIComponent(orderNo)}/close`, { mchid: this.config.mchid })
  }

  async queryOrder(orderNo: string): Promise<PaidTransaction | null> {
    try {
      const { body } = await this.call<WechatTransaction>('GET', `/v3/pay/transactions/out-trade-no/${encodeURIComponent(orderNo)}?mchid=${encodeURIComponent(this.config.mchid)}`)
      return body ? transactionOf(body) : null
    } catch (err) {
      if (err instanceof WechatPayError && err.code === 'ORDER_NOT_EXIST') return null
      throw err
    }
  }

  readNotification(headers: Record<string, string | string[] | undefined>, body: string, now: Date): PaymentNotice {
    const problem = platformSignatureProblem(this.config.platformKeys, lowerCaseHeaders(headers), body, now)
    if (problem) throw new NotificationRejected(problem)
    let notice: { event_type?: string; resource?: EncryptedResource }
    try {
      notice = JSON.parse(body)
    } catch {
      throw new NotificationRejected('body is not JSON')
    }
    if (notice.event_type !== 'TRANSACTION.SUCCESS') return { kind: 'ignored', event_type: String(notice.event_type ?? '') }
    if (!notice.resource) throw new NotificationRejected('no resource')
    let plain: string
    try {
      plain = decryptResource(this.config.apiV3Key, notice.resource)
    } catch (err) {
      throw new NotificationRejected(`resource: ${(err as Error).message}`)
    }
    const transaction = transactionOf(JSON.parse(plain) as WechatTransaction)
    if (transaction.mchid !== this.config.mchid || transaction.appid !== this.config.appid) throw new NotificationRejected('not for this merchant')
    return { kind: 'transaction', transaction }
  }
}
