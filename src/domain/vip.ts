/**
 * Membership products, discounts and their prices, the questionnaire and order states (
 * SPEC 3, 5, 9). Pure: the server prices orders with these (never the client), the app shows them.
 */
import type { Discount, DiscountKind, Enterprise, OrderStatus, PricedProduct, VipProduct, VipProductId } from '../../types/vip'
import { VERIFY_ANSWER_MAX, VERIFY_FIELD_MAX, VIP_PRICES_FEN, VIP_PRODUCT_MONTHS } from './constants'
import { COMPANY_SIZE_OPTIONS, VIP_MSG } from './vipMessages'
import { formatStorage, LEVEL, LEVEL_NAMES, limitsOfLevel, purchaseProblem } from './tiers'
import { charLength } from './validate'
import { collaboratorCount } from './collaborators'

function product(id: VipProductId, level: 2 | 3 | 4): VipProduct {
  return { id, level, name: LEVEL_NAMES[level], price: VIP_PRICES_FEN[level], months: VIP_PRODUCT_MONTHS, ...limitsOfLevel(level) }
}

/** SPEC 3: three products, one per tier VIP 1-3, 8800 / 29800 / 59800 fen, each one year (12 calendar months). */
export const VIP_PRODUCTS: readonly VipProduct[] = [product(1, LEVEL.VIP1), product(2, LEVEL.VIP2), product(3, LEVEL.VIP3)]

export function productById(id: number): VipProduct | undefined {
  return VIP_PRODUCTS.find((p) => p.id === id)
}

/** Fen as yuan for display: 8800 -> '88.00'. */
export function formatFen(fen: number): string {
  const sign = fen < 0 ? '-' : ''
  const abs = Math.abs(Math.trunc(fen))
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`
}

/** A discount as the server keeps it: the contract's fields plus how often it may be used. */
export interface DiscountRule extends Pick<Discount, 'kind' | 'value' | 'product_ids' | 'starts_on' | 'ends_on'> {
  /** 0 for no cap. */
  max_uses: number
  /** Paid orders that used it. */
  used_count: number
  /** Waiting orders within their pay window that reserved a use (0 when not given). */
  held_count?: number
}

/** Whether the group already has the code: on a paid order, on a waiting order that reserved it, or not. */
export type GroupDiscountUse = 'paid' | 'waiting' | null

/** A paid order costs at least 1 fen (WeChat Pay takes no less). */
export const MIN_ORDER_FEN = 1

/** The amount taken off `price` by a discount, in whole fen, never more than leaves MIN_ORDER_FEN. */
export function discountAmount(price: number, discount: Pick<DiscountRule, 'kind' | 'value'> | null | undefined): number {
  if (!discount) return 0
  let off: number
  if (discount.kind === 'amount') off = Math.max(0, Math.floor(discount.value))
  // 'rate': value is the per cent paid; the payable part is rounded down (never against the buyer).
  else off = price - Math.floor((price * Math.min(100, Math.max(0, discount.value))) / 100)
  return Math.min(off, Math.max(0, price - MIN_ORDER_FEN))
}

/** A product's price with (or without) a discount. */
export function priceProduct(p: Pick<VipProduct, 'id' | 'price'>, discount?: Pick<DiscountRule, 'kind' | 'value'> | null): PricedProduct {
  const off = discountAmount(p.price, discount)
  return { product_id: p.id, price: p.price, discount_amount: off, amount: p.price - off }
}

export function discountAppliesTo(discount: Pick<DiscountRule, 'product_ids'>, productId: number): boolean {
  return discount.product_ids.length === 0 || discount.product_ids.includes(productId as VipProductId)
}

/**
 * Why a discount cannot be used now (or null): its days (Asia/Shanghai, inclusive; `today` from
 * shanghaiDay), its use cap (paid uses, then those reserved by waiting orders), whether the group
 * has used or reserved it already, and the product when given.
 */
export function discountProblem(discount: DiscountRule | null | undefined, today: string, groupUse: GroupDiscountUse, productId?: number): string | null {
  if (!discount) return VIP_MSG.discountInvalid
  if (discount.starts_on && today < discount.starts_on) return VIP_MSG.discountNotStarted
  if (discount.ends_on && today > discount.ends_on) return VIP_MSG.discountExpired
  if (discount.max_uses > 0 && discount.used_count >= discount.max_uses) return VIP_MSG.discountUsedUp
  if (groupUse === 'paid') return VIP_MSG.discountUsed
  if (groupUse === 'waiting') return VIP_MSG.discountPending
  if (discount.max_uses > 0 && discount.used_count + (discount.held_count ?? 0) >= discount.max_uses) return VIP_MSG.discountReserved
  if (productId !== undefined && !discountAppliesTo(discount, productId)) return VIP_MSG.discountNotForProduct
  return null
}

/** Discount codes are matched without case or surrounding spaces. */
export function normalizeDiscountCode(code: string): string {
  return code.trim().toUpperCase()
}

/** What a discount says in a list: '立减10.00元', '8.5折'. */
export function describeDiscount(d: { kind: DiscountKind; value: number }): string {
  if (d.kind === 'amount') return `立减${formatFen(d.value)}元`
  const tenths = d.value / 10
  return `${Number.isInteger(tenths) ? tenths : tenths.toFixed(1)}折`
}

/** Order states: a waiting order whose pay window has passed reads as closed (3). */
export function orderStatusAt(order: { status: number; expires_at: string }, now: Date): OrderStatus {
  if (order.status === 0 && Date.parse(order.expires_at) <= now.getTime()) return 3
  return order.status as OrderStatus
}

/** The questionnaire as the form holds it (size null until picked; answers apart). */
export interface VerifyForm {
  name: string
  business_type: string
  size: number | null
  contacts: string
  post: string
  qa1: string
  qa2: string
  qa3: string
}

export function emptyVerifyForm(): VerifyForm {
  return { name: '', business_type: '', size: null, contacts: '', post: '', qa1: '', qa2: '', qa3: '' }
}

export function isCompanySize(size: unknown): size is number {
  return typeof size === 'number' && Number.isInteger(size) && size >= 0 && size < COMPANY_SIZE_OPTIONS.length
}

/**
 * SPEC 5 questionnaire validation, in the form's order: company name, industry, company size (one
 * of the 7 options), contact name, answer 1, answer 3; job title and answer 2 optional. Lengths are
 * ours. The first problem's message, or null.
 */
export function checkEnterprise(e: { name?: string; business_type?: string; size?: number | null; contacts?: string; post?: string; qa?: readonly (string | undefined)[] }): string | null {
  const text = (v: string | undefined) => (v ?? '').trim()
  const tooLong = (v: string | undefined, label: string, max: number) => (charLength(text(v)) > max ? VIP_MSG.fieldTooLong(label, max) : null)
  const qa = e.qa ?? []
  if (!text(e.name)) return VIP_MSG.companyRequired
  if (!text(e.business_type)) return VIP_MSG.industryRequired
  if (!isCompanySize(e.size)) return VIP_MSG.sizeRequired
  if (!text(e.contacts)) return VIP_MSG.contactsRequired
  if (!text(qa[0])) return VIP_MSG.answer1Required
  if (!text(qa[2])) return VIP_MSG.answer3Required
  return (
    tooLong(e.name, '企业名称', VERIFY_FIELD_MAX) ??
    tooLong(e.business_type, '行业或工作性质', VERIFY_FIELD_MAX) ??
    tooLong(e.contacts, '称呼', VERIFY_FIELD_MAX) ??
    tooLong(e.post, '职位', VERIFY_FIELD_MAX) ??
    tooLong(qa[0], '问卷1 回答', VERIFY_ANSWER_MAX) ??
    tooLong(qa[1], '问卷2 回答', VERIFY_ANSWER_MAX) ??
    tooLong(qa[2], '问卷3 回答', VERIFY_ANSWER_MAX)
  )
}

/** The form's problem, or null (the same rules as the server's). */
export function checkVerifyForm(form: VerifyForm): string | null {
  return checkEnterprise({ ...form, qa: [form.qa1, form.qa2, form.qa3] })
}

/** The request body of /api/user/verify/submit and /api/user/enterprise/save from a valid form (trimmed). */
export function toEnterprise(form: VerifyForm): Enterprise {
  return {
    name: form.name.trim(),
    business_type: form.business_type.trim(),
    size: form.size ?? 0,
    contacts: form.contacts.trim(),
    post: form.post.trim(),
    qa: [form.qa1.trim(), form.qa2.trim(), form.qa3.trim()],
  }
}

/** A saved profile back into the form (editing it). */
export function verifyFormOf(e: Enterprise | null | undefined): VerifyForm {
  if (!e) return emptyVerifyForm()
  return { name: e.name, business_type: e.business_type, size: e.size, contacts: e.contacts, post: e.post, qa1: e.qa[0] ?? '', qa2: e.qa[1] ?? '', qa3: e.qa[2] ?? '' }
}

/**
 * The questionnaire's three questions (SPEC 5 names them 问卷1-3 and requires answers 1 and 3; the
 * wording is ours): what the team maps, how it works today, and what it needs most.
 */
export const VERIFY_QUESTIONS = [
  '问卷1：您的团队主要用地图管理哪些数据？（如客户、门店、设备、巡检点）',
  '问卷2：您目前用什么方式管理这些数据？（选填）',
  '问卷3：您最希望团队地图帮您解决什么问题？',
] as const

/** One usage meter of the membership centre (beyond the SPEC: shown as bars). */
export interface UsageMeter {
  key: 'markers' | 'members' | 'storage'
  label: string
  used: number
  limit: number
  /** '12 / 300', '3 / 5人', '1.2M / 300M'. */
  text: string
  /** 0-100, for the bar's width. */
  percent: number
  /** ok below 80 %, warn from 80 %, over at or above the limit. */
  state: 'ok' | 'warn' | 'over'
}

function meter(key: UsageMeter['key'], label: string, used: number, limit: number, text: string): UsageMeter {
  const ratio = limit > 0 ? used / limit : used > 0 ? Infinity : 0
  const percent = Math.max(0, Math.min(100, Math.round(ratio * 100)))
  return { key, label, used, limit, text, percent, state: ratio >= 1 ? 'over' : ratio >= 0.8 ? 'warn' : 'ok' }
}

/**
 * Markers, collaborators and storage against the limits in force now (the free plan's once
 * expired). Collaborators are counted as the join limit counts them (collaborators.ts): members
 * but the administrator, plus pending pre-registrations.
 */
export function usageMeters(info: {
  effective: { marker_limit: number; join_limit: number; file_size_limit: number }
  usage: { markers: number; members: number; pending: number; storage_kb: number }
}): UsageMeter[] {
  const { effective: lim, usage } = info
  const collaborators = collaboratorCount(usage.members, usage.pending)
  return [
    meter('markers', '标注数量', usage.markers, lim.marker_limit, `${usage.markers} / ${lim.marker_limit}`),
    meter('members', '协作成员', collaborators, lim.join_limit, `${collaborators} / ${lim.join_limit}人`),
    meter('storage', '存储空间', usage.storage_kb, lim.file_size_limit, `${formatStorage(usage.storage_kb)} / ${formatStorage(lim.file_size_limit)}`),
  ]
}

/**
 * What a product card says against the group's membership: '当前等级' while that level runs,
 * '续费' for the same level after expiry, '升级' above the running level, or why it cannot be
 * bought (a higher level runs: purchaseProblem).
 */
export function productAction(group: { level: number; vip_exp: string | null }, p: Pick<VipProduct, 'level'>, now: Date): { label: string; disabledReason: string | null } {
  const problem = purchaseProblem(group, p.level as 2 | 3 | 4, now)
  if (problem) return { label: '不可购买', disabledReason: problem }
  if (group.level === p.level) return { label: '续费', disabledReason: null }
  if (group.level >= LEVEL.VIP1 && group.level < p.level) return { label: '升级', disabledReason: null }
  return { label: '购买', disabledReason: null }
}

/**
 * After a payment (SPEC 4 payment callback) user info is polled until the bought membership shows:
 * the group is at the order's level (or higher: a crossed order) with a later expiry than before.
 */
export function paymentArrived(before: { level: number; vip_exp: string | null }, now: { level: number; vip_exp: string | null } | null | undefined, orderLevel: number): boolean {
  if (!now || now.level < orderLevel || now.level < LEVEL.VIP1) return false
  const was = before.vip_exp ? Date.parse(before.vip_exp) : 0
  const is = now.vip_exp ? Date.parse(now.vip_exp) : 0
  return is > was || now.level !== before.level
}

/** How many user-info polls a payment waits for (3 s apart: two minutes) before telling the user to look at the orders later. */
export const PAYMENT_POLL_TRIES = 40

/**
 * Whether this device may buy a membership. WeChat forbids paying for virtual goods inside a
 * mini-program on iOS (iPhone and iPad both report `ios`): there the membership centre shows the
 * team's level, limits and expiry only, with no price, no buy button and no hint to pay elsewhere.
 * Android, HarmonyOS, WeChat on a desktop and H5 keep buying.
 */
export function canBuyMembership(platform: string, os: string): boolean {
  return !(platform === 'weapp' && /^(ios|ipados)$/i.test(os.trim()))
}
