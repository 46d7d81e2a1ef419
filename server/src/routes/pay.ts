/**
 * /api/pay/*: the WeChat Pay notification (not an envelope call: WeChat Pay posts a signed JSON
 * body and expects 204, or 4xx/5xx with {code:'FAIL'} to retry), App Store completion, and in
 * sandbox mode only, /api/pay/sandbox/complete.
 */
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { ErrCode } from '../../../types/api'
import { MSG } from '../../../src/domain/messages'
import { VIP_MSG } from '../../../src/domain/vipMessages'
import { BusinessError } from '../envelope'
import { mapCaller } from '../services/permissions'
import { applyPaidTransaction, completeOrder, PaymentMismatch } from '../services/pay/orders'
import { NotificationRejected, SandboxPay } from '../services/pay/provider'
import { callDefiners, type AppDeps } from './define'
import { idField } from '../schemas/common'

/** WeChat Pay notifications are small; anything bigger is not one. */
const NOTIFY_BODY_LIMIT = 64 * 1024

export const WXPAY_NOTIFY_PATH = '/api/pay/wxpay/notify'

export function payRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { db, clock } = deps
  const pay = deps.pay ?? new SandboxPay()
  const { sessionCall } = callDefiners(app, deps)
  const orderIdField = idField(VIP_MSG.orderNotFound)

  // The signature covers the exact bytes: the body is read as text in this scope, never re-serialised.
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers()
    scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: NOTIFY_BODY_LIMIT }, (_request, body, done) => done(null, body))
    scope.post(WXPAY_NOTIFY_PATH, async (request, reply) => {
      const body = typeof request.body === 'string' ? request.body : ''
      const now = clock.now()
      try {
        const notice = pay.readNotification(request.headers, body, now)
        if (notice.kind === 'transaction' && notice.transaction.trade_state === 'SUCCESS') {
          const { applied, order } = await applyPaidTransaction(db, notice.transaction, 'wxpay', now, request.log)
          request.log.info({ order: order.order_no, applied }, 'WeChat Pay notification')
        }
        return reply.code(204).send()
      } catch (err) {
        if (err instanceof NotificationRejected) {
          request.log.warn({ reason: err.message }, 'WeChat Pay notification refused')
          return reply.code(401).send({ code: 'FAIL', message: '签名验证失败' })
        }
        if (err instanceof PaymentMismatch) {
          request.log.error({ reason: err.reason, detail: err.message }, 'WeChat Pay notification does not match an order')
          return reply.code(400).send({ code: 'FAIL', message: err.reason })
        }
        throw err
      }
    })
  })

  sessionCall('/api/pay/iap/order/setting', z.object({ orderid: orderIdField, transaction_id: z.string({ required_error: MSG.badRequest }).trim().min(1, MSG.badRequest).max(128), receipt: z.string().max(200_000).optional() }), async ({ orderid, transaction_id }, caller) => {
    // Verifying App Store receipts needs Apple's service: until it is set up, only the sandbox takes them.
    if (pay.mode !== 'sandbox') throw new BusinessError(ErrCode.FORBIDDEN, VIP_MSG.iapUnavailable)
    return completeOrder(db, await mapCaller(db.kysely, caller), orderid, 'iap', transaction_id, clock.now(), app.log)
  })

  if (pay.mode === 'sandbox') {
    sessionCall('/api/pay/sandbox/complete', z.object({ orderid: orderIdField }), async ({ orderid }, caller) => {
      return completeOrder(db, await mapCaller(db.kysely, caller), orderid, 'sandbox', `sandbox-${orderid}-${clock.now().getTime()}`, clock.now(), app.log)
    })
  }
}
