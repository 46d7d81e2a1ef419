/**
 * /api/vip/* (SPEC 7 VIP and payment) and the questionnaire and enterprise profile calls under
 * /api/user/*. Prices come from src/domain/vip on the server: a price field in a request
 * is not part of any schema here and is dropped unread.
 */
import type { FastifyInstance } from 'fastify'
import { addOrder, cancelOrder, checkDiscount, createWxPayment, listOrders, listedDiscounts, orderById } from '../services/pay/orders'
import { NoPay } from '../services/pay/provider'
import { enterpriseOf, resetToFree, saveEnterprise, verifySubmit, vipInfo } from '../services/vip'
import { callDefiners, type AppDeps } from './define'
import { noFields } from '../schemas/common'
import { discountCheckFields, enterpriseFields, getlist, orderAddFields, orderFields, orderidFields, recovery, wxpayCreate } from '../schemas/vip'

export function vipRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { db, clock } = deps
  const pay = deps.pay ?? new NoPay()
  const { sessionCall } = callDefiners(app, deps)

  sessionCall('/api/vip/info', noFields, async (_input, caller) => {
    return vipInfo(db.kysely, caller, clock.now())
  })

  sessionCall('/api/vip/discount/check', discountCheckFields, async ({ code, product_id }, caller) => {
    return checkDiscount(db.kysely, caller, code, clock.now(), product_id)
  })

  sessionCall('/api/vip/discount/getlist', noFields, async () => listedDiscounts(db.kysely, clock.now()))

  sessionCall('/api/vip/order/add', orderAddFields, async (input, caller) => {
    return addOrder(db, caller, input, clock.now())
  })

  sessionCall('/api/vip/order/getlist', getlist, async ({ pageindex, pagesize, status }, caller) => {
    return listOrders(db.kysely, caller, { pageindex, pagesize }, status, clock.now())
  })

  sessionCall('/api/vip/order/getbyid', orderFields, async ({ id }, caller) => {
    return orderById(db, pay, caller, id, clock.now(), app.log)
  })

  sessionCall('/api/vip/order/cancel', orderidFields, async ({ orderid }, caller) => {
    return cancelOrder(db, pay, caller, orderid, clock.now(), app.log)
  })

  sessionCall('/api/vip/order/wxpay/create', wxpayCreate, async (input, caller) => {
    return createWxPayment(db, pay, caller, input, clock.now(), app.log)
  })

  sessionCall('/api/vip/recovery', recovery, async ({ remarks }, caller) => {
    return resetToFree(db, caller, remarks, clock.now())
  })

  sessionCall('/api/user/verify/submit', enterpriseFields, async (input, caller) => verifySubmit(db, caller.userId, input, clock.now()))

  sessionCall('/api/user/enterprise/get', noFields, async (_input, caller) => enterpriseOf(db.kysely, caller.userId))

  sessionCall('/api/user/enterprise/save', enterpriseFields, async (input, caller) => saveEnterprise(db, caller.userId, input, clock.now()))
}
