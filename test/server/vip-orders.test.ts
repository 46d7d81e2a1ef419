/** Orders and discounts (SPEC 3, 7): the server's price only, discounts, order states, the sandbox payment and what it gives the group. */
import { ErrCode } from '../../types/api'
import { VIP_MSG } from '../../src/domain/vipMessages'
import { addMonthsShanghai } from '../../src/domain/tiers'
import { DAY_MS } from './helpers'
import { makeWorld, ok, type TeamWorld } from './teams-fixture'
import { addDiscount, buyInSandbox, groupRow, passTrial, setGroup, unreservedDiscountOrder } from './vip-fixture'

let w: TeamWorld
beforeEach(async () => {
  w = await makeWorld({ paySandbox: true })
})
afterEach(() => w.close())

const HOUR = 3600_000

describe('/api/vip/order/add pricing', () => {
  it.each([
    [1, 2, 8800],
    [2, 3, 29800],
    [3, 4, 59800],
  ])('should price product %i (level %i) at %i fen without a discount', async (product_id, level, price) => {
    const order = ok(await w.call('/api/vip/order/add', { product_id }, w.owner))
    expect(order).toMatchObject({ product_id, level, months: 12, price, discount_amount: 0, amount: price, status: 0, discount_code: '' })
    expect(order.order_no).toMatch(/^VIP\d{14}[0-9A-F]{8}$/)
    expect(Date.parse(order.expires_at) - Date.parse(order.created_at)).toBe(2 * HOUR)
  })

  it('should ignore a price, amount or discount sent by the client', async () => {
    const order = ok(await w.call('/api/vip/order/add', { product_id: 3, price: 1, amount: 1, discount_amount: 59799, level: 4, months: 1200 }, w.owner))
    expect(order).toMatchObject({ price: 59800, amount: 59800, discount_amount: 0, months: 12 })
    const stored = await w.t.db.kysely.selectFrom('vip_orders').selectAll().where('id', '=', order.id).executeTakeFirstOrThrow()
    expect(stored).toMatchObject({ price: 59800, amount: 59800, months: 12 })
  })

  it('should take an amount discount off, by a code in any case', async () => {
    await addDiscount(w, { code: 'SUMMER', kind: 'amount', value: 5000 })
    const order = ok(await w.call('/api/vip/order/add', { product_id: 2, discount_code: ' summer ' }, w.owner))
    expect(order).toMatchObject({ price: 29800, discount_code: 'SUMMER', discount_amount: 5000, amount: 24800 })
  })

  it('should apply a rate discount as the per cent paid, rounded down', async () => {
    await addDiscount(w, { code: 'EIGHTFIVE', kind: 'rate', value: 85 })
    expect(ok(await w.call('/api/vip/order/add', { product_id: 1, discount_code: 'EIGHTFIVE' }, w.owner))).toMatchObject({ price: 8800, discount_amount: 1320, amount: 7480 })
  })

  it('should never charge less than 1 fen', async () => {
    await addDiscount(w, { code: 'FREE', kind: 'amount', value: 999_999 })
    expect(ok(await w.call('/api/vip/order/add', { product_id: 1, discount_code: 'FREE' }, w.owner))).toMatchObject({ amount: 1, discount_amount: 8799 })
  })

  it('should refuse unknown, not yet valid, past, used up and other-product codes with their messages', async () => {
    // 10:00 on 1 June in Shanghai (the test clock) + 8 days of trial left untouched.
    await addDiscount(w, { code: 'LATER', starts_on: '2025-06-02' })
    await addDiscount(w, { code: 'PAST', ends_on: '2025-05-31' })
    await addDiscount(w, { code: 'GONE', max_uses: 3, used_count: 3 })
    await addDiscount(w, { code: 'VIP3ONLY', product_ids: '[3]' })
    const add = (discount_code: string, product_id = 1) => w.call('/api/vip/order/add', { product_id, discount_code }, w.owner)
    expect(await add('NOPE')).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: VIP_MSG.discountInvalid })
    expect(await add('LATER')).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: VIP_MSG.discountNotStarted })
    expect(await add('PAST')).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: VIP_MSG.discountExpired })
    expect(await add('GONE')).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: VIP_MSG.discountUsedUp })
    expect(await add('VIP3ONLY')).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: VIP_MSG.discountNotForProduct })
    expect(ok(await add('VIP3ONLY', 3))).toMatchObject({ amount: 58800 })
    expect(await w.t.db.kysely.selectFrom('vip_orders').select('id').execute()).toHaveLength(1)
  })

  it('should take discount days in Asia/Shanghai: the last day works until 24:00 there', async () => {
    await addDiscount(w, { code: 'JUNE1', ends_on: '2025-06-01' })
    w.t.clock.set('2025-06-01T15:59:59.000Z') // 23:59:59 in Shanghai
    expect(await w.call('/api/vip/order/add', { product_id: 1, discount_code: 'JUNE1' }, w.owner)).toMatchObject({ errcode: 0 })
    w.t.clock.set('2025-06-01T16:00:00.000Z') // 00:00 on 2 June
    expect(await w.call('/api/vip/order/add', { product_id: 1, discount_code: 'JUNE1' }, w.owner)).toMatchObject({ errmsg: VIP_MSG.discountExpired })
  })

  it('should let a group use a code once (a waiting order holds it), and count its uses', async () => {
    const id = await addDiscount(w, { code: 'ONCE', max_uses: 2 })
    const unpaid = ok(await w.call('/api/vip/order/add', { product_id: 1, discount_code: 'ONCE' }, w.owner))
    expect(unpaid.amount).toBe(7800)
    expect(await w.call('/api/vip/order/add', { product_id: 1, discount_code: 'ONCE' }, w.owner)).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: VIP_MSG.discountPending })
    ok(await w.call('/api/vip/order/cancel', { orderid: unpaid.id }, w.owner))
    await buyInSandbox(w, 1, w.owner, 'ONCE')
    expect(await w.call('/api/vip/order/add', { product_id: 1, discount_code: 'ONCE' }, w.owner)).toMatchObject({ errmsg: VIP_MSG.discountUsed })
    const row = await w.t.db.kysely.selectFrom('discounts').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
    expect(row.used_count).toBe(1)
    // Another group may still use it; then it is used up.
    const other = await w.stranger('13900000009', '别人')
    await buyInSandbox(w, 1, other, 'ONCE')
    const third = await w.stranger('13900000008', '第三人')
    expect(await w.call('/api/vip/order/add', { product_id: 1, discount_code: 'ONCE' }, third)).toMatchObject({ errmsg: VIP_MSG.discountUsedUp })
  })

  it('should refuse a product that does not exist, and a missing one', async () => {
    expect(await w.call('/api/vip/order/add', { product_id: 4 }, w.owner)).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: VIP_MSG.productRequired })
    expect(await w.call('/api/vip/order/add', {}, w.owner)).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: VIP_MSG.productRequired })
    expect(await w.call('/api/vip/order/add', { product_id: '1' }, w.owner)).toMatchObject({ errcode: ErrCode.VALIDATION })
  })

  it('should let only the administrator order', async () => {
    const member = await w.join('13900000001', '队员')
    expect(await w.call('/api/vip/order/add', { product_id: 1 }, member)).toMatchObject({ errcode: ErrCode.FORBIDDEN, errmsg: VIP_MSG.adminOnly })
    await w.makeManager(member)
    expect(await w.call('/api/vip/order/add', { product_id: 1 }, member)).toMatchObject({ errcode: ErrCode.FORBIDDEN })
  })

  it('should refuse a lower tier while a higher one runs', async () => {
    await buyInSandbox(w, 3)
    expect(await w.call('/api/vip/order/add', { product_id: 1 }, w.owner)).toMatchObject({ errcode: ErrCode.CONFLICT, errmsg: VIP_MSG.lowerTier })
    expect(await w.call('/api/vip/order/add', { product_id: 3 }, w.owner)).toMatchObject({ errcode: 0 })
  })

  it('should need a session', async () => {
    expect((await w.t.call('/api/vip/order/add', { product_id: 1 }, null)).status).toBe(401)
    expect((await w.t.call('/api/vip/info', {}, null)).status).toBe(401)
  })
})

describe('discount caps: a use is reserved by the order and counted again at payment', () => {
  const discountRow = (id: number) => w.t.db.kysely.selectFrom('discounts').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
  const ordersWith = (id: number) => w.t.db.kysely.selectFrom('vip_orders').selectAll().where('discount_id', '=', id).orderBy('id').execute()

  it('should give a code capped at one use to one of several teams ordering at once, and refuse the others', async () => {
    const id = await addDiscount(w, { code: 'ONE', max_uses: 1 })
    const teams = [w.owner, await w.stranger('13900000001', '甲'), await w.stranger('13900000002', '乙'), await w.stranger('13900000003', '丙')]
    const results = await Promise.all(teams.map((auth) => w.call('/api/vip/order/add', { product_id: 1, discount_code: 'ONE' }, auth)))
    const won = results.filter((r) => r.errcode === ErrCode.OK)
    expect(won).toHaveLength(1)
    expect(won[0].data).toMatchObject({ discount_code: 'ONE', amount: 7800 })
    for (const lost of results.filter((r) => r.errcode !== ErrCode.OK)) expect(lost).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: VIP_MSG.discountReserved })
    expect(await ordersWith(id)).toHaveLength(1)
    expect(await w.call('/api/vip/discount/check', { code: 'ONE' }, teams[results.findIndex((r) => r.errcode !== ErrCode.OK)])).toMatchObject({ errmsg: VIP_MSG.discountReserved })

    const winner = teams[results.findIndex((r) => r.errcode === ErrCode.OK)]
    ok(await w.call('/api/pay/sandbox/complete', { orderid: won[0].data.id }, winner))
    expect(await discountRow(id)).toMatchObject({ used_count: 1 })
    const late = await w.stranger('13900000004', '丁')
    expect(await w.call('/api/vip/order/add', { product_id: 1, discount_code: 'ONE' }, late)).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: VIP_MSG.discountUsedUp })
  })

  it('should let one team hold a code once when it orders several times at once', async () => {
    const id = await addDiscount(w, { code: 'TEAM', max_uses: 5 })
    const results = await Promise.all([1, 2, 3, 1].map((product_id) => w.call('/api/vip/order/add', { product_id, discount_code: 'TEAM' }, w.owner)))
    expect(results.filter((r) => r.errcode === ErrCode.OK)).toHaveLength(1)
    for (const lost of results.filter((r) => r.errcode !== ErrCode.OK)) expect(lost).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: VIP_MSG.discountPending })
    expect(await ordersWith(id)).toHaveLength(1)
    // Without the code the team may still order.
    expect(ok(await w.call('/api/vip/order/add', { product_id: 1 }, w.owner))).toMatchObject({ discount_code: '', amount: 8800 })
  })

  it('should release the reservation when the order is cancelled or its pay window closes', async () => {
    await addDiscount(w, { code: 'ONE', max_uses: 1 })
    const a = await w.stranger('13900000001', '甲')
    const b = await w.stranger('13900000002', '乙')
    const first = ok(await w.call('/api/vip/order/add', { product_id: 1, discount_code: 'ONE' }, w.owner))
    expect(await w.call('/api/vip/order/add', { product_id: 1, discount_code: 'ONE' }, a)).toMatchObject({ errmsg: VIP_MSG.discountReserved })
    ok(await w.call('/api/vip/order/cancel', { orderid: first.id }, w.owner))
    ok(await w.call('/api/vip/order/add', { product_id: 1, discount_code: 'ONE' }, a))
    expect(await w.call('/api/vip/order/add', { product_id: 1, discount_code: 'ONE' }, b)).toMatchObject({ errmsg: VIP_MSG.discountReserved })
    w.t.clock.advance(2 * HOUR)
    const third = ok(await w.call('/api/vip/order/add', { product_id: 1, discount_code: 'ONE' }, b))
    ok(await w.call('/api/pay/sandbox/complete', { orderid: third.id }, b))
    expect(await w.call('/api/vip/order/add', { product_id: 1, discount_code: 'ONE' }, w.owner)).toMatchObject({ errmsg: VIP_MSG.discountUsedUp })
  })

  it('should count concurrent payments of unreserved orders only up to the cap, completing the rest at the price paid and marking them', async () => {
    const id = await addDiscount(w, { code: 'OLD', max_uses: 1 })
    const teams = [w.owner, await w.stranger('13900000001', '甲'), await w.stranger('13900000002', '乙')]
    const orders = await Promise.all(teams.map((auth) => unreservedDiscountOrder(w, auth, id)))
    const paid = await Promise.all(orders.map((o, i) => w.call('/api/pay/sandbox/complete', { orderid: o.id }, teams[i])))
    for (const p of paid) expect(ok(p)).toMatchObject({ status: 1, amount: 7800 })
    expect(await discountRow(id)).toMatchObject({ used_count: 1 })
    const stored = await ordersWith(id)
    expect(stored.map((o) => o.status)).toEqual([1, 1, 1])
    expect(stored.filter((o) => o.discount_over_cap === 0)).toHaveLength(1)
  })

  it("should not count a team's second paid use of a code, and mark it", async () => {
    const id = await addDiscount(w, { code: 'OLD', max_uses: 5 })
    const orders = [await unreservedDiscountOrder(w, w.owner, id), await unreservedDiscountOrder(w, w.owner, id)]
    await Promise.all(orders.map((o) => w.call('/api/pay/sandbox/complete', { orderid: o.id }, w.owner)))
    expect(await discountRow(id)).toMatchObject({ used_count: 1 })
    expect((await ordersWith(id)).map((o) => [o.status, o.discount_over_cap]).sort()).toEqual([
      [1, 0],
      [1, 1],
    ])
  })
})

describe('/api/vip/discount/check and getlist', () => {
  it('should show a usable code with the price of every product it applies to', async () => {
    await addDiscount(w, { code: 'TEN', name: '立减', kind: 'amount', value: 1000, product_ids: '[1,2]' })
    const res = ok(await w.call('/api/vip/discount/check', { code: 'ten' }, w.owner))
    expect(res.discount).toMatchObject({ code: 'TEN', kind: 'amount', value: 1000, product_ids: [1, 2] })
    expect(res.prices).toEqual([
      { product_id: 1, price: 8800, discount_amount: 1000, amount: 7800 },
      { product_id: 2, price: 29800, discount_amount: 1000, amount: 28800 },
    ])
    expect(await w.call('/api/vip/discount/check', { code: 'TEN', product_id: 3 }, w.owner)).toMatchObject({ errmsg: VIP_MSG.discountNotForProduct })
    expect(await w.call('/api/vip/discount/check', { code: '  ' }, w.owner)).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: VIP_MSG.discountCodeRequired })
    expect(await w.call('/api/vip/discount/check', {}, w.owner)).toMatchObject({ errmsg: VIP_MSG.discountCodeRequired })
  })

  it('should list the listed discounts valid today that are not used up', async () => {
    await addDiscount(w, { code: 'LISTED', listed: 1 })
    await addDiscount(w, { code: 'HIDDEN', listed: 0 })
    await addDiscount(w, { code: 'OLD', listed: 1, ends_on: '2025-05-31' })
    await addDiscount(w, { code: 'SOON', listed: 1, starts_on: '2025-06-02' })
    await addDiscount(w, { code: 'FULL', listed: 1, max_uses: 1, used_count: 1 })
    await addDiscount(w, { code: 'TODAY', listed: 1, starts_on: '2025-06-01', ends_on: '2025-06-01' })
    const list = ok(await w.call('/api/vip/discount/getlist', {}, w.owner)) as { code: string }[]
    expect(list.map((d) => d.code)).toEqual(['LISTED', 'TODAY'])
  })
})

describe('orders: list, get, cancel, states', () => {
  it("should list the caller's orders in the group, newest first, paged, by state", async () => {
    const a = ok(await w.call('/api/vip/order/add', { product_id: 1 }, w.owner))
    const b = ok(await w.call('/api/vip/order/add', { product_id: 2 }, w.owner))
    const c = ok(await w.call('/api/vip/order/add', { product_id: 3 }, w.owner))
    ok(await w.call('/api/vip/order/cancel', { orderid: b.id }, w.owner))
    const all = ok(await w.call('/api/vip/order/getlist', {}, w.owner))
    expect(all.total).toBe(3)
    expect(all.list.map((o: any) => [o.id, o.status])).toEqual([
      [c.id, 0],
      [b.id, 2],
      [a.id, 0],
    ])
    expect(ok(await w.call('/api/vip/order/getlist', { pageindex: 2, pagesize: 2 }, w.owner)).list.map((o: any) => o.id)).toEqual([a.id])
    expect(ok(await w.call('/api/vip/order/getlist', { status: 2 }, w.owner)).list.map((o: any) => o.id)).toEqual([b.id])
    // Past the pay window the waiting ones read as closed.
    w.t.clock.advance(2 * HOUR)
    expect(ok(await w.call('/api/vip/order/getlist', { status: 3 }, w.owner))).toMatchObject({ total: 2 })
    expect(ok(await w.call('/api/vip/order/getlist', { status: 0 }, w.owner))).toMatchObject({ total: 0, list: [] })
  })

  it("should not show or touch another user's or another group's order", async () => {
    const order = ok(await w.call('/api/vip/order/add', { product_id: 1 }, w.owner))
    const other = await w.stranger('13900000002', '别人')
    const member = await w.join('13900000003', '队员')
    for (const who of [other, member]) {
      expect(await w.call('/api/vip/order/getbyid', { id: order.id }, who)).toMatchObject({ errcode: ErrCode.NOT_FOUND, errmsg: VIP_MSG.orderNotFound })
      expect(await w.call('/api/vip/order/cancel', { orderid: order.id }, who)).toMatchObject({ errcode: ErrCode.NOT_FOUND })
      expect(await w.call('/api/vip/order/wxpay/create', { orderid: order.id }, who)).toMatchObject({ errcode: ErrCode.NOT_FOUND })
      expect(await w.call('/api/pay/sandbox/complete', { orderid: order.id }, who)).toMatchObject({ errcode: ErrCode.NOT_FOUND })
      expect(ok(await w.call('/api/vip/order/getlist', {}, who)).total).toBe(0)
    }
  })

  it('should not pay a cancelled or closed order, and not cancel a paid one', async () => {
    const cancelled = ok(await w.call('/api/vip/order/add', { product_id: 1 }, w.owner))
    expect(ok(await w.call('/api/vip/order/cancel', { orderid: cancelled.id }, w.owner))).toMatchObject({ status: 2, cancelled_at: w.t.clock.now().toISOString() })
    expect(ok(await w.call('/api/vip/order/cancel', { orderid: cancelled.id }, w.owner))).toMatchObject({ status: 2 })
    expect(await w.call('/api/vip/order/wxpay/create', { orderid: cancelled.id }, w.owner)).toMatchObject({ errcode: ErrCode.CONFLICT, errmsg: VIP_MSG.orderCancelled })
    expect(await w.call('/api/pay/sandbox/complete', { orderid: cancelled.id }, w.owner)).toMatchObject({ errmsg: VIP_MSG.orderCancelled })

    const late = ok(await w.call('/api/vip/order/add', { product_id: 1 }, w.owner))
    w.t.clock.advance(2 * HOUR)
    expect(ok(await w.call('/api/vip/order/getbyid', { id: late.id }, w.owner)).status).toBe(3)
    expect(await w.call('/api/pay/sandbox/complete', { orderid: late.id }, w.owner)).toMatchObject({ errmsg: VIP_MSG.orderClosed })

    const paid = await buyInSandbox(w, 1)
    expect(await w.call('/api/vip/order/cancel', { orderid: paid.id }, w.owner)).toMatchObject({ errcode: ErrCode.CONFLICT, errmsg: VIP_MSG.orderNotPending })
    expect(await w.call('/api/pay/sandbox/complete', { orderid: paid.id }, w.owner)).toMatchObject({ errmsg: VIP_MSG.orderNotPending })
    expect((await groupRow(w)).level).toBe(2)
  })
})

describe('paying in the sandbox (no merchant credentials)', () => {
  it('should answer wxpay/create with sandbox and no parameters', async () => {
    const order = ok(await w.call('/api/vip/order/add', { product_id: 1 }, w.owner))
    expect(ok(await w.call('/api/vip/order/wxpay/create', { orderid: order.id }, w.owner))).toMatchObject({ sandbox: true, params: null, order: { id: order.id, channel: 'sandbox', status: 0 } })
  })

  it('should start the tier for a year with its limits, shown by vip/info and getinfo', async () => {
    const now = w.t.clock.now()
    const paid = await buyInSandbox(w, 2)
    const exp = addMonthsShanghai(now, 12).toISOString()
    expect(paid).toMatchObject({ status: 1, channel: 'sandbox', paid_at: now.toISOString(), vip_exp_after: exp })
    expect(await groupRow(w)).toMatchObject({ level: 3, vip_exp: exp, marker_limit: 3000, join_limit: 30, file_size_limit: 1048576 })
    const info = ok(await w.call('/api/vip/info', {}, w.owner))
    expect(info).toMatchObject({ level: 3, level_name: 'VIP 2', vip_exp: exp, expired: false, marker_limit: 3000, join_limit: 30, file_rep_size: 1048576, days_left: 365 })
    const me = ok(await w.call('/api/user/getinfo', {}, w.owner))
    expect(me.user.group_vip).toMatchObject({ level: 3, group_vip_exp: exp, marker_limit: 3000 })
  })

  it('should add a year to the same running tier, and keep the value of a lower one on an upgrade', async () => {
    await buyInSandbox(w, 1)
    const first = (await groupRow(w)).vip_exp as string
    w.t.clock.advance(10 * DAY_MS)
    await buyInSandbox(w, 1)
    expect((await groupRow(w)).vip_exp).toBe(addMonthsShanghai(first, 12).toISOString())
    const now = w.t.clock.now()
    const remaining = Date.parse(addMonthsShanghai(first, 12).toISOString()) - now.getTime()
    await buyInSandbox(w, 3)
    const carried = Math.floor((remaining * 8800) / 59800)
    expect(await groupRow(w)).toMatchObject({ level: 4, vip_exp: new Date(addMonthsShanghai(now, 12).getTime() + carried).toISOString(), marker_limit: 5000 })
  })

  it('should renew an expired trial from now', async () => {
    passTrial(w)
    expect(ok(await w.call('/api/user/check/expired', {}, w.owner))).toMatchObject({ expired: true, is_admin: true })
    await buyInSandbox(w, 1)
    expect(ok(await w.call('/api/user/check/expired', {}, w.owner))).toMatchObject({ expired: false, level: 2, vip_exp: addMonthsShanghai(w.t.clock.now(), 12).toISOString() })
  })

  it('should take an App Store purchase of a waiting order in sandbox mode, once', async () => {
    const order = ok(await w.call('/api/vip/order/add', { product_id: 1 }, w.owner))
    expect(await w.call('/api/pay/iap/order/setting', { orderid: order.id }, w.owner)).toMatchObject({ errcode: ErrCode.VALIDATION })
    expect(ok(await w.call('/api/pay/iap/order/setting', { orderid: order.id, transaction_id: '1000000123', receipt: 'MIIT...' }, w.owner))).toMatchObject({ status: 1, channel: 'iap' })
    expect((await w.t.db.kysely.selectFrom('vip_orders').select('transaction_id').where('id', '=', order.id).executeTakeFirstOrThrow()).transaction_id).toBe('1000000123')
    expect(await w.call('/api/pay/iap/order/setting', { orderid: order.id, transaction_id: '1000000123' }, w.owner)).toMatchObject({ errcode: ErrCode.CONFLICT, errmsg: VIP_MSG.orderNotPending })
    expect((await groupRow(w)).level).toBe(2)
  })

  it("should keep a custom member's limits on a VIP 3 renewal", async () => {
    await setGroup(w, { level: 4, vip_exp: new Date(w.t.clock.now().getTime() + DAY_MS).toISOString(), marker_limit: 20000, join_limit: 200, file_size_limit: 4194304 })
    expect(ok(await w.call('/api/vip/info', {}, w.owner))).toMatchObject({ custom: true, level_name: '定制会员' })
    await buyInSandbox(w, 3)
    expect(await groupRow(w)).toMatchObject({ level: 4, marker_limit: 20000, join_limit: 200, file_size_limit: 4194304 })
  })
})
