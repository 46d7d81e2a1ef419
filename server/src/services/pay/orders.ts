/**
 * Membership orders: created by the group's administrator at the server's price (a price
 * sent by the client is never read), paid through WeChat Pay JSAPI, the local sandbox or App Store,
 * and applied exactly once: the order is marked paid by a conditional update, and only the call
 * that changed it extends the group's VIP (level, expiry, limits), counts the discount's use and
 * brings back markers a reset to free hid within the last 3 months. A waiting order within its pay
 * window holds one use of its discount (the cap counts paid uses and these holds); cancelling it or
 * letting the window pass releases the hold.
 */
import { randomBytes } from 'node:crypto'
import type { FastifyBaseLogger } from 'fastify'
import { ErrCode, type Paged } from '../../../../types/api'
import type { Discount, OrderStatus, PayChannel, PricedProduct, VipOrder, WxPayCreateResult } from '../../../../types/vip'
import { ORDER_PAY_WINDOW_MS } from '../../../../src/domain/constants'
import { VIP_MSG } from '../../../../src/domain/vipMessages'
import { applyPurchase, purchaseProblem, shanghaiDay } from '../../../../src/domain/tiers'
import { VIP_PRODUCTS, discountAppliesTo, discountProblem, normalizeDiscountCode, orderStatusAt, priceProduct, productById, type DiscountRule } from '../../../../src/domain/vip'
import { inTransaction, type Database, type DialectName, type Executor } from '../../db/connection'
import { countDiscountUseWithinCap, findDiscountByCode, findDiscountByCodeForUpdate, listedDiscountsOn, lockDiscount, type DiscountRow } from '../../db/discounts'
import { findGroupForUpdate, setMembership } from '../../db/groups'
import {
  ORDER_CANCELLED,
  ORDER_PAID,
  cancelWaitingOrder,
  countDiscountHolds,
  findOrder,
  findOrderByNo,
  groupDiscountUse,
  groupHasCountedDiscountUse,
  insertOrder,
  markDiscountOverCap,
  markOrderPaid,
  pageOfOrders,
  setPrepay,
  setVipExpAfter,
  type VipOrderRow,
} from '../../db/vip-orders'
import { BusinessError } from '../../envelope'
import type { Caller } from '../../auth'
import { mapCaller, type MapCaller } from '../permissions'
import { restoreHiddenOnRenewal } from '../vip'
import type { PaidTransaction, PayProvider } from './provider'
import { parseProductIds, presentDiscount, presentOrder } from '../../presenters/vip'

function ruleOf(row: DiscountRow): DiscountRule {
  return { kind: row.kind, value: row.value, product_ids: parseProductIds(row.product_ids), starts_on: row.starts_on, ends_on: row.ends_on, max_uses: row.max_uses, used_count: row.used_count }
}

function requireAdministrator(who: MapCaller): void {
  if (!who.actor.is_admin) throw new BusinessError(ErrCode.FORBIDDEN, VIP_MSG.adminOnly)
}

/**
 * The discount of a code that the caller's group may use now (for the product when given);
 * VALIDATION otherwise. Waiting orders within their pay window hold their use, against the cap and
 * the group's one use. With `lock`, the discount stays locked until the transaction ends, so that
 * an order placed on it reserves its use before the next one is decided.
 */
async function usableDiscount(db: Executor, groupId: number, code: string, now: Date, productId?: number, lock?: DialectName): Promise<DiscountRow> {
  const normalized = normalizeDiscountCode(code)
  const row = lock ? await findDiscountByCodeForUpdate(db, normalized, lock) : await findDiscountByCode(db, normalized)
  const at = now.toISOString()
  const held = row ? await countDiscountHolds(db, row.id, at) : 0
  const groupUse = row ? await groupDiscountUse(db, groupId, row.id, at) : null
  const problem = discountProblem(row ? { ...ruleOf(row), held_count: held } : null, shanghaiDay(now), groupUse, productId)
  if (problem || !row) throw new BusinessError(ErrCode.VALIDATION, problem ?? VIP_MSG.discountInvalid)
  return row
}

/** /api/vip/discount/check: the discount and the price of each product it applies to. */
export async function checkDiscount(db: Executor, caller: Caller, code: string, now: Date, productId?: number): Promise<{ discount: Discount; prices: PricedProduct[] }> {
  const who = await mapCaller(db, caller)
  const row = await usableDiscount(db, who.groupId, code, now, productId)
  const rule = ruleOf(row)
  return { discount: presentDiscount(row), prices: VIP_PRODUCTS.filter((p) => discountAppliesTo(rule, p.id)).map((p) => priceProduct(p, rule)) }
}

/** /api/vip/discount/getlist: listed discounts valid today that are not used up. */
export async function listedDiscounts(db: Executor, now: Date): Promise<Discount[]> {
  const rows = await listedDiscountsOn(db, shanghaiDay(now))
  return rows.filter((r) => r.max_uses === 0 || r.used_count < r.max_uses).map(presentDiscount)
}

/** 'VIP' + Shanghai time to the second + 8 random hex digits: 25 characters, within out_trade_no's 6-32 [A-Za-z0-9]. */
function newOrderNo(now: Date): string {
  const stamp = new Date(now.getTime() + 8 * 3600_000).toISOString().replace(/\D/g, '').slice(0, 14)
  return `VIP${stamp}${randomBytes(4).toString('hex').toUpperCase()}`
}

/** /api/vip/order/add: the administrator orders a product; the price is the product's, less a usable discount. */
export async function addOrder(db: Database, caller: Caller, input: { product_id: number; discount_code?: string }, now: Date): Promise<VipOrder> {
  const who = await mapCaller(db.kysely, caller)
  requireAdministrator(who)
  const product = productById(input.product_id)
  if (!product) throw new BusinessError(ErrCode.VALIDATION, VIP_MSG.productRequired)
  const tierProblem = purchaseProblem(who.group, product.level as 2 | 3 | 4, now)
  if (tierProblem) throw new BusinessError(ErrCode.CONFLICT, tierProblem)
  const code = input.discount_code?.trim()
  // The order is the reservation of its discount's use: checked and inserted under the discount's lock.
  const row = await inTransaction(db, async (trx) => {
    const discount = code ? await usableDiscount(trx, who.groupId, code, now, product.id, db.dialect) : null
    const priced = priceProduct(product, discount ? ruleOf(discount) : null)
    return insertOrder(trx, {
      order_no: newOrderNo(now),
      group_id: who.groupId,
      user_id: who.userId,
      product_id: product.id,
      level: product.level,
      months: product.months,
      price: priced.price,
      discount_id: discount?.id ?? null,
      discount_code: discount?.code ?? '',
      discount_amount: priced.discount_amount,
      amount: priced.amount,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + ORDER_PAY_WINDOW_MS).toISOString(),
    })
  })
  return presentOrder(row, now)
}

async function requireOrder(db: Executor, who: MapCaller, id: number): Promise<VipOrderRow> {
  const row = await findOrder(db, who.groupId, who.userId, id)
  if (!row) throw new BusinessError(ErrCode.NOT_FOUND, VIP_MSG.orderNotFound)
  return row
}

/** The order must be waiting for payment now; the message says what it is instead. */
function requireWaiting(row: VipOrderRow, now: Date): void {
  const status = orderStatusAt(row, now)
  if (status === ORDER_PAID) throw new BusinessError(ErrCode.CONFLICT, VIP_MSG.orderNotPending)
  if (status === ORDER_CANCELLED) throw new BusinessError(ErrCode.CONFLICT, VIP_MSG.orderCancelled)
  if (status === 3) throw new BusinessError(ErrCode.CONFLICT, VIP_MSG.orderClosed)
}

export async function listOrders(db: Executor, caller: Caller, page: { pageindex: number; pagesize: number }, status: OrderStatus | undefined, now: Date): Promise<Paged<VipOrder>> {
  const who = await mapCaller(db, caller)
  // Closed (3) is stored as waiting whose pay window has passed.
  const at = now.toISOString()
  const filter = status === undefined ? undefined : status === 3 ? { status: 0, windowPassed: true, now: at } : status === 0 ? { status: 0, windowPassed: false, now: at } : { status, now: at }
  const { rows, total } = await pageOfOrders(db, who.groupId, who.userId, page, filter)
  return { list: rows.map((r) => presentOrder(r, now)), total }
}

/** /api/vip/order/getbyid; a waiting WeChat Pay order is checked with WeChat Pay first (a lost notification is caught up on). */
export async function orderById(db: Database, pay: PayProvider, caller: Caller, id: number, now: Date, log?: FastifyBaseLogger): Promise<VipOrder> {
  const who = await mapCaller(db.kysely, caller)
  let row = await requireOrder(db.kysely, who, id)
  if (pay.mode === 'wechat' && row.status === 0 && row.channel === 'wxpay' && row.prepay_id) {
    try {
      const known = await pay.queryOrder(row.order_no)
      if (known && known.trade_state === 'SUCCESS') {
        await applyPaidTransaction(db, known, 'wxpay', now, log)
        row = await requireOrder(db.kysely, who, id)
      }
    } catch (err) {
      log?.warn({ err, order: row.order_no }, 'WeChat Pay order query failed')
    }
  }
  return presentOrder(row, now)
}

/** /api/vip/order/cancel: a waiting order is cancelled (and closed at WeChat Pay, best effort); others are returned as they are, except a paid one. */
export async function cancelOrder(db: Database, pay: PayProvider, caller: Caller, id: number, now: Date, log?: FastifyBaseLogger): Promise<VipOrder> {
  const who = await mapCaller(db.kysely, caller)
  const row = await requireOrder(db.kysely, who, id)
  if (row.status === ORDER_PAID) throw new BusinessError(ErrCode.CONFLICT, VIP_MSG.orderNotPending)
  if (row.status === 0 && (await cancelWaitingOrder(db.kysely, row.id, now.toISOString())) && row.prepay_id && pay.mode === 'wechat') {
    // After the cancel is stored: a payment that still arrives is honoured (paid wins over cancelled).
    await pay.closeOrder(row.order_no).catch((err) => log?.warn({ err, order: row.order_no }, 'WeChat Pay close failed'))
  }
  return presentOrder(await requireOrder(db.kysely, who, id), now)
}

/** /api/vip/order/wxpay/create: the JSAPI prepay and the signed wx.requestPayment parameters; in sandbox mode, none. */
export async function createWxPayment(
  db: Database,
  pay: PayProvider,
  caller: Caller,
  input: { orderid: number; code?: string; openid?: string },
  now: Date,
  log?: FastifyBaseLogger,
): Promise<WxPayCreateResult> {
  const who = await mapCaller(db.kysely, caller)
  const row = await requireOrder(db.kysely, who, input.orderid)
  requireWaiting(row, now)
  if (pay.mode === 'off') throw new BusinessError(ErrCode.FORBIDDEN, VIP_MSG.payUnavailable)
  if (pay.mode === 'sandbox') {
    await setPrepay(db.kysely, row.id, { channel: 'sandbox', prepay_id: null, prepay_at: now.toISOString() })
    return { order: presentOrder({ ...row, channel: 'sandbox' }, now), sandbox: true, params: null }
  }
  // A prepay lives as long as the order's window (time_expire), so it is reused while the order waits.
  let prepayId = row.channel === 'wxpay' ? row.prepay_id : null
  if (!prepayId) {
    let openid = input.openid?.trim() || null
    try {
      if (!openid && input.code?.trim()) openid = await pay.openidOf(input.code.trim())
    } catch (err) {
      log?.warn({ err }, 'openid from wx.login code failed')
    }
    if (!openid) throw new BusinessError(ErrCode.VALIDATION, VIP_MSG.payUserMissing)
    try {
      prepayId = await pay.prepayJsapi({
        order_no: row.order_no,
        description: `团队地图 ${productById(row.product_id)?.name ?? '会员'} ${row.months}个月`,
        amount: row.amount,
        openid,
        expires_at: new Date(row.expires_at),
      })
    } catch (err) {
      log?.error({ err, order: row.order_no }, 'WeChat Pay prepay failed')
      throw new BusinessError(ErrCode.INTERNAL, VIP_MSG.payCreateFailed)
    }
    await setPrepay(db.kysely, row.id, { channel: 'wxpay', prepay_id: prepayId, prepay_at: now.toISOString() })
  }
  return { order: presentOrder({ ...row, channel: 'wxpay', prepay_id: prepayId }, now), sandbox: false, params: pay.paymentParams(prepayId, now) }
}

/** Why a paid transaction cannot be applied to our order (the payment provider is told to retry or look). */
export class PaymentMismatch extends Error {
  constructor(
    readonly reason: 'unknown_order' | 'amount_mismatch',
    message: string,
  ) {
    super(message)
  }
}

/**
 * Counts a paid order's use of its discount when there is still room: the group has no other
 * counted use, and the cap takes it beside the uses that waiting orders hold. An order that held
 * its reservation always fits. One whose reservation was released before the money arrived (a
 * cancel, or an order placed before uses were reserved) may not: the money was taken, so it
 * completes at the price paid, but it is marked over cap instead of pushing used_count past the
 * cap or taking a use another order holds. Returns false for such an order.
 */
async function countPaidDiscountUse(trx: Executor, dialect: DialectName, order: VipOrderRow, now: Date): Promise<boolean> {
  const discountId = order.discount_id
  if (discountId === null || !(await lockDiscount(trx, discountId, dialect))) return true
  const counted =
    !(await groupHasCountedDiscountUse(trx, order.group_id, discountId, order.id)) && (await countDiscountUseWithinCap(trx, discountId, await countDiscountHolds(trx, discountId, now.toISOString())))
  if (!counted) await markDiscountOverCap(trx, order.id)
  return counted
}

/**
 * Applies a successful payment to its order, once: a duplicate (the same notification again, the
 * query after a notification, a second channel) changes nothing and returns applied false. The
 * amount must be the order's. Runs in one transaction.
 */
export async function applyPaidTransaction(
  db: Database,
  tx: Pick<PaidTransaction, 'order_no' | 'transaction_id' | 'amount' | 'success_time'>,
  channel: PayChannel,
  now: Date,
  log?: FastifyBaseLogger,
): Promise<{ applied: boolean; order: VipOrderRow }> {
  return inTransaction(db, async (trx) => {
    const order = await findOrderByNo(trx, tx.order_no)
    if (!order) throw new PaymentMismatch('unknown_order', `no order ${tx.order_no}`)
    if (tx.amount !== order.amount) throw new PaymentMismatch('amount_mismatch', `order ${tx.order_no} costs ${order.amount}, paid ${tx.amount}`)
    const changed = await markOrderPaid(trx, order.id, { channel, transaction_id: tx.transaction_id, paid_at: tx.success_time ?? now.toISOString() })
    if (!changed) return { applied: false, order: (await findOrderByNo(trx, tx.order_no)) ?? order }
    const group = await findGroupForUpdate(trx, order.group_id, db.dialect)
    if (group) {
      const next = applyPurchase(group, order.level as 2 | 3 | 4, now, order.months)
      await setMembership(trx, group.id, next)
      if (next.vip_exp) await setVipExpAfter(trx, order.id, next.vip_exp)
      await restoreHiddenOnRenewal(trx, group.id, now)
    }
    if (!(await countPaidDiscountUse(trx, db.dialect, order, now))) {
      log?.warn({ order: order.order_no, discount: order.discount_code }, 'paid order over its discount cap: completed at the price paid, not counted')
    }
    return { applied: true, order: (await findOrderByNo(trx, tx.order_no)) ?? order }
  })
}

/** Sandbox mode and App Store: completes a waiting order of the caller as paid through `channel`. */
export async function completeOrder(db: Database, who: MapCaller, id: number, channel: PayChannel, transactionId: string, now: Date, log?: FastifyBaseLogger): Promise<VipOrder> {
  const row = await requireOrder(db.kysely, who, id)
  requireWaiting(row, now)
  await applyPaidTransaction(db, { order_no: row.order_no, transaction_id: transactionId, amount: row.amount, success_time: now.toISOString() }, channel, now, log)
  return presentOrder(await requireOrder(db.kysely, who, id), now)
}

/** /api/pay/iap/order/setting: verifying App Store receipts needs Apple's service: until it is set up, only the sandbox takes them. */
export async function completeIapOrder(db: Database, pay: PayProvider, caller: Caller, id: number, transactionId: string, now: Date, log?: FastifyBaseLogger): Promise<VipOrder> {
  if (pay.mode !== 'sandbox') throw new BusinessError(ErrCode.FORBIDDEN, VIP_MSG.iapUnavailable)
  const who = await mapCaller(db.kysely, caller)
  return completeOrder(db, who, id, 'iap', transactionId, now, log)
}

/** /api/pay/sandbox/complete: the sandbox pays the order at once under a made-up transaction id. */
export async function completeSandboxOrder(db: Database, caller: Caller, id: number, now: Date, log?: FastifyBaseLogger): Promise<VipOrder> {
  const who = await mapCaller(db.kysely, caller)
  return completeOrder(db, who, id, 'sandbox', `sandbox-${id}-${now.getTime()}`, now, log)
}

/**
 * A WeChat Pay notification read and verified by the provider (NotificationRejected otherwise) and,
 * for a successful payment, applied to its order (PaymentMismatch when it does not match one).
 */
export async function applyWxPayNotification(db: Database, pay: PayProvider, headers: Record<string, string | string[] | undefined>, body: string, now: Date, log: FastifyBaseLogger): Promise<void> {
  const notice = pay.readNotification(headers, body, now)
  if (notice.kind === 'transaction' && notice.transaction.trade_state === 'SUCCESS') {
    const { applied, order } = await applyPaidTransaction(db, notice.transaction, 'wxpay', now, log)
    log.info({ order: order.order_no, applied }, 'WeChat Pay notification')
  }
}
