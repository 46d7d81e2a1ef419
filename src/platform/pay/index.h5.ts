/**
 * Payment adapter (H5): inside our native host app the host pays (SPEC 7 host messages: a `pay`
 * request answered by pay_callback, and order_paid_callback when the host learns an order was
 * paid); in a plain phone browser there is no WeChat Pay JSAPI for us (no official-account
 * payment), so only the server's local sandbox can complete an order.
 */
import { HostTimeoutError, hostBridge } from '../host'
import type { PayOutcome, PayPlatform } from './types'

export type { HostPayOrder, PayChannel, PayOutcome, PayPlatform } from './types'

export const payPlatform: PayPlatform = {
  channel: () => (hostBridge.available ? 'host' : 'web'),
  loginCode: async () => null,
  requestPayment: async () => ({ status: 'failed', message: 'wx.requestPayment is only in the mini-program' }),
  async hostPay(order): Promise<PayOutcome> {
    try {
      const reply = await hostBridge.request('pay', order)
      if (reply.ok) return { status: 'paid' }
      return reply.cancelled ? { status: 'cancelled' } : { status: 'failed', message: reply.message }
    } catch (err) {
      // No answer in time: the order may still be paid (order_paid_callback or the orders page tell).
      return { status: 'failed', message: err instanceof HostTimeoutError ? 'timeout' : String(err) }
    }
  },
  onOrderPaid(handler) {
    if (!hostBridge.available) return () => undefined
    hostBridge.start()
    return hostBridge.on('order_paid_callback', (data) => {
      if (typeof data.orderid === 'number') handler(data.orderid)
    })
  },
}
