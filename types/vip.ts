/**
 * The membership and payment contract (SPEC 3 "VIP info", "VIP product list",
 * "Verification", SPEC 7 "VIP and payment"). Money is integer fen, computed by the server only: a
 * price sent by a client is ignored. Dates are ISO 8601 strings; day boundaries are Asia/Shanghai.
 */
import type { Paged } from './api'
import type { Level } from './entities'

/** Product ids: 1 VIP 1, 2 VIP 2, 3 VIP 3. */
export type VipProductId = 1 | 2 | 3

/** A membership product (SPEC 3: one per tier VIP 1-3, 8800 / 29800 / 59800 fen). */
export interface VipProduct {
  id: VipProductId
  /** The level the group gets: 2 VIP 1, 3 VIP 2, 4 VIP 3. */
  level: Level
  name: string
  /** Fen. */
  price: number
  /** How long one purchase lasts, in calendar months (Asia/Shanghai): 12, one year. */
  months: number
  marker_limit: number
  /** Collaborators, the administrator not included. */
  join_limit: number
  /** KB. */
  file_size_limit: number
}

/** What the group uses against its limits. */
export interface VipUsage {
  /** Live markers (hidden ones of a reset to free do not count). */
  markers: number
  /** Members, the administrator included (join_limit counts collaborators: src/domain/collaborators). */
  members: number
  /** Pre-registered people not signed in yet (they count against join_limit too). */
  pending: number
  /** KB of uploaded files. */
  storage_kb: number
}

/** /api/vip/info: the selected group's membership (SPEC 3 VIP info) and its usage. */
export interface VipInfo {
  group_id: number
  level: Level
  /** Display name of the level; '定制会员' for a custom member. */
  level_name: string
  vip_exp: string | null
  expired: boolean
  /** SPEC 1: a VIP 3 group whose limits differ from the defaults (unless all are zero). */
  custom: boolean
  /** Whole days left (rounded up), 0 when expired or free. */
  days_left: number
  is_admin: boolean
  /** The stored limits of the group. */
  marker_limit: number
  join_limit: number
  /** KB units (SPEC 3). */
  file_rep_size: number
  /** The limits in force now: the free plan's while the membership has expired. */
  effective: { marker_limit: number; join_limit: number; file_size_limit: number }
  usage: VipUsage
  /** Markers hidden by a reset to free that a renewal before restore_until brings back. */
  hidden_markers: number
  restore_until: string | null
  products: VipProduct[]
  /** The caller has filled in the questionnaire. */
  verifyed: boolean
  /** The questionnaire's 30 trial days can still be had (trial group of the caller, not yet given). */
  can_get_trial_bonus: boolean
}

/** kind 'amount': value fen off; kind 'rate': value is the per cent paid (85 = 15% off, "8.5折"). */
export type DiscountKind = 'amount' | 'rate'

export interface Discount {
  id: number
  code: string
  name: string
  kind: DiscountKind
  value: number
  /** Products it applies to; [] for all. */
  product_ids: VipProductId[]
  /** First and last day it works ('YYYY-MM-DD', Asia/Shanghai), null for open. */
  starts_on: string | null
  ends_on: string | null
}

/** One product priced with a discount (or without one). */
export interface PricedProduct {
  product_id: VipProductId
  /** List price, fen. */
  price: number
  /** Fen taken off. */
  discount_amount: number
  /** What is paid, fen (at least 1). */
  amount: number
}

/** 0 waiting for payment, 1 paid, 2 cancelled, 3 closed (not paid in time). */
export type OrderStatus = 0 | 1 | 2 | 3

export type PayChannel = '' | 'wxpay' | 'sandbox' | 'iap'

export interface VipOrder {
  id: number
  /** The merchant order number sent to WeChat Pay (out_trade_no). */
  order_no: string
  product_id: VipProductId
  product_name: string
  level: Level
  months: number
  price: number
  discount_code: string
  discount_amount: number
  amount: number
  status: OrderStatus
  channel: PayChannel
  created_at: string
  /** Unpaid orders close at this time. */
  expires_at: string
  paid_at: string | null
  cancelled_at: string | null
  /** The group's VIP expiry right after this order was applied. */
  vip_exp_after: string | null
}

/** The parameters of wx.requestPayment / Taro.requestPayment (WeChat Pay API v3 JSAPI). */
export interface WxPayParams {
  appId: string
  /** Seconds since the epoch, as a string. */
  timeStamp: string
  nonceStr: string
  /** 'prepay_id=...' */
  package: string
  signType: 'RSA'
  paySign: string
}

export interface WxPayCreateResult {
  order: VipOrder
  /** No merchant credentials on this server: pay with /api/pay/sandbox/complete instead. */
  sandbox: boolean
  params: WxPayParams | null
}

/** SPEC 3 Verification (questionnaire) and the enterprise profile it saves. */
export interface Enterprise {
  /** Company name. */
  name: string
  /** Industry or kind of work. */
  business_type: string
  /** 0 under 10, 1 10-20, 2 20-50, 3 50-100, 4 100-200, 5 200-500, 6 over 500. */
  size: number
  /** How to address the contact person. */
  contacts: string
  /** Job title (optional). */
  post: string
  /** Answers to questions 1, 2 and 3, in order (2 may be empty). */
  qa: [string, string, string]
}

export interface VerifySubmitResult {
  verifyed: true
  /** Days added by this submission: 30 the first time on a trial, else 0. */
  bonus_days: number
  vip_exp: string | null
}

export interface VipRecoveryResult {
  removed_members: number
  hidden_markers: number
  /** Renewing before this time brings the hidden markers back. */
  restore_until: string
}

export interface VipApi {
  '/api/vip/info': { req: Record<string, never>; res: VipInfo }
  /** A code that may be used now by the caller's group; `prices` shows it on each product it applies to. */
  '/api/vip/discount/check': { req: { code: string; product_id?: VipProductId }; res: { discount: Discount; prices: PricedProduct[] } }
  /** Public discounts valid today. */
  '/api/vip/discount/getlist': { req: Record<string, never>; res: Discount[] }
  /** Administrator of the selected group only; the price is the server's (any price field sent is ignored). */
  '/api/vip/order/add': { req: { product_id: VipProductId; discount_code?: string }; res: VipOrder }
  '/api/vip/order/getlist': { req: { pageindex?: number; pagesize?: number; status?: OrderStatus }; res: Paged<VipOrder> }
  '/api/vip/order/cancel': { req: { orderid: number }; res: VipOrder }
  '/api/vip/order/getbyid': { req: { id: number }; res: VipOrder }
  /** JSAPI prepay for the mini-program: the payer's openid, or the wx.login code the server exchanges for it. */
  '/api/vip/order/wxpay/create': { req: { orderid: number; code?: string; openid?: string }; res: WxPayCreateResult }
  /** App Store purchase of an order (iOS host app); verified only in sandbox mode for now. */
  '/api/pay/iap/order/setting': { req: { orderid: number; transaction_id: string; receipt?: string }; res: VipOrder }
  /** Sandbox mode only (no merchant credentials): completes the payment of a waiting order. */
  '/api/pay/sandbox/complete': { req: { orderid: number }; res: VipOrder }
  /** Administrator only, expired group: reset to free (SPEC 4). */
  '/api/vip/recovery': { req: { remarks: string }; res: VipRecoveryResult }
  /** The questionnaire (SPEC 5): +30 trial days once, sets verifyed. */
  '/api/user/verify/submit': { req: Enterprise; res: VerifySubmitResult }
  '/api/user/enterprise/get': { req: Record<string, never>; res: Enterprise | null }
  '/api/user/enterprise/save': { req: Enterprise; res: Enterprise }
}
