/** Builders for the membership and payment server tests on top of the teams world. */
import { insertDiscount, type NewDiscount } from '../../server/src/db/discounts'
import type { Auth } from './helpers'
import { DAY_MS } from './helpers'
import { ok, type TeamWorld } from './teams-fixture'

/** Moves the test clock past the administrator's 7-day trial. */
export function passTrial(w: TeamWorld): void {
  w.t.clock.advance(8 * DAY_MS)
}

export async function groupRow(w: TeamWorld, groupId: number = w.groupId) {
  return w.t.db.kysely.selectFrom('groups').selectAll().where('id', '=', groupId).executeTakeFirstOrThrow()
}

export async function setGroup(w: TeamWorld, patch: Partial<{ level: number; vip_exp: string | null; marker_limit: number; join_limit: number; file_size_limit: number }>): Promise<void> {
  await w.t.db.kysely.updateTable('groups').set(patch).where('id', '=', w.groupId).execute()
}

export async function addDiscount(w: TeamWorld, discount: Partial<NewDiscount> & { code: string }): Promise<number> {
  const row = await insertDiscount(w.t.db.kysely, {
    name: discount.code,
    kind: 'amount',
    value: 1000,
    product_ids: '[]',
    starts_on: null,
    ends_on: null,
    max_uses: 0,
    listed: 0,
    created_at: w.t.clock.now().toISOString(),
    ...discount,
  })
  return row.id
}

/** Orders a product and pays it in the sandbox; the paid order. */
export async function buyInSandbox(w: TeamWorld, product_id: number, auth: Auth = w.owner, discount_code?: string) {
  const order = ok(await w.call('/api/vip/order/add', { product_id, discount_code }, auth))
  ok(await w.call('/api/vip/order/wxpay/create', { orderid: order.id }, auth))
  return ok(await w.call('/api/pay/sandbox/complete', { orderid: order.id }, auth))
}

/** Names of the live markers the administrator sees, via the API. */
export async function visibleMarkerNames(w: TeamWorld): Promise<string[]> {
  const layers = ok(await w.call('/api/layer/getlist', {}, w.owner)) as { id: number; type: number }[]
  const ids = layers.filter((l) => l.type !== 0).map((l) => l.id)
  const page = ok(await w.call('/api/marker/getlist', { layer_ids: ids, pageindex: 1, pagesize: 5000 }, w.owner))
  return (page.list as { name: string }[]).map((m) => m.name).sort()
}

/**
 * A waiting order of `auth`'s group that carries a discount without having reserved it, as orders
 * placed before uses were reserved at ordering could: made without a code, then given the code's
 * price in the database. Its payment must still respect the code's cap.
 */
export async function unreservedDiscountOrder(w: TeamWorld, auth: Auth, discountId: number, product_id = 1) {
  const order = ok(await w.call('/api/vip/order/add', { product_id }, auth))
  const discount = await w.t.db.kysely.selectFrom('discounts').selectAll().where('id', '=', discountId).executeTakeFirstOrThrow()
  const patch = { discount_id: discountId, discount_code: discount.code, discount_amount: discount.value, amount: order.price - discount.value }
  await w.t.db.kysely.updateTable('vip_orders').set(patch).where('id', '=', order.id).execute()
  return { ...order, ...patch }
}
