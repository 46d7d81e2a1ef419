/**
 * /api/vip/* (SPEC 7 VIP and payment) and the questionnaire and enterprise profile calls under
 * /api/user/* (issue 7). Prices come from src/domain/vip on the server: a price field in a request
 * is not part of any schema here and is dropped unread.
 */
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { MSG } from '../../../src/domain/messages'
import { VIP_MSG } from '../../../src/domain/vipMessages'
import { mapCaller } from '../services/permissions'
import { addOrder, cancelOrder, checkDiscount, createWxPayment, listOrders, listedDiscounts, orderById } from '../services/pay/orders'
import { SandboxPay } from '../services/pay/provider'
import { enterpriseOf, resetToFree, submitQuestionnaire, vipInfo } from '../services/vip'
import { callDefiners, type AppDeps } from './define'
import { idField, noFields, pageIndexField } from '../schemas/common'

const productIdField = z.number({ required_error: VIP_MSG.productRequired, invalid_type_error: VIP_MSG.productRequired }).int(VIP_MSG.productRequired)
const orderIdField = idField(VIP_MSG.orderNotFound)
const discountCodeField = z
  .string({ required_error: VIP_MSG.discountCodeRequired, invalid_type_error: VIP_MSG.discountCodeRequired })
  .trim()
  .min(1, VIP_MSG.discountCodeRequired)
  .max(64, VIP_MSG.discountInvalid)

/** The questionnaire's fields, loosely typed: src/domain/vip checkEnterprise gives SPEC 5's messages. */
const looseText = z.string({ invalid_type_error: MSG.badRequest }).max(2000, MSG.badRequest).optional().default('')
export const enterpriseFields = z.object({
  name: looseText,
  business_type: looseText,
  // Anything but an option value gets '请输入企业规模' from checkEnterprise.
  size: z.unknown().optional(),
  contacts: looseText,
  post: looseText,
  qa: z.array(z.string({ invalid_type_error: MSG.badRequest }).max(2000, MSG.badRequest)).max(3, MSG.badRequest).optional().default([]),
})

type EnterpriseInput = z.output<typeof enterpriseFields>

function asEnterprise(input: EnterpriseInput) {
  const qa = input.qa
  return { ...input, size: input.size as number, qa: [qa[0] ?? '', qa[1] ?? '', qa[2] ?? ''] as [string, string, string] }
}

export function vipRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { db, clock } = deps
  const pay = deps.pay ?? new SandboxPay()
  const { sessionCall } = callDefiners(app, deps)

  sessionCall('/api/vip/info', noFields, async (_input, caller) => {
    return vipInfo(db.kysely, await mapCaller(db.kysely, caller), clock.now())
  })

  sessionCall('/api/vip/discount/check', z.object({ code: discountCodeField, product_id: productIdField.optional() }), async ({ code, product_id }, caller) => {
    return checkDiscount(db.kysely, await mapCaller(db.kysely, caller), code, clock.now(), product_id)
  })

  sessionCall('/api/vip/discount/getlist', noFields, async () => listedDiscounts(db.kysely, clock.now()))

  sessionCall('/api/vip/order/add', z.object({ product_id: productIdField, discount_code: z.string({ invalid_type_error: VIP_MSG.discountInvalid }).max(64, VIP_MSG.discountInvalid).optional() }), async (input, caller) => {
    return addOrder(db, await mapCaller(db.kysely, caller), input, clock.now())
  })

  const getlist = z.object({
    pageindex: pageIndexField(),
    pagesize: z.number().int().min(1).max(100).default(20),
    status: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)]).optional(),
  })
  sessionCall('/api/vip/order/getlist', getlist, async ({ pageindex, pagesize, status }, caller) => {
    return listOrders(db.kysely, await mapCaller(db.kysely, caller), { pageindex, pagesize }, status, clock.now())
  })

  sessionCall('/api/vip/order/getbyid', z.object({ id: orderIdField }), async ({ id }, caller) => {
    return orderById(db, pay, await mapCaller(db.kysely, caller), id, clock.now(), app.log)
  })

  sessionCall('/api/vip/order/cancel', z.object({ orderid: orderIdField }), async ({ orderid }, caller) => {
    return cancelOrder(db, pay, await mapCaller(db.kysely, caller), orderid, clock.now(), app.log)
  })

  const wxpayCreate = z.object({ orderid: orderIdField, code: z.string().max(256).optional(), openid: z.string().max(128).optional() })
  sessionCall('/api/vip/order/wxpay/create', wxpayCreate, async (input, caller) => {
    return createWxPayment(db, pay, await mapCaller(db.kysely, caller), input, clock.now(), app.log)
  })

  const recovery = z.object({ remarks: z.string({ required_error: VIP_MSG.resetRemarkRequired, invalid_type_error: VIP_MSG.resetRemarkRequired }) })
  sessionCall('/api/vip/recovery', recovery, async ({ remarks }, caller) => {
    return resetToFree(db, await mapCaller(db.kysely, caller), remarks, clock.now())
  })

  sessionCall('/api/user/verify/submit', enterpriseFields, async (input, caller) => {
    const { enterprise: _saved, ...result } = await submitQuestionnaire(db, caller.userId, asEnterprise(input), clock.now())
    return result
  })

  sessionCall('/api/user/enterprise/get', noFields, async (_input, caller) => enterpriseOf(db.kysely, caller.userId))

  sessionCall('/api/user/enterprise/save', enterpriseFields, async (input, caller) => {
    return (await submitQuestionnaire(db, caller.userId, asEnterprise(input), clock.now())).enterprise
  })
}
