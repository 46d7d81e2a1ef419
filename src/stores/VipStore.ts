/**
 * Membership and payment on the client (SPEC 2/3/4/5/9): the membership centre's info and
 * usage, discount codes, buying (order, then WeChat Pay in the mini-program, the host app's payment
 * in our native app, or the local sandbox), the payment callback (a success notice for 7 s, then
 * user info every 3 s until the new level shows), orders, the questionnaire and the reset to free.
 * Prices are the server's: the client only shows them.
 */
import { makeAutoObservable, runInAction } from 'mobx'
import type { Level } from '../../types/entities'
import type { Discount, PricedProduct, VipInfo, VipOrder, VipProductId } from '../../types/vip'
import { PAYMENT_NOTICE_MS, PAYMENT_USERINFO_POLL_MS } from '../domain/constants'
import { VIP_MSG } from '../domain/vipMessages'
import { checkResetRemark, levelName } from '../domain/tiers'
import {
  checkVerifyForm,
  emptyVerifyForm,
  normalizeDiscountCode,
  paymentArrived,
  PAYMENT_POLL_TRIES,
  priceProduct,
  productById,
  toEnterprise,
  verifyFormOf,
  VIP_PRODUCTS,
  type VerifyForm,
} from '../domain/vip'
import type { PayOutcome } from '../platform/pay/types'
import type { RootStore } from './RootStore'

export const ORDER_PAGE_SIZE = 20

/** A payment whose result is being waited for (SPEC 4 payment callback). */
interface PaymentWatch {
  orderId: number
  level: number
  before: { level: number; vip_exp: string | null }
  tries: number
}

export class VipStore {
  info: VipInfo | null = null
  discountCode = ''
  discount: { discount: Discount; prices: PricedProduct[] } | null = null
  buying = false
  /** An order waiting for the sandbox's confirmation (no merchant credentials on the server). */
  sandboxOrder: VipOrder | null = null
  watch: PaymentWatch | null = null

  orders: VipOrder[] = []
  ordersTotal = 0
  ordersPage = 0
  loadingOrders = false

  verifyForm: VerifyForm = emptyVerifyForm()
  verifySubmitting = false
  resetRemark = ''
  resetting = false

  private timer: unknown = null
  private unsubscribe: () => void = () => undefined
  private disposed = false

  constructor(private readonly root: RootStore) {
    makeAutoObservable<VipStore, 'root' | 'timer' | 'unsubscribe' | 'disposed'>(this, { root: false, timer: false, unsubscribe: false, disposed: false })
    // SPEC 7 order_paid_callback: the host app learned that an order was paid (its own payment sheet, IAP).
    void root.platform.pay().then((pay) => {
      if (!this.disposed) this.unsubscribe = pay.onOrderPaid((orderid) => void this.orderPaidByHost(orderid))
    })
  }

  get isAdmin(): boolean {
    return this.root.session.is_admin
  }

  /** What each product costs now: the checked discount's price where it applies, else the list price. */
  get products() {
    return VIP_PRODUCTS.map((p) => ({ product: p, price: this.discount?.prices.find((x) => x.product_id === p.id) ?? priceProduct(p) }))
  }

  get hasMoreOrders(): boolean {
    return this.orders.length < this.ordersTotal
  }

  async load(): Promise<boolean> {
    const info = await this.root.api.post('/api/vip/info', {})
    if (!info) return false
    runInAction(() => {
      this.info = info
    })
    return true
  }

  setDiscountCode(code: string): void {
    this.discountCode = code
    if (this.discount && normalizeDiscountCode(code) !== this.discount.discount.code) this.discount = null
  }

  async checkDiscount(): Promise<boolean> {
    const code = normalizeDiscountCode(this.discountCode)
    if (!code) {
      this.root.app.notify(VIP_MSG.discountCodeRequired, 'warning')
      return false
    }
    const res = await this.root.api.post('/api/vip/discount/check', { code })
    runInAction(() => {
      this.discount = res ?? null
    })
    if (res) this.root.app.notify(VIP_MSG.discountOk, 'success')
    return !!res
  }

  /** Orders the product (the administrator only; the server prices it) and pays for it. */
  async buy(productId: VipProductId): Promise<boolean> {
    if (this.buying) return false
    if (!productById(productId)) {
      this.root.app.notify(VIP_MSG.productRequired, 'warning')
      return false
    }
    if (!this.isAdmin) {
      this.root.app.notify(VIP_MSG.buyAdminOnly, 'warning')
      return false
    }
    this.buying = true
    try {
      const code = this.discount && this.discount.prices.some((p) => p.product_id === productId) ? this.discount.discount.code : undefined
      const order = await this.root.api.post('/api/vip/order/add', { product_id: productId, ...(code ? { discount_code: code } : {}) })
      if (!order) return false
      return await this.pay(order)
    } finally {
      runInAction(() => {
        this.buying = false
      })
    }
  }

  /** Pays a waiting order on this client's channel. True when paid (the callback then runs). */
  async pay(order: VipOrder): Promise<boolean> {
    const pay = await this.root.platform.pay()
    const channel = pay.channel()
    // Taken before paying: while the payment sheet is open the server may apply the order and the
    // group refresh poll adopt it, and a membership compared with itself would never "arrive".
    const before = this.membershipNow()
    if (channel === 'host') return this.finish(order, await pay.hostPay({ orderid: order.id, order_no: order.order_no, amount: order.amount }), before)
    const code = channel === 'wechat' ? await pay.loginCode() : null
    const created = await this.root.api.post('/api/vip/order/wxpay/create', { orderid: order.id, ...(code ? { code } : {}) })
    if (!created) return false
    if (created.sandbox) {
      runInAction(() => {
        this.sandboxOrder = created.order
      })
      return false
    }
    if (!created.params || channel !== 'wechat') {
      this.root.app.notify(VIP_MSG.payWebUnavailable, 'warning')
      return false
    }
    return this.finish(order, await pay.requestPayment(created.params), before)
  }

  /** The sandbox's "pay" (this server has no merchant credentials). */
  async confirmSandbox(): Promise<boolean> {
    const order = this.sandboxOrder
    if (!order) return false
    this.sandboxOrder = null
    const before = this.membershipNow()
    const paid = await this.root.api.post('/api/pay/sandbox/complete', { orderid: order.id })
    if (!paid) return false
    this.paymentSucceeded(paid, before)
    return true
  }

  dismissSandbox(): void {
    this.sandboxOrder = null
    this.root.app.notify(VIP_MSG.payCancelled, 'warning')
  }

  private finish(order: VipOrder, outcome: PayOutcome, before: PaymentWatch['before']): boolean {
    if (outcome.status === 'paid') {
      this.paymentSucceeded(order, before)
      return true
    }
    if (outcome.status === 'cancelled') this.root.app.notify(VIP_MSG.payCancelled, 'warning')
    else this.root.app.notify(VIP_MSG.payFailed, 'error')
    return false
  }

  private async orderPaidByHost(orderid: number): Promise<void> {
    if (this.watch?.orderId === orderid) return
    const before = this.membershipNow()
    const order = await this.root.api.post('/api/vip/order/getbyid', { id: orderid }, { background: true })
    if (order && order.status === 1) this.paymentSucceeded(order, before)
  }

  /**
   * SPEC 4 payment callback: the success notice for 7 s (SPEC 9), then user info every 3 s until
   * the bought membership shows (or PAYMENT_POLL_TRIES polls: the orders page tells the rest).
   */
  paymentSucceeded(order: Pick<VipOrder, 'id' | 'level'>, before: PaymentWatch['before'] = this.membershipNow()): void {
    this.stopWatch()
    this.watch = { orderId: order.id, level: order.level, before, tries: 0 }
    this.root.app.notify(VIP_MSG.payOk, 'success', PAYMENT_NOTICE_MS)
    this.timer = this.root.scheduler.setTimeout(() => {
      this.timer = this.root.scheduler.setInterval(() => void this.pollUserInfo(), PAYMENT_USERINFO_POLL_MS)
    }, PAYMENT_NOTICE_MS)
  }

  /** The selected group's membership as the session shows it now (what a payment is compared with). */
  private membershipNow(): PaymentWatch['before'] {
    const vip = this.root.session.user?.group_vip
    return { level: vip?.level ?? 0, vip_exp: vip?.group_vip_exp ?? null }
  }

  private polling = false

  private async pollUserInfo(): Promise<void> {
    const watch = this.watch
    if (!watch || this.polling) return
    this.polling = true
    try {
      const res = await this.root.api.post('/api/user/getinfo', {}, { background: true })
      if (this.watch !== watch) return
      runInAction(() => {
        watch.tries += 1
      })
      if (res) {
        this.root.session.adopt(res)
        const vip = res.user.group_vip
        if (paymentArrived(watch.before, vip ? { level: vip.level, vip_exp: vip.group_vip_exp } : null, watch.level)) {
          this.stopWatch()
          this.root.app.notify(VIP_MSG.payArrived(levelName(vip!.level as Level, vip)), 'success')
          this.root.app.checkVipPrompts()
          if (this.info) void this.load()
          if (this.ordersPage > 0) void this.loadOrders(1)
          return
        }
      }
      if (watch.tries >= PAYMENT_POLL_TRIES) {
        this.stopWatch()
        this.root.app.notify(VIP_MSG.payPending, 'warning')
      }
    } finally {
      this.polling = false
    }
  }

  private stopWatch(): void {
    if (this.timer !== null) {
      this.root.scheduler.clearTimeout(this.timer)
      this.root.scheduler.clearInterval(this.timer)
    }
    this.timer = null
    this.watch = null
  }

  // Orders

  async loadOrders(page = 1): Promise<boolean> {
    this.loadingOrders = true
    const res = await this.root.api.post('/api/vip/order/getlist', { pageindex: page, pagesize: ORDER_PAGE_SIZE })
    runInAction(() => {
      this.loadingOrders = false
      if (!res) return
      this.orders = page === 1 ? res.list : [...this.orders, ...res.list.filter((o) => !this.orders.some((x) => x.id === o.id))]
      this.ordersTotal = res.total
      this.ordersPage = page
    })
    return !!res
  }

  loadMoreOrders(): Promise<boolean> {
    return this.loadOrders(this.ordersPage + 1)
  }

  async cancelOrder(id: number): Promise<boolean> {
    const order = await this.root.api.post('/api/vip/order/cancel', { orderid: id })
    if (!order) return false
    runInAction(() => {
      this.orders = this.orders.map((o) => (o.id === id ? order : o))
    })
    this.root.app.notify(VIP_MSG.orderCancelOk, 'success')
    return true
  }

  // The questionnaire (SPEC 5)

  /** Opens the questionnaire with the saved answers (if any). */
  async openVerify(): Promise<void> {
    this.verifyForm = emptyVerifyForm()
    this.root.app.setVerifyModal(true)
    const saved = await this.root.api.post('/api/user/enterprise/get', {}, { quiet: true })
    if (saved) runInAction(() => (this.verifyForm = verifyFormOf(saved)))
  }

  setVerifyField<K extends keyof VerifyForm>(key: K, value: VerifyForm[K]): void {
    this.verifyForm = { ...this.verifyForm, [key]: value }
  }

  async submitVerify(): Promise<boolean> {
    const problem = checkVerifyForm(this.verifyForm)
    if (problem) {
      this.root.app.notifyInvalid(problem, () => checkVerifyForm(this.verifyForm) === problem)
      return false
    }
    if (this.verifySubmitting) return false
    this.verifySubmitting = true
    const res = await this.root.api.post('/api/user/verify/submit', toEnterprise(this.verifyForm))
    runInAction(() => {
      this.verifySubmitting = false
    })
    if (!res) return false
    this.root.app.clearNotices()
    this.root.app.setVerifyModal(false)
    this.root.app.notify(res.bonus_days > 0 ? VIP_MSG.verifyBonus(res.bonus_days) : VIP_MSG.verifyOk, 'success')
    await this.root.session.refresh()
    if (this.info) await this.load()
    return true
  }

  // Reset to free (SPEC 4, 5)

  setResetRemark(text: string): void {
    this.resetRemark = text
  }

  async resetToFree(): Promise<boolean> {
    const problem = checkResetRemark(this.resetRemark)
    if (problem) {
      this.root.app.notifyInvalid(problem, () => checkResetRemark(this.resetRemark) === problem)
      return false
    }
    if (this.resetting) return false
    this.resetting = true
    const res = await this.root.api.post('/api/vip/recovery', { remarks: this.resetRemark.trim() })
    runInAction(() => {
      this.resetting = false
    })
    if (!res) return false
    runInAction(() => {
      this.resetRemark = ''
    })
    this.root.app.closeVipModals()
    this.root.app.notify(VIP_MSG.resetOk, 'success')
    await this.root.session.refresh()
    this.root.app.checkVipPrompts()
    if (this.info) await this.load()
    return true
  }

  reset(): void {
    this.info = null
    this.discount = null
    this.discountCode = ''
    this.sandboxOrder = null
    this.orders = []
    this.ordersTotal = 0
    this.ordersPage = 0
    this.resetRemark = ''
  }

  dispose(): void {
    this.stopWatch()
    this.disposed = true
    this.unsubscribe()
  }
}
