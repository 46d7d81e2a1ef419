/**
 * How the server takes money: WeChat Pay API v3 (JSAPI for the mini-program) when merchant
 * credentials are configured; a local sandbox whose payments complete on this machine
 * (/api/pay/sandbox/complete) only where it is turned on (PAY_SANDBOX=1, a developer's machine and
 * the tests), so that the whole flow can be tried without WeChat; otherwise no payments at all.
 */
import type { WxPayParams } from '../../../../types/vip'

/** WeChat Pay, the local sandbox, or none (no merchant credentials and the sandbox not turned on). */
export type PayMode = 'wechat' | 'sandbox' | 'off'

/** What a payment provider tells us about one paid (or not) order. */
export interface PaidTransaction {
  order_no: string
  transaction_id: string
  /** 'SUCCESS' when paid; other WeChat trade states otherwise (NOTPAY, CLOSED ...). */
  trade_state: string
  /** Fen. */
  amount: number
  /** ISO 8601. */
  success_time: string | null
  appid: string
  mchid: string
}

/** The outcome of reading a notification: a transaction to apply, or an event to acknowledge and ignore. */
export type PaymentNotice = { kind: 'transaction'; transaction: PaidTransaction } | { kind: 'ignored'; event_type: string }

export interface PrepayRequest {
  order_no: string
  description: string
  /** Fen. */
  amount: number
  openid: string
  expires_at: Date
}

export interface PayProvider {
  readonly mode: PayMode
  /** JSAPI prepay: the prepay_id. */
  prepayJsapi(request: PrepayRequest): Promise<string>
  /** The signed parameters of wx.requestPayment for a prepay id. */
  paymentParams(prepayId: string, now: Date): WxPayParams
  /** The payer's openid from a wx.login code. */
  openidOf(code: string): Promise<string>
  /** Closes an unpaid order at WeChat Pay (cancelled here); best effort. */
  closeOrder(orderNo: string): Promise<void>
  /** What WeChat Pay knows of an order (a lost notification is caught up on); null when it does not know it. */
  queryOrder(orderNo: string): Promise<PaidTransaction | null>
  /** Verifies the platform signature of a notification and decrypts its resource; throws NotificationRejected. */
  readNotification(headers: Record<string, string | string[] | undefined>, body: string, now: Date): PaymentNotice
}

/** A notification we refuse (bad signature, undecryptable, not ours): answered with FAIL, WeChat Pay retries. */
export class NotificationRejected extends Error {}

/** The sandbox: nothing leaves this machine; /api/pay/sandbox/complete marks orders paid. */
export class SandboxPay implements PayProvider {
  readonly mode = 'sandbox' as const
  async prepayJsapi(request: PrepayRequest): Promise<string> {
    return `sandbox_${request.order_no}`
  }
  paymentParams(): WxPayParams {
    throw new Error('the sandbox has no wx.requestPayment parameters')
  }
  async openidOf(): Promise<string> {
    return 'sandbox'
  }
  async closeOrder(): Promise<void> {}
  async queryOrder(): Promise<PaidTransaction | null> {
    return null
  }
  readNotification(): PaymentNotice {
    throw new NotificationRejected('no WeChat Pay notifications in sandbox mode')
  }
}

/** No payments: without merchant credentials and without the sandbox, an order can be made but never paid here. */
export class NoPay implements PayProvider {
  readonly mode = 'off' as const
  async prepayJsapi(): Promise<string> {
    throw new Error('payments are not set up on this server')
  }
  paymentParams(): WxPayParams {
    throw new Error('payments are not set up on this server')
  }
  async openidOf(): Promise<string> {
    throw new Error('payments are not set up on this server')
  }
  async closeOrder(): Promise<void> {}
  async queryOrder(): Promise<PaidTransaction | null> {
    return null
  }
  readNotification(): PaymentNotice {
    throw new NotificationRejected('payments are not set up on this server')
  }
}
