/** Payment adapter (the WeChat mini-program): Taro.login for the payer and Taro.requestPayment. */
import Taro from '@tarojs/taro'
import type { PayOutcome, PayPlatform } from './types'

export type { HostPayOrder, PayChannel, PayOutcome, PayPlatform } from './types'

/** wx.requestPayment fails with 'requestPayment:fail cancel' when the user closes the sheet. */
export function outcomeOfPayError(err: unknown): PayOutcome {
  const msg = String((err as { errMsg?: string } | null)?.errMsg ?? err ?? '')
  if (/cancel/i.test(msg)) return { status: 'cancelled' }
  return { status: 'failed', message: msg || undefined }
}

export const payPlatform: PayPlatform = {
  channel: () => 'wechat',
  async loginCode() {
    try {
      const res = await Taro.login()
      return res.code || null
    } catch {
      return null
    }
  },
  // Taro 4.2 does not promisify requestPayment (it is missing from its needPromiseApis): awaiting
  // its return value would take every payment, even a cancelled one, as paid. The callbacks decide.
  requestPayment(params) {
    return new Promise<PayOutcome>((resolve) => {
      try {
        Taro.requestPayment({
          timeStamp: params.timeStamp,
          nonceStr: params.nonceStr,
          package: params.package,
          signType: params.signType,
          paySign: params.paySign,
          success: () => resolve({ status: 'paid' }),
          fail: (err) => resolve(outcomeOfPayError(err)),
        })
      } catch (err) {
        resolve(outcomeOfPayError(err))
      }
    })
  },
  async hostPay() {
    return { status: 'failed', message: 'no host app' }
  },
  onOrderPaid: () => () => undefined,
}
