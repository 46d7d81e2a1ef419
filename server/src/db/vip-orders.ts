/** Repository of the vip_orders table: membership orders, their payment and what they did. */
import type { Generated, Selectable } from 'kysely'
import type { GroupDiscountUse } from '../../../src/domain/vip'
import type { Executor } from './connection'
import { paged } from './paged'

export interface VipOrdersTable {
  id: Generated<number>
  order_no: string
  group_id: number
  user_id: number
  product_id: number
  level: number
  months: number
  price: number
  discount_id: number | null
  discount_code: string
  discount_amount: number
  amount: number
  /** 0 waiting, 1 paid, 2 cancelled (3 closed is read from expires_at). */
  status: number
  channel: string
  prepay_id: string | null
  prepay_at: string | null
  transaction_id: string | null
  created_at: string
  expires_at: string
  paid_at: string | null
  cancelled_at: string | null
  vip_exp_after: string | null
  /** 1 when the order was paid with a discount whose cap (or the group's one use) no longer had room: not counted in discounts.used_count. */
  discount_over_cap: Generated<number>
}

declare module './schema' {
  interface Tables {
    vip_orders: VipOrdersTable
  }
}

export type VipOrderRow = Selectable<VipOrdersTable>
export type NewVipOrder = Omit<VipOrderRow, 'id' | 'status' | 'channel' | 'prepay_id' | 'prepay_at' | 'transaction_id' | 'paid_at' | 'cancelled_at' | 'vip_exp_after' | 'discount_over_cap'>

export const ORDER_WAITING = 0
export const ORDER_PAID = 1
export const ORDER_CANCELLED = 2

export function insertOrder(db: Executor, order: NewVipOrder): Promise<VipOrderRow> {
  return db
    .insertInto('vip_orders')
    .values({ ...order, status: ORDER_WAITING, channel: '' })
    .returningAll()
    .executeTakeFirstOrThrow()
}

/** An order of this user in this group. */
export function findOrder(db: Executor, groupId: number, userId: number, id: number): Promise<VipOrderRow | undefined> {
  return db.selectFrom('vip_orders').selectAll().where('id', '=', id).where('group_id', '=', groupId).where('user_id', '=', userId).executeTakeFirst()
}

export function findOrderByNo(db: Executor, orderNo: string): Promise<VipOrderRow | undefined> {
  return db.selectFrom('vip_orders').selectAll().where('order_no', '=', orderNo).executeTakeFirst()
}

export function findOrderById(db: Executor, id: number): Promise<VipOrderRow | undefined> {
  return db.selectFrom('vip_orders').selectAll().where('id', '=', id).executeTakeFirst()
}

/** Which orders a list shows: a stored status; for waiting ones, also whether their pay window has passed at `now` (closed) or not. */
export interface OrderFilter {
  status: number
  windowPassed?: boolean
  now: string
}

function ordersOf(db: Executor, groupId: number, userId: number, filter?: OrderFilter) {
  let q = db.selectFrom('vip_orders').where('group_id', '=', groupId).where('user_id', '=', userId)
  if (filter) q = q.where('status', '=', filter.status)
  if (filter?.windowPassed !== undefined) q = q.where('expires_at', filter.windowPassed ? '<=' : '>', filter.now)
  return q
}

/** One page of the user's orders in the group, newest first, and how many there are. */
export async function pageOfOrders(
  db: Executor,
  groupId: number,
  userId: number,
  page: { pageindex: number; pagesize: number },
  filter?: OrderFilter,
): Promise<{ rows: VipOrderRow[]; total: number }> {
  return paged(ordersOf(db, groupId, userId, filter), (q) => q.selectAll().orderBy('id', 'desc'), page)
}

/**
 * Whether the group has this discount on a paid order, or on a waiting order that still holds it
 * (its pay window has not passed at `now`): a cancelled or closed order releases its hold.
 */
export async function groupDiscountUse(db: Executor, groupId: number, discountId: number, now: string): Promise<GroupDiscountUse> {
  const rows = await db
    .selectFrom('vip_orders')
    .select('status')
    .where('group_id', '=', groupId)
    .where('discount_id', '=', discountId)
    .where((eb) => eb.or([eb('status', '=', ORDER_PAID), eb.and([eb('status', '=', ORDER_WAITING), eb('expires_at', '>', now)])]))
    .execute()
  if (rows.some((r) => r.status === ORDER_PAID)) return 'paid'
  return rows.length > 0 ? 'waiting' : null
}

/** How many waiting orders hold a use of the discount: those whose pay window has not passed at `now`. */
export async function countDiscountHolds(db: Executor, discountId: number, now: string): Promise<number> {
  const row = await db
    .selectFrom('vip_orders')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('discount_id', '=', discountId)
    .where('status', '=', ORDER_WAITING)
    .where('expires_at', '>', now)
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

/** Whether another paid order of the group (not `exceptId`) has a counted use of the discount. */
export async function groupHasCountedDiscountUse(db: Executor, groupId: number, discountId: number, exceptId: number): Promise<boolean> {
  const row = await db
    .selectFrom('vip_orders')
    .select('id')
    .where('group_id', '=', groupId)
    .where('discount_id', '=', discountId)
    .where('status', '=', ORDER_PAID)
    .where('discount_over_cap', '=', 0)
    .where('id', '<>', exceptId)
    .executeTakeFirst()
  return !!row
}

export async function markDiscountOverCap(db: Executor, id: number): Promise<void> {
  await db.updateTable('vip_orders').set({ discount_over_cap: 1 }).where('id', '=', id).execute()
}

/** Cancels a waiting order; false when it was not waiting any more. */
export async function cancelWaitingOrder(db: Executor, id: number, at: string): Promise<boolean> {
  const result = await db.updateTable('vip_orders').set({ status: ORDER_CANCELLED, cancelled_at: at }).where('id', '=', id).where('status', '=', ORDER_WAITING).executeTakeFirst()
  return Number(result.numUpdatedRows) === 1
}

export async function setPrepay(db: Executor, id: number, prepay: { channel: string; prepay_id: string | null; prepay_at: string }): Promise<void> {
  await db.updateTable('vip_orders').set(prepay).where('id', '=', id).execute()
}

/**
 * Marks the order paid unless it already is (a duplicate notification, a second channel): true
 * only for the one call that changed it. The condition makes it safe without a read first; on
 * PostgreSQL a concurrent second update waits for the first and then matches nothing.
 */
export async function markOrderPaid(db: Executor, id: number, paid: { channel: string; transaction_id: string; paid_at: string }): Promise<boolean> {
  const result = await db
    .updateTable('vip_orders')
    .set({ ...paid, status: ORDER_PAID })
    .where('id', '=', id)
    .where('status', '<>', ORDER_PAID)
    .executeTakeFirst()
  return Number(result.numUpdatedRows) === 1
}

export async function setVipExpAfter(db: Executor, id: number, vipExp: string): Promise<void> {
  await db.updateTable('vip_orders').set({ vip_exp_after: vipExp }).where('id', '=', id).execute()
}
