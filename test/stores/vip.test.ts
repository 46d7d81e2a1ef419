/**
 * The membership client: the membership dialogs of AppStore (SPEC 4 expiry, SPEC 2 trial
 * welcome), buying on each payment channel, the payment callback poll (SPEC 4, 9: a 7 s notice, then
 * user info every 3 s), orders, the questionnaire and the reset to free (SPEC 5). Timers are jest's
 * fake ones behind RootStore.scheduler; the clock is fixed at NOW.
 */
import { runInAction } from 'mobx'
import type { LoginResult, UserInfo } from '../../types/entities'
import type { Discount, Enterprise, VipOrder, VipProductId, WxPayParams } from '../../types/vip'
import { PAYMENT_NOTICE_MS, PAYMENT_USERINFO_POLL_MS } from '../../src/domain/constants'
import { VIP_MSG } from '../../src/domain/vipMessages'
import { limitsOfLevel } from '../../src/domain/tiers'
import { PAYMENT_POLL_TRIES, productById } from '../../src/domain/vip'
import type { PayOutcome, PayPlatform } from '../../src/platform/pay/types'
import { STORAGE_KEYS } from '../../src/stores/storageKeys'
import { buildLogin, buildUser, makeRoot, ok, type Handler } from '../support/fakes'

const DAY = 24 * 3600_000
const HOUR = 3600_000
/** 10:00 on 1 June 2026 in Asia/Shanghai. */
const NOW = new Date('2026-06-01T02:00:00.000Z')
const at = (ms: number) => new Date(NOW.getTime() + ms).toISOString()
const later = (ms: number) => new Date(NOW.getTime() + ms)

/** The selected group's membership: `level` with its limits, expiring `ms` from NOW (null: none). */
function groupVip(level: 0 | 1 | 2 | 3 | 4, ms: number | null): UserInfo['group_vip'] {
  return { ...buildUser().group_vip!, ...limitsOfLevel(level), level, group_vip_exp: ms === null ? null : at(ms) }
}

function loginOf(user: Partial<UserInfo>, admin = true): LoginResult {
  const login = buildLogin(user)
  login.is_admin = admin
  return login
}

/**
 * A signed-in root (administrator by default) on a fake server and pay platform. The 10 s group
 * refresh poll reads /api/user/getinfo too; it is stopped so that the calls counted here are the
 * payment poll's (team.test.ts covers the refresh).
 */
async function signedIn(handlers: Record<string, Handler> = {}, opts: { admin?: boolean; user?: Partial<UserInfo>; pay?: Partial<PayPlatform>; storage?: Record<string, string> } = {}) {
  const made = makeRoot({ '/api/user/login': () => ok(loginOf(opts.user ?? {}, opts.admin ?? true)), ...handlers }, { storage: opts.storage, pay: opts.pay })
  expect(await made.root.session.login('13800138000', '123456')).toBe(true)
  made.root.groupRefresh.stop()
  made.calls.length = 0
  return made
}

const texts = (root: { app: { notices: { text: string }[] } }) => root.app.notices.map((n) => n.text)
const callsTo = <C extends { path: string }>(calls: C[], path: string): C[] => calls.filter((c) => c.path === path)
/** The request bodies sent to `path`, without the header every call carries. */
const sent = (calls: { path: string; body: any }[], path: string) => callsTo(calls, path).map(({ body: { header: _header, ...rest } }) => rest as Record<string, unknown>)

beforeEach(() => {
  jest.useFakeTimers({ now: NOW })
})
afterEach(() => {
  jest.useRealTimers()
})

describe('membership dialogs (SPEC 4 expiry, SPEC 2 trial welcome)', () => {
  // Signing in runs a check already (RootStore's reaction to the membership, at the fake clock's NOW);
  // the tests check again at the times they name.
  it('shows the expired dialog to the administrator and to a member, and neither the reminder nor the welcome', async () => {
    for (const admin of [true, false]) {
      const { root, storage } = await signedIn({}, { admin, user: { group_vip: groupVip(1, -DAY) } })
      root.app.checkVipPrompts(NOW)
      expect(root.app.show_vip_expired_modal).toBe(true)
      expect(root.session.is_admin).toBe(admin)
      expect(root.app.show_vip_exp_modal).toBe(false)
      expect(root.app.show_trial_welcome).toBe(false)
      expect(storage.get(STORAGE_KEYS.trialWelcomed)).toBeNull()
    }
  })

  it('closes the expired dialog once the membership runs again (a renewal arrived)', async () => {
    const { root } = await signedIn({}, { user: { group_vip: groupVip(2, -DAY) } })
    root.app.checkVipPrompts(NOW)
    expect(root.app.show_vip_expired_modal).toBe(true)
    root.session.adopt(loginOf({ group_vip: groupVip(2, 365 * DAY) }))
    root.app.checkVipPrompts(NOW)
    expect(root.app.show_vip_expired_modal).toBe(false)
  })

  it('shows the expiry reminder at most once per Asia/Shanghai day', async () => {
    const { root, storage } = await signedIn({}, { user: { group_vip: groupVip(2, 3 * DAY) } })
    root.app.checkVipPrompts(NOW)
    expect(root.app.show_vip_exp_modal).toBe(true)
    expect(root.app.vip_reminder_days).toBe(3)
    expect(storage.get(STORAGE_KEYS.vipReminderDay)).toBe('2026-06-01')
    root.app.closeReminder()

    // 23:59 in Shanghai: the same day.
    root.app.checkVipPrompts(later(14 * HOUR - 60_000))
    expect(root.app.show_vip_exp_modal).toBe(false)
    // 00:00 in Shanghai (16:00 UTC): the next day.
    root.app.checkVipPrompts(later(14 * HOUR))
    expect(root.app.show_vip_exp_modal).toBe(true)
    expect(root.app.vip_reminder_days).toBe(3)
    expect(storage.get(STORAGE_KEYS.vipReminderDay)).toBe('2026-06-02')
    root.app.closeReminder()
    root.app.checkVipPrompts(later(20 * HOUR))
    expect(root.app.show_vip_exp_modal).toBe(false)
  })

  it('keeps the reminder day across logout (another sign-in the same day is not reminded again)', async () => {
    const made = await signedIn({ '/api/user/logout': () => ok(null) }, { user: { group_vip: groupVip(3, 2 * DAY) } })
    made.root.app.checkVipPrompts(NOW)
    expect(made.root.app.show_vip_exp_modal).toBe(true)
    await made.root.session.logout()
    expect(made.root.app.show_vip_exp_modal).toBe(false)
    await made.root.session.login('13800138000', '123456')
    made.root.app.checkVipPrompts(later(HOUR))
    expect(made.root.app.show_vip_exp_modal).toBe(false)
  })

  it('greets the administrator of a new trial once per user on this device', async () => {
    let login = loginOf({ id: 7, group_vip: groupVip(1, 7 * DAY) })
    const made = await signedIn({ '/api/user/login': () => ok(login), '/api/user/logout': () => ok(null) })
    const { root, storage } = made
    root.app.checkVipPrompts(NOW)
    // A trial at exactly 7 days gets the welcome, not the reminder.
    expect(root.app.show_vip_exp_modal).toBe(false)
    expect(root.app.show_trial_welcome).toBe(true)
    expect(storage.get(STORAGE_KEYS.trialWelcomed)).toBe('7')
    root.app.closeTrialWelcome()
    root.app.checkVipPrompts(later(2 * DAY + HOUR))
    expect(root.app.show_trial_welcome).toBe(false)

    // Another administrator signing in on this device is greeted too, and the first still not.
    await root.session.logout()
    login = loginOf({ id: 8, uid: 'u8', group_vip: groupVip(1, 7 * DAY) })
    await root.session.login('13800138001', '123456')
    root.app.checkVipPrompts(NOW)
    expect(root.app.show_trial_welcome).toBe(true)
    expect(storage.get(STORAGE_KEYS.trialWelcomed)).toBe('7,8')
    await root.session.logout()
    login = loginOf({ id: 7, group_vip: groupVip(1, 7 * DAY) })
    await root.session.login('13800138000', '123456')
    root.app.checkVipPrompts(NOW)
    expect(root.app.show_trial_welcome).toBe(false)
  })

  it('does not greet a member, a verified administrator, or a paid membership', async () => {
    const cases: [Partial<UserInfo>, boolean][] = [
      [{ group_vip: groupVip(1, 7 * DAY) }, false],
      [{ group_vip: groupVip(1, 7 * DAY), verifyed: true }, true],
      [{ group_vip: groupVip(3, 100 * DAY) }, true],
    ]
    for (const [user, admin] of cases) {
      const { root, storage } = await signedIn({}, { admin, user })
      root.app.checkVipPrompts(NOW)
      expect(root.app.show_trial_welcome).toBe(false)
      expect(storage.get(STORAGE_KEYS.trialWelcomed)).toBeNull()
    }
  })

  it('does not greet while the reminder is due or still open; a check after it closed greets', async () => {
    const { root, storage } = await signedIn({}, { user: { group_vip: groupVip(1, 3 * DAY) } })
    // Signing in checked (the membership appeared): the reminder comes first.
    expect(root.app.show_vip_exp_modal).toBe(true)
    expect(root.app.show_trial_welcome).toBe(false)
    // Another check while the reminder is open (a page entry, a membership refresh) does not put the welcome on top of it.
    root.app.checkVipPrompts(later(HOUR))
    expect(root.app.show_vip_exp_modal).toBe(true)
    expect(root.app.show_trial_welcome).toBe(false)
    expect(storage.get(STORAGE_KEYS.trialWelcomed)).toBeNull()
    root.app.closeReminder()
    root.app.checkVipPrompts(later(2 * HOUR))
    expect(root.app.show_trial_welcome).toBe(true)
    expect(storage.get(STORAGE_KEYS.trialWelcomed)).toBe('7')
  })

  it('closes every membership dialog when nobody is signed in', () => {
    const { root } = makeRoot()
    runInAction(() => {
      root.app.show_vip_expired_modal = true
      root.app.show_vip_exp_modal = true
      root.app.show_trial_welcome = true
    })
    root.app.checkVipPrompts(NOW)
    expect(root.app.show_vip_expired_modal).toBe(false)
    expect(root.app.show_vip_exp_modal).toBe(false)
    expect(root.app.show_trial_welcome).toBe(false)
  })
})

// Orders and payments

let orderSeq = 100
function buildOrder(over: Partial<VipOrder> = {}): VipOrder {
  const id = over.id ?? ++orderSeq
  return {
    id,
    order_no: `TM${id}`,
    product_id: 1,
    product_name: 'VIP 1',
    level: 2,
    months: 12,
    price: 8800,
    discount_code: '',
    discount_amount: 0,
    amount: 8800,
    status: 0,
    channel: '',
    created_at: at(0),
    expires_at: at(2 * HOUR),
    paid_at: null,
    cancelled_at: null,
    vip_exp_after: null,
    ...over,
  }
}

/** The server's order for /api/vip/order/add (priced by the server, never by the client). */
function orderFor(body: { product_id: VipProductId; discount_code?: string }): VipOrder {
  const p = productById(body.product_id)!
  const off = body.discount_code ? 5000 : 0
  return buildOrder({ product_id: p.id, product_name: p.name, level: p.level, price: p.price, discount_code: body.discount_code ?? '', discount_amount: off, amount: p.price - off })
}

const PARAMS: WxPayParams = { appId: 'wx-app', timeStamp: '1780279200', nonceStr: 'n0nce', package: 'prepay_id=wx123', signType: 'RSA', paySign: 'c2lnbg==' }
const DISCOUNT: Discount = { id: 1, code: 'SUMMER25', name: '夏季优惠', kind: 'amount', value: 5000, product_ids: [2], starts_on: null, ends_on: null }
/** A trial admin before paying. */
const BEFORE = groupVip(1, 5 * DAY)

/**
 * The fake server's payment calls; `info` is what /api/user/getinfo answers (the membership before
 * the payment until the test says it has arrived).
 */
function payServer(mode: 'sandbox' | 'wechat') {
  const state = { info: loginOf({ group_vip: BEFORE }) }
  const handlers: Record<string, Handler> = {
    '/api/vip/order/add': (body) => ok(orderFor(body)),
    '/api/vip/order/wxpay/create': (body) => ok({ order: buildOrder({ id: body.orderid }), sandbox: mode === 'sandbox', params: mode === 'sandbox' ? null : PARAMS }),
    '/api/pay/sandbox/complete': (body) => ok(buildOrder({ id: body.orderid, level: 4, status: 1, channel: 'sandbox', paid_at: at(0), vip_exp_after: at(365 * DAY) })),
    '/api/vip/discount/check': () => ok({ discount: DISCOUNT, prices: [{ product_id: 2, price: 29800, discount_amount: 5000, amount: 24800 }] }),
    '/api/user/getinfo': () => ok(state.info),
  }
  return {
    handlers,
    /** The server applied the order: user info now shows `level` for a year. */
    arrive(level: 2 | 3 | 4) {
      state.info = loginOf({ group_vip: groupVip(level, 365 * DAY) })
    },
  }
}

describe('buying in the sandbox on the web (no merchant credentials)', () => {
  it('orders by product and a checked discount code only where it applies, never with a price', async () => {
    const server = payServer('sandbox')
    const { root, calls } = await signedIn(server.handlers, { user: { group_vip: BEFORE } })
    // A code typed but not checked is not sent.
    root.vip.setDiscountCode('summer25')
    await root.vip.buy(2)
    expect(sent(calls, '/api/vip/order/add').at(-1)).toEqual({ product_id: 2 })

    expect(await root.vip.checkDiscount()).toBe(true)
    expect(sent(calls, '/api/vip/discount/check').at(-1)).toEqual({ code: 'SUMMER25' })
    expect(root.vip.products.map((p) => p.price.amount)).toEqual([8800, 24800, 59800])
    await root.vip.buy(2)
    expect(sent(calls, '/api/vip/order/add').at(-1)).toEqual({ product_id: 2, discount_code: 'SUMMER25' })
    // The discount is for VIP 2 only.
    await root.vip.buy(1)
    expect(sent(calls, '/api/vip/order/add').at(-1)).toEqual({ product_id: 1 })
    // Another code typed drops the checked one.
    root.vip.setDiscountCode('OTHER')
    await root.vip.buy(2)
    expect(sent(calls, '/api/vip/order/add').at(-1)).toEqual({ product_id: 2 })
    expect(root.vip.products[1].price.amount).toBe(29800)
  })

  it('waits for the sandbox confirmation, then shows the notice for 7 s and polls user info every 3 s until the level shows', async () => {
    const server = payServer('sandbox')
    const { root, calls } = await signedIn({ ...server.handlers, '/api/vip/info': () => ok({ level: root.session.user?.group_vip?.level }) }, { user: { group_vip: BEFORE } })
    await root.vip.load()

    expect(await root.vip.buy(3)).toBe(false) // not paid yet: the sandbox asks
    const order = callsTo(calls, '/api/vip/order/add')
    expect(order).toHaveLength(1)
    const created = callsTo(calls, '/api/vip/order/wxpay/create')
    expect(created).toHaveLength(1)
    // On the web no wx.login code is sent.
    expect(Object.keys(sent(calls, '/api/vip/order/wxpay/create')[0])).toEqual(['orderid'])
    expect(root.vip.sandboxOrder?.id).toBe(created[0].body.orderid)
    expect(texts(root)).not.toContain(VIP_MSG.payOk)

    const orderid = root.vip.sandboxOrder!.id
    calls.length = 0
    expect(await root.vip.confirmSandbox()).toBe(true)
    expect(calls.map((c) => c.path)).toEqual(['/api/pay/sandbox/complete'])
    expect(sent(calls, '/api/pay/sandbox/complete')).toEqual([{ orderid }])
    expect(root.vip.sandboxOrder).toBeNull()
    expect(texts(root)).toContain(VIP_MSG.payOk)

    // The success notice shows for 7 s; no user info is read meanwhile.
    await jest.advanceTimersByTimeAsync(PAYMENT_NOTICE_MS - 1)
    expect(texts(root)).toContain(VIP_MSG.payOk)
    expect(callsTo(calls, '/api/user/getinfo')).toHaveLength(0)
    await jest.advanceTimersByTimeAsync(1)
    expect(texts(root)).not.toContain(VIP_MSG.payOk)
    expect(callsTo(calls, '/api/user/getinfo')).toHaveLength(0)

    // Then every 3 s: the first read at 10 s.
    await jest.advanceTimersByTimeAsync(PAYMENT_USERINFO_POLL_MS - 1)
    expect(callsTo(calls, '/api/user/getinfo')).toHaveLength(0)
    await jest.advanceTimersByTimeAsync(1)
    expect(callsTo(calls, '/api/user/getinfo')).toHaveLength(1)
    expect(root.vip.watch).not.toBeNull()
    expect(root.session.user?.group_vip?.level).toBe(1)

    server.arrive(4)
    await jest.advanceTimersByTimeAsync(PAYMENT_USERINFO_POLL_MS)
    expect(callsTo(calls, '/api/user/getinfo')).toHaveLength(2)
    expect(root.session.user?.group_vip?.level).toBe(4)
    expect(texts(root)).toContain(VIP_MSG.payArrived('VIP 3'))
    expect(root.vip.watch).toBeNull()
    // The membership centre shows the new level.
    expect(callsTo(calls, '/api/vip/info')).toHaveLength(1)
    expect(root.vip.info?.level).toBe(4)

    // And the poll has stopped.
    await jest.advanceTimersByTimeAsync(10 * PAYMENT_USERINFO_POLL_MS)
    expect(callsTo(calls, '/api/user/getinfo')).toHaveLength(2)
    expect(texts(root)).not.toContain(VIP_MSG.payPending)
  })

  it('gives up after PAYMENT_POLL_TRIES reads with the pending notice', async () => {
    const server = payServer('sandbox')
    const { root, calls } = await signedIn(server.handlers, { user: { group_vip: BEFORE } })
    await root.vip.buy(1)
    await root.vip.confirmSandbox()
    calls.length = 0
    await jest.advanceTimersByTimeAsync(PAYMENT_NOTICE_MS + (PAYMENT_POLL_TRIES - 1) * PAYMENT_USERINFO_POLL_MS)
    expect(callsTo(calls, '/api/user/getinfo')).toHaveLength(PAYMENT_POLL_TRIES - 1)
    expect(texts(root)).not.toContain(VIP_MSG.payPending)
    await jest.advanceTimersByTimeAsync(PAYMENT_USERINFO_POLL_MS)
    expect(callsTo(calls, '/api/user/getinfo')).toHaveLength(PAYMENT_POLL_TRIES)
    expect(texts(root)).toContain(VIP_MSG.payPending)
    expect(root.vip.watch).toBeNull()
    await jest.advanceTimersByTimeAsync(60_000)
    expect(callsTo(calls, '/api/user/getinfo')).toHaveLength(PAYMENT_POLL_TRIES)
  })

  it('dismissing the sandbox is a cancelled payment: no completion, no poll', async () => {
    const { root, calls } = await signedIn(payServer('sandbox').handlers, { user: { group_vip: BEFORE } })
    await root.vip.buy(1)
    root.vip.dismissSandbox()
    expect(root.vip.sandboxOrder).toBeNull()
    expect(await root.vip.confirmSandbox()).toBe(false)
    expect(texts(root)).toContain(VIP_MSG.payCancelled)
    await jest.advanceTimersByTimeAsync(60_000)
    expect(callsTo(calls, '/api/pay/sandbox/complete')).toHaveLength(0)
    expect(callsTo(calls, '/api/user/getinfo')).toHaveLength(0)
  })

  it('refuses a non-administrator without calling anything', async () => {
    const { root, calls } = await signedIn(payServer('sandbox').handlers, { admin: false })
    expect(await root.vip.buy(1)).toBe(false)
    expect(texts(root)).toContain(VIP_MSG.buyAdminOnly)
    expect(calls).toHaveLength(0)
  })
})

describe('paying on each channel', () => {
  it("in the mini-program: sends the wx.login code and pays with the server's parameters", async () => {
    const server = payServer('wechat')
    const requestPayment = jest.fn(async (_p: WxPayParams): Promise<PayOutcome> => ({ status: 'paid' }))
    const { root, calls } = await signedIn(server.handlers, { user: { group_vip: BEFORE }, pay: { channel: () => 'wechat', loginCode: async () => 'wx-code-1', requestPayment } })
    expect(await root.vip.buy(1)).toBe(true)
    const orderid = callsTo(calls, '/api/vip/order/wxpay/create')[0].body.orderid
    expect(sent(calls, '/api/vip/order/wxpay/create')).toEqual([{ orderid, code: 'wx-code-1' }])
    expect(requestPayment).toHaveBeenCalledTimes(1)
    expect(requestPayment).toHaveBeenCalledWith(PARAMS)
    expect(root.vip.sandboxOrder).toBeNull()
    expect(texts(root)).toContain(VIP_MSG.payOk)
    expect(root.vip.watch).toMatchObject({ orderId: orderid, level: 2 })

    server.arrive(2)
    await jest.advanceTimersByTimeAsync(PAYMENT_NOTICE_MS + PAYMENT_USERINFO_POLL_MS)
    expect(callsTo(calls, '/api/user/getinfo')).toHaveLength(1)
    expect(texts(root)).toContain(VIP_MSG.payArrived('VIP 1'))
    expect(root.vip.watch).toBeNull()
  })

  it('a cancelled WeChat payment says so and polls nothing', async () => {
    const { root, calls } = await signedIn(payServer('wechat').handlers, { pay: { channel: () => 'wechat', loginCode: async () => 'c', requestPayment: async () => ({ status: 'cancelled' }) } })
    expect(await root.vip.buy(1)).toBe(false)
    expect(texts(root)).toContain(VIP_MSG.payCancelled)
    expect(texts(root)).not.toContain(VIP_MSG.payOk)
    expect(root.vip.watch).toBeNull()
    await jest.advanceTimersByTimeAsync(60_000)
    expect(callsTo(calls, '/api/user/getinfo')).toHaveLength(0)
  })

  it('a failed WeChat payment says so and polls nothing', async () => {
    const { root, calls } = await signedIn(payServer('wechat').handlers, { pay: { channel: () => 'wechat', loginCode: async () => 'c', requestPayment: async () => ({ status: 'failed' }) } })
    expect(await root.vip.buy(1)).toBe(false)
    expect(texts(root)).toContain(VIP_MSG.payFailed)
    await jest.advanceTimersByTimeAsync(60_000)
    expect(callsTo(calls, '/api/user/getinfo')).toHaveLength(0)
  })

  it('in the host app: the host pays the order, nothing of WeChat Pay is called', async () => {
    const hostPay = jest.fn(async (): Promise<PayOutcome> => ({ status: 'paid' }))
    const requestPayment = jest.fn(async (): Promise<PayOutcome> => ({ status: 'paid' }))
    const { root, calls } = await signedIn(payServer('wechat').handlers, { user: { group_vip: BEFORE }, pay: { channel: () => 'host', hostPay, requestPayment } })
    expect(await root.vip.buy(3)).toBe(true)
    const order = callsTo(calls, '/api/vip/order/add')
    expect(order).toHaveLength(1)
    expect(hostPay).toHaveBeenCalledTimes(1)
    expect(hostPay.mock.calls[0]).toEqual([{ orderid: expect.any(Number), order_no: expect.stringMatching(/^TM/), amount: 59800 }])
    expect(callsTo(calls, '/api/vip/order/wxpay/create')).toHaveLength(0)
    expect(requestPayment).not.toHaveBeenCalled()
    expect(texts(root)).toContain(VIP_MSG.payOk)
  })

  it('in a plain browser without the sandbox: cannot pay, says where to', async () => {
    const requestPayment = jest.fn(async (): Promise<PayOutcome> => ({ status: 'paid' }))
    const { root, calls } = await signedIn(payServer('wechat').handlers, { pay: { channel: () => 'web', requestPayment } })
    expect(await root.vip.buy(1)).toBe(false)
    expect(texts(root)).toContain(VIP_MSG.payWebUnavailable)
    expect(requestPayment).not.toHaveBeenCalled()
    expect(root.vip.sandboxOrder).toBeNull()
    await jest.advanceTimersByTimeAsync(60_000)
    expect(callsTo(calls, '/api/user/getinfo')).toHaveLength(0)
  })

  it('sees the membership arrive even when another poll took it in while the payment sheet was open', async () => {
    // WeChat's success page stays until the user taps 完成; meanwhile the server has applied the
    // order and the 10 s group refresh may already have adopted the new membership.
    const server = payServer('wechat')
    let adoptDuringPayment = () => undefined as void
    const { root, calls } = await signedIn(server.handlers, {
      user: { group_vip: BEFORE },
      pay: {
        channel: () => 'wechat',
        loginCode: async () => 'c',
        requestPayment: async () => {
          adoptDuringPayment()
          return { status: 'paid' }
        },
      },
    })
    adoptDuringPayment = () => {
      server.arrive(2)
      root.session.adopt(loginOf({ group_vip: groupVip(2, 365 * DAY) }))
    }
    expect(await root.vip.buy(1)).toBe(true)
    await jest.advanceTimersByTimeAsync(PAYMENT_NOTICE_MS + PAYMENT_USERINFO_POLL_MS)
    expect(callsTo(calls, '/api/user/getinfo')).toHaveLength(1)
    expect(texts(root)).toContain(VIP_MSG.payArrived('VIP 1'))
    expect(root.vip.watch).toBeNull()
  })
})

describe("the host app's order_paid_callback (SPEC 7)", () => {
  function hostWithCallback() {
    let paid: (orderid: number) => void = () => {
      throw new Error('VipStore did not subscribe')
    }
    const onOrderPaid = jest.fn((h: (orderid: number) => void) => {
      paid = h
      return () => undefined
    })
    return { pay: { channel: () => 'host' as const, onOrderPaid }, paid: (id: number) => paid(id), onOrderPaid }
  }

  it('fetches the order and starts the payment callback when it is paid', async () => {
    const server = payServer('wechat')
    const host = hostWithCallback()
    const { root, calls } = await signedIn(
      { ...server.handlers, '/api/vip/order/getbyid': (body) => ok(buildOrder({ id: body.id, level: 3, status: 1 })) },
      { user: { group_vip: BEFORE }, pay: host.pay },
    )
    expect(root.vip.watch).toBeNull() // creates the store, which subscribes once the pay platform loaded
    await jest.advanceTimersByTimeAsync(0)
    expect(host.onOrderPaid).toHaveBeenCalledTimes(1)
    host.paid(55)
    await jest.advanceTimersByTimeAsync(0)
    expect(sent(calls, '/api/vip/order/getbyid')).toEqual([{ id: 55 }])
    expect(texts(root)).toContain(VIP_MSG.payOk)
    expect(root.vip.watch).toMatchObject({ orderId: 55, level: 3 })

    // The same order again changes nothing.
    host.paid(55)
    await jest.advanceTimersByTimeAsync(0)
    expect(callsTo(calls, '/api/vip/order/getbyid')).toHaveLength(1)

    server.arrive(3)
    await jest.advanceTimersByTimeAsync(PAYMENT_NOTICE_MS + PAYMENT_USERINFO_POLL_MS)
    expect(texts(root)).toContain(VIP_MSG.payArrived('VIP 2'))
  })

  it('ignores an order that is not paid', async () => {
    const host = hostWithCallback()
    const { root, calls } = await signedIn({ '/api/vip/order/getbyid': (body) => ok(buildOrder({ id: body.id, status: 0 })) }, { pay: host.pay })
    void root.vip
    await jest.advanceTimersByTimeAsync(0)
    host.paid(56)
    await jest.advanceTimersByTimeAsync(30_000)
    expect(callsTo(calls, '/api/vip/order/getbyid')).toHaveLength(1)
    expect(texts(root)).not.toContain(VIP_MSG.payOk)
    expect(root.vip.watch).toBeNull()
    expect(callsTo(calls, '/api/user/getinfo')).toHaveLength(0)
  })
})

describe('orders', () => {
  it('cancelling an order replaces it in the list where it was', async () => {
    const a = buildOrder({ id: 1 })
    const b = buildOrder({ id: 2 })
    const c = buildOrder({ id: 3, status: 1 })
    const { root, calls } = await signedIn({
      '/api/vip/order/getlist': () => ok({ list: [a, b, c], total: 3 }),
      '/api/vip/order/cancel': (body) => ok({ ...b, id: body.orderid, status: 2, cancelled_at: at(0) }),
    })
    await root.vip.loadOrders()
    expect(root.vip.orders.map((o) => o.id)).toEqual([1, 2, 3])
    expect(await root.vip.cancelOrder(2)).toBe(true)
    expect(sent(calls, '/api/vip/order/cancel')).toEqual([{ orderid: 2 }])
    expect(root.vip.orders.map((o) => [o.id, o.status])).toEqual([
      [1, 0],
      [2, 2],
      [3, 1],
    ])
    expect(texts(root)).toContain(VIP_MSG.orderCancelOk)
  })
})

describe('the questionnaire (SPEC 5)', () => {
  const verified = () => loginOf({ verifyed: true, group_vip: groupVip(1, 35 * DAY) })

  it('opens with the saved answers', async () => {
    const saved: Enterprise = { name: '测绘公司', business_type: '测绘', size: 3, contacts: '王工', post: '', qa: ['巡检', '', '更多图层'] }
    const { root, calls } = await signedIn({ '/api/user/enterprise/get': () => ok(saved) })
    await root.vip.openVerify()
    expect(root.app.show_verify_modal).toBe(true)
    expect(callsTo(calls, '/api/user/enterprise/get')).toHaveLength(1)
    expect(root.vip.verifyForm).toMatchObject({ name: '测绘公司', size: 3, qa1: '巡检', qa3: '更多图层' })
  })

  it('refuses an incomplete form with the SPEC message and calls nothing', async () => {
    const { root, calls } = await signedIn({ '/api/user/verify/submit': () => ok({ verifyed: true, bonus_days: 30, vip_exp: null }) })
    const attempts: [keyof typeof root.vip.verifyForm, string | number, string][] = [
      ['name', '测绘公司', '请输入您的行业或工作性质'],
      ['business_type', '测绘', '请输入企业规模'],
      ['size', 2, '请输入您的称呼'],
      ['contacts', '王工', '请输入 问卷1 回答'],
      ['qa1', '巡检', '请输入 问卷3 回答'],
    ]
    expect(await root.vip.submitVerify()).toBe(false)
    expect(root.app.notices.at(-1)?.text).toBe('请输入企业名称')
    for (const [key, value, next] of attempts) {
      root.vip.setVerifyField(key, value as never)
      expect(await root.vip.submitVerify()).toBe(false)
      expect(root.app.notices.at(-1)?.text).toBe(next)
    }
    expect(calls).toHaveLength(0)
  })

  it('takes 请输入 问卷3 回答 away once answer 3 is filled', async () => {
    const { root } = await signedIn()
    const fill = { name: 'a', business_type: 'b', size: 6, contacts: 'c', qa1: 'd' }
    for (const [k, v] of Object.entries(fill)) root.vip.setVerifyField(k as keyof typeof fill, v as never)
    expect(await root.vip.submitVerify()).toBe(false)
    expect(root.app.currentNotice?.text).toBe('请输入 问卷3 回答')
    root.vip.setVerifyField('qa2', '其他')
    expect(root.app.currentNotice?.text).toBe('请输入 问卷3 回答')
    root.vip.setVerifyField('qa3', '更多图层')
    expect(root.app.currentNotice).toBeNull()
  })

  it('submits the trimmed answers, tells the 30 bonus days and refreshes the session', async () => {
    const { root, calls } = await signedIn(
      { '/api/user/verify/submit': () => ok({ verifyed: true, bonus_days: 30, vip_exp: at(35 * DAY) }), '/api/user/getinfo': () => ok(verified()) },
      { user: { group_vip: groupVip(1, 5 * DAY) } },
    )
    root.app.setVerifyModal(true)
    const fill = { name: ' 测绘公司 ', business_type: '测绘 ', size: 0, contacts: ' 王工', post: '  ', qa1: ' 巡检 ', qa2: '', qa3: '更多图层 ' }
    for (const [k, v] of Object.entries(fill)) root.vip.setVerifyField(k as keyof typeof fill, v as never)
    expect(await root.vip.submitVerify()).toBe(true)
    expect(sent(calls, '/api/user/verify/submit')).toEqual([{ name: '测绘公司', business_type: '测绘', size: 0, contacts: '王工', post: '', qa: ['巡检', '', '更多图层'] }])
    expect(texts(root)).toContain(VIP_MSG.verifyBonus(30))
    expect(VIP_MSG.verifyBonus(30)).toContain('30天')
    expect(root.app.show_verify_modal).toBe(false)
    expect(callsTo(calls, '/api/user/getinfo')).toHaveLength(1)
    expect(root.session.user?.verifyed).toBe(true)
    expect(root.session.user?.group_vip?.group_vip_exp).toBe(at(35 * DAY))
  })

  it('says only 提交成功 when no bonus days were given', async () => {
    const { root } = await signedIn({ '/api/user/verify/submit': () => ok({ verifyed: true, bonus_days: 0, vip_exp: null }), '/api/user/getinfo': () => ok(verified()) })
    const fill = { name: 'a', business_type: 'b', size: 6, contacts: 'c', qa1: 'd', qa3: 'e' }
    for (const [k, v] of Object.entries(fill)) root.vip.setVerifyField(k as keyof typeof fill, v as never)
    expect(await root.vip.submitVerify()).toBe(true)
    expect(texts(root)).toContain(VIP_MSG.verifyOk)
    expect(texts(root).some((t) => t.includes('试用期'))).toBe(false)
  })
})

describe('reset to free (SPEC 4, 5)', () => {
  const expired = { group_vip: groupVip(2, -DAY) }
  const freed = () => loginOf({ group_vip: groupVip(0, null) })

  it('needs a remark: 请填写重置会员备注信息, and calls nothing without one', async () => {
    const { root, calls } = await signedIn({ '/api/vip/recovery': () => ok({ removed_members: 0, hidden_markers: 0, restore_until: at(90 * DAY) }) }, { user: expired })
    expect(await root.vip.resetToFree()).toBe(false)
    expect(root.app.notices.at(-1)?.text).toBe('请填写重置会员备注信息')
    root.vip.setResetRemark('   ')
    expect(await root.vip.resetToFree()).toBe(false)
    expect(root.app.notices.at(-1)?.text).toBe('请填写重置会员备注信息')
    expect(calls).toHaveLength(0)
  })

  it('takes 请填写重置会员备注信息 away once the remark is filled', async () => {
    const { root } = await signedIn({}, { user: expired })
    expect(await root.vip.resetToFree()).toBe(false)
    expect(root.app.currentNotice?.text).toBe('请填写重置会员备注信息')
    root.vip.setResetRemark('  ')
    expect(root.app.currentNotice?.text).toBe('请填写重置会员备注信息')
    root.vip.setResetRemark('不再续费')
    expect(root.app.currentNotice).toBeNull()
  })

  it('sends the remark, refreshes the session and closes the membership dialogs', async () => {
    const { root, calls } = await signedIn(
      { '/api/vip/recovery': () => ok({ removed_members: 2, hidden_markers: 5, restore_until: at(90 * DAY) }), '/api/user/getinfo': () => ok(freed()) },
      { user: expired },
    )
    root.app.checkVipPrompts(NOW)
    expect(root.app.show_vip_expired_modal).toBe(true)
    root.vip.setResetRemark('  不再续费 ')
    expect(await root.vip.resetToFree()).toBe(true)
    expect(sent(calls, '/api/vip/recovery')).toEqual([{ remarks: '不再续费' }])
    expect(callsTo(calls, '/api/user/getinfo')).toHaveLength(1)
    expect(root.session.user?.group_vip?.level).toBe(0)
    expect(root.app.show_vip_expired_modal).toBe(false)
    expect(root.app.show_vip_exp_modal).toBe(false)
    expect(root.vip.resetRemark).toBe('')
    expect(texts(root)).toContain(VIP_MSG.resetOk)
  })
})
