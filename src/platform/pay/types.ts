/** Paying for an order on this client: WeChat's mini-program payment, the host app, or none (a plain browser). */
import type { WxPayParams } from '../../../types/vip'

export type PayOutcome = { status: 'paid' } | { status: 'cancelled' } | { status: 'failed'; message?: string }

/** 'wechat': the mini-program (wx.requestPayment); 'host': H5 inside our native app (its bridge); 'web': a phone browser. */
export type PayChannel = 'wechat' | 'host' | 'web'

export interface HostPayOrder {
  orderid: number
  order_no: string
  amount: number
}

export interface PayPlatform {
  channel(): PayChannel
  /** The wx.login code the server exchanges for the payer's openid (mini-program only; null elsewhere). */
  loginCode(): Promise<string | null>
  /** wx.requestPayment with the server's signed parameters. */
  requestPayment(params: WxPayParams): Promise<PayOutcome>
  /** Asks the host app to pay (SPEC 7: answered by pay_callback). */
  hostPay(order: HostPayOrder): Promise<PayOutcome>
  /** SPEC 7 order_paid_callback: the host learned that an order was paid. Returns the unsubscribe. */
  onOrderPaid(handler: (orderid: number) => void): () => void
}
