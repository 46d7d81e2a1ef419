/** Membership order, discount and enterprise profile rows -> VipOrder / Discount / Enterprise (types/vip.ts). */
import type { Discount, DiscountKind, Enterprise, PayChannel, VipOrder, VipProductId } from '../../../types/vip'
import { VIP_PRODUCTS, orderStatusAt, productById } from '../../../src/domain/vip'
import type { DiscountRow } from '../db/discounts'
import type { EnterpriseRow } from '../db/enterprises'
import type { VipOrderRow } from '../db/vip-orders'

export function presentOrder(row: VipOrderRow, now: Date): VipOrder {
  return {
    id: row.id,
    order_no: row.order_no,
    product_id: row.product_id as VipProductId,
    product_name: productById(row.product_id)?.name ?? '',
    level: row.level as VipOrder['level'],
    months: row.months,
    price: row.price,
    discount_code: row.discount_code,
    discount_amount: row.discount_amount,
    amount: row.amount,
    status: orderStatusAt(row, now),
    channel: row.channel as PayChannel,
    created_at: row.created_at,
    expires_at: row.expires_at,
    paid_at: row.paid_at,
    cancelled_at: row.cancelled_at,
    vip_exp_after: row.vip_exp_after,
  }
}

export function parseProductIds(text: string): VipProductId[] {
  try {
    const value: unknown = JSON.parse(text)
    return Array.isArray(value) ? (value.filter((id) => VIP_PRODUCTS.some((p) => p.id === id)) as VipProductId[]) : []
  } catch {
    return []
  }
}

export function presentDiscount(row: DiscountRow): Discount {
  return { id: row.id, code: row.code, name: row.name, kind: row.kind as DiscountKind, value: row.value, product_ids: parseProductIds(row.product_ids), starts_on: row.starts_on, ends_on: row.ends_on }
}

export function presentEnterprise(row: EnterpriseRow): Enterprise {
  let qa: string[] = []
  try {
    const parsed: unknown = JSON.parse(row.qa)
    if (Array.isArray(parsed)) qa = parsed.map(String)
  } catch {
    qa = []
  }
  return { name: row.name, business_type: row.business_type, size: row.size, contacts: row.contacts, post: row.post, qa: [qa[0] ?? '', qa[1] ?? '', qa[2] ?? ''] }
}
