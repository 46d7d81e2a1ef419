/**
 * /api/pay/*: the WeChat Pay notification (not an envelope call: WeChat Pay posts a signed JSON
 * body and expects 204, or 4xx/5xx with {code:'FAIL'} to retry), App Store completion, and in
 * sandbox mode only, /api/pay/sandbox/complete.
 */
import type { FastifyInstance } from 'fastify'
import { applyWxPayNotification, completeIapOrder, completeSandboxOrder, PaymentMismatch } from '../services/pay/orders'
import { NoPay, NotificationRejected } from '../services/pay/provider'
import { callDefiners, type AppDeps } from './define'
import { iapFields, sandboxCompleteFields } from '../schemas/pay'

/** WeChat Pay notifications are small; anything bigger is not one. */
const NOTIFY_BODY_LIMIT = 64 * 1024

export const WXPAY_NOTIFY_PATH = '/api/pay/wxpay/notify'

export function payRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { db, clock } = deps
  const pay = deps.pay ?? new NoPay()
  const { sessionCall } = callDefiners(app, deps)

  // The signature covers the exact bytes: the body is read as text in this scope, never re-serialised.
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers()
    scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: NOTIFY_BODY_LIMIT }, (_request, body, done) => done(null, body))
    scope.post(WXPAY_NOTIFY_PATH, async (request, reply) => {
      const body = typeof request.body === 'string' ? request.body : ''
      try {
        await applyWxPayNotification(db, pay, request.headers, body, clock.now(), request.log)
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

  sessionCall('/api/pay/iap/order/setting', iapFields, async ({ orderid, transaction_id }, caller) => completeIapOrder(db, pay, caller, orderid, transaction_id, clock.now(), app.log))

  if (pay.mode === 'sandbox') {
    sessionCall('/api/pay/sandbox/complete', sandboxCompleteFields, async ({ orderid }, caller) => completeSandboxOrder(db, caller, orderid, clock.now(), app.log))
  }
}
