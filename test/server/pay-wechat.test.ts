/**
 * WeChat Pay API v3 against a fake WeChat Pay server on loopback with locally generated
 * RSA keys: signed JSAPI prepay with the payer's openid, the wx.requestPayment parameters, the
 * platform signature on responses, and notifications verified, decrypted and applied once.
 */
import { generateKeyPairSync, type KeyObject } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { ErrCode } from '../../types/api'
import { VIP_MSG } from '../../src/domain/vipMessages'
import { addMonthsShanghai } from '../../src/domain/tiers'
import { readWechatPayConfig } from '../../server/src/services/pay/config'
import { WechatPay } from '../../server/src/services/pay/wechat'
import { encryptResource, parseAuthorization, requestMessage, responseMessage, rsaSign, rsaVerify } from '../../server/src/services/pay/wechat-v3'
import { WXPAY_NOTIFY_PATH } from '../../server/src/routes/pay'
import { makeTestApp } from './helpers'
import { makeWorld, ok, type TeamWorld } from './teams-fixture'
import { addDiscount, groupRow, unreservedDiscountOrder } from './vip-fixture'

const MCHID = '1900000109'
const APPID = 'wx1234567890abcdef'
const MERCHANT_SERIAL = '5157F09EFDC096DE15EBE81A47057A7232F1B8E1'
const PLATFORM_SERIAL = 'PUB_KEY_ID_0114232134912410000000000000'
const APIV3_KEY = 'a'.repeat(16) + 'B'.repeat(16)
const NOTIFY_URL = 'https://pay.example.com/api/pay/wxpay/notify'

const rsa = () => generateKeyPairSync('rsa', { modulusLength: 2048 })
const merchant = rsa()
const platform = rsa()
const pem = (key: KeyObject, type: 'pkcs8' | 'spki') => key.export({ format: 'pem', type }) as string

interface Seen {
  method: string
  url: string
  body: string
  auth: Record<string, string> | null
  authValid: boolean
}

/** A fake api.mch.weixin.qq.com (and api.weixin.qq.com for jscode2session). */
class FakeWechatPay {
  readonly seen: Seen[] = []
  readonly transactions = new Map<string, object>()
  badResponseSignature = false
  private server!: Server
  prepays = 0
  base = ''

  async start(): Promise<void> {
    this.server = createServer((req, res) => void this.handle(req, res))
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve))
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()))
  }

  private send(res: ServerResponse, status: number, payload: object | null): void {
    const body = payload ? JSON.stringify(payload) : ''
    const timestamp = String(Math.floor(Date.now() / 1000))
    const nonce = `fake${Math.random().toString(16).slice(2)}`
    const signature = rsaSign(this.badResponseSignature ? merchant.privateKey : platform.privateKey, responseMessage(timestamp, nonce, body))
    res.writeHead(status, { 'Content-Type': 'application/json', 'Wechatpay-Timestamp': timestamp, 'Wechatpay-Nonce': nonce, 'Wechatpay-Signature': signature, 'Wechatpay-Serial': PLATFORM_SERIAL })
    res.end(body)
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let body = ''
    for await (const chunk of req) body += chunk
    const url = req.url ?? ''
    if (url.startsWith('/sns/jscode2session')) {
      const code = new URL(url, this.base).searchParams.get('js_code')
      res.writeHead(200, { 'Content-Type': 'application/json' })
      res.end(JSON.stringify(code === 'bad' ? { errcode: 40029, errmsg: 'invalid code' } : { openid: `openid-${code}`, session_key: 'k' }))
      return
    }
    const auth = parseAuthorization(String(req.headers.authorization ?? ''))
    const authValid =
      !!auth && auth.mchid === MCHID && auth.serial_no === MERCHANT_SERIAL && rsaVerify(merchant.publicKey, requestMessage(req.method ?? '', url, auth.timestamp, auth.nonce_str, body), auth.signature)
    this.seen.push({ method: req.method ?? '', url, body, auth, authValid })
    if (!authValid) return this.send(res, 401, { code: 'SIGN_ERROR', message: '签名错误' })
    if (req.method === 'POST' && url === '/v3/pay/transactions/jsapi') return this.send(res, 200, { prepay_id: `wx_prepay_${++this.prepays}` })
    const close = url.match(/^\/v3\/pay\/transactions\/out-trade-no\/([^/]+)\/close$/)
    if (req.method === 'POST' && close) return this.send(res, 204, null)
    const query = url.match(/^\/v3\/pay\/transactions\/out-trade-no\/([^/?]+)\?mchid=(\d+)$/)
    if (req.method === 'GET' && query) {
      const known = this.transactions.get(decodeURIComponent(query[1]))
      return known ? this.send(res, 200, known) : this.send(res, 404, { code: 'ORDER_NOT_EXIST', message: '订单不存在' })
    }
    this.send(res, 404, { code: 'NOT_FOUND', message: url })
  }
}

const fake = new FakeWechatPay()
beforeAll(() => fake.start())
afterAll(() => fake.stop())

function env(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  return asEnv({
    WXPAY_MCHID: MCHID,
    WXPAY_APPID: APPID,
    WXPAY_SERIAL: MERCHANT_SERIAL,
    WXPAY_PRIVATE_KEY: pem(merchant.privateKey, 'pkcs8'),
    WXPAY_APIV3_KEY: APIV3_KEY,
    WXPAY_PLATFORM_CERT: pem(platform.publicKey, 'spki'),
    WXPAY_PLATFORM_SERIAL: PLATFORM_SERIAL,
    WXPAY_NOTIFY_URL: NOTIFY_URL,
    WXPAY_BASE: fake.base,
    WX_APPSECRET: 'secret',
    WX_API_BASE: fake.base,
    ...extra,
  })
}

function asEnv(values: Record<string, string | undefined>): NodeJS.ProcessEnv {
  return values as unknown as NodeJS.ProcessEnv
}

function wechatPay(): WechatPay {
  const config = readWechatPayConfig(env())
  if (!config) throw new Error('not configured')
  return new WechatPay(config)
}

let w: TeamWorld
beforeEach(async () => {
  fake.seen.length = 0
  fake.transactions.clear()
  fake.badResponseSignature = false
  fake.prepays = 0
  w = await makeWorld({ t: await makeTestApp({ pay: wechatPay() }) })
})
afterEach(() => w.close())

/** The transaction WeChat Pay would report for a paid order. */
function transaction(order: { order_no: string; amount: number }, overrides: Record<string, unknown> = {}) {
  return {
    appid: APPID,
    mchid: MCHID,
    out_trade_no: order.order_no,
    transaction_id: `4200001234${order.order_no.slice(-8)}`,
    trade_type: 'JSAPI',
    trade_state: 'SUCCESS',
    trade_state_desc: '支付成功',
    bank_type: 'OTHERS',
    success_time: '2025-06-01T10:05:00+08:00',
    payer: { openid: 'openid-abc' },
    amount: { total: order.amount, payer_total: order.amount, currency: 'CNY', payer_currency: 'CNY' },
    ...overrides,
  }
}

interface NotifyOptions {
  key?: KeyObject
  serial?: string
  timestamp?: number
  eventType?: string
  apiV3Key?: string
  tamper?: (body: string) => string
}

/** A notification as WeChat Pay sends it, signed with the platform key at the test clock's time. */
function notification(tx: object, options: NotifyOptions = {}) {
  const body = JSON.stringify({
    id: 'EV-2018022511223320873',
    create_time: '2025-06-01T10:05:01+08:00',
    resource_type: 'encrypt-resource',
    event_type: options.eventType ?? 'TRANSACTION.SUCCESS',
    summary: '支付成功',
    resource: encryptResource(options.apiV3Key ?? APIV3_KEY, JSON.stringify(tx), 'transaction'),
  })
  const timestamp = String(options.timestamp ?? Math.floor(w.t.clock.now().getTime() / 1000))
  const nonce = 'fdasflkja484w'
  const signature = rsaSign(options.key ?? platform.privateKey, responseMessage(timestamp, nonce, body))
  return {
    body: options.tamper ? options.tamper(body) : body,
    headers: {
      'content-type': 'application/json',
      'wechatpay-timestamp': timestamp,
      'wechatpay-nonce': nonce,
      'wechatpay-signature': signature,
      'wechatpay-serial': options.serial ?? PLATFORM_SERIAL,
      'wechatpay-signature-type': 'WECHATPAY2-SHA256-RSA2048',
    },
  }
}

async function notify(n: { body: string; headers: Record<string, string> }) {
  return w.t.app.inject({ method: 'POST', url: WXPAY_NOTIFY_PATH, payload: n.body, headers: n.headers })
}

async function orderFor(product_id = 1, discount_code?: string) {
  return ok(await w.call('/api/vip/order/add', { product_id, discount_code }, w.owner))
}

async function storedOrder(id: number) {
  return w.t.db.kysely.selectFrom('vip_orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
}

describe('JSAPI prepay and wx.requestPayment parameters', () => {
  it('should send a signed prepay with the openid of the wx.login code and return signed payment parameters', async () => {
    const order = await orderFor(2)
    const res = ok(await w.call('/api/vip/order/wxpay/create', { orderid: order.id, code: 'abc' }, w.owner))
    const prepay = fake.seen.find((s) => s.url === '/v3/pay/transactions/jsapi')
    expect(prepay).toBeDefined()
    expect(prepay?.authValid).toBe(true)
    expect(prepay?.auth).toMatchObject({ mchid: MCHID, serial_no: MERCHANT_SERIAL, nonce_str: expect.stringMatching(/^[0-9A-F]{32}$/), timestamp: expect.stringMatching(/^\d{10}$/) })
    expect(JSON.parse(prepay?.body ?? '{}')).toEqual({
      appid: APPID,
      mchid: MCHID,
      description: '团队地图 VIP 2 12个月',
      out_trade_no: order.order_no,
      // The order's pay window ends 2 hours after 10:01:01 in Shanghai.
      time_expire: '2025-06-01T12:01:01+08:00',
      notify_url: NOTIFY_URL,
      amount: { total: 29800, currency: 'CNY' },
      payer: { openid: 'openid-abc' },
    })
    expect(res.sandbox).toBe(false)
    expect(res.order).toMatchObject({ id: order.id, channel: 'wxpay', status: 0 })
    const p = res.params
    expect(p).toMatchObject({ appId: APPID, package: 'prepay_id=wx_prepay_1', signType: 'RSA', timeStamp: String(Math.floor(w.t.clock.now().getTime() / 1000)) })
    expect(p.nonceStr).toMatch(/^[0-9A-F]{32}$/)
    expect(rsaVerify(merchant.publicKey, `${p.appId}\n${p.timeStamp}\n${p.nonceStr}\n${p.package}\n`, p.paySign)).toBe(true)
    expect(rsaVerify(platform.publicKey, `${p.appId}\n${p.timeStamp}\n${p.nonceStr}\n${p.package}\n`, p.paySign)).toBe(false)
  })

  it('should take an openid as it is and reuse the prepay while the order waits', async () => {
    const order = await orderFor()
    const first = ok(await w.call('/api/vip/order/wxpay/create', { orderid: order.id, openid: 'o-direct' }, w.owner))
    const second = ok(await w.call('/api/vip/order/wxpay/create', { orderid: order.id, openid: 'o-direct' }, w.owner))
    expect(fake.seen.filter((s) => s.url === '/v3/pay/transactions/jsapi')).toHaveLength(1)
    expect(JSON.parse(fake.seen[0].body).payer).toEqual({ openid: 'o-direct' })
    expect(second.params.package).toBe(first.params.package)
    expect(`prepay_id=${(await storedOrder(order.id)).prepay_id}`).toBe(first.params.package)
  })

  it('should refuse without an openid or with a code WeChat does not know', async () => {
    const order = await orderFor()
    expect(await w.call('/api/vip/order/wxpay/create', { orderid: order.id }, w.owner)).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: VIP_MSG.payUserMissing })
    expect(await w.call('/api/vip/order/wxpay/create', { orderid: order.id, code: 'bad' }, w.owner)).toMatchObject({ errmsg: VIP_MSG.payUserMissing })
    expect(fake.seen.filter((s) => s.url === '/v3/pay/transactions/jsapi')).toHaveLength(0)
  })

  it('should not believe a response without a valid platform signature', async () => {
    fake.badResponseSignature = true
    const order = await orderFor()
    expect(await w.call('/api/vip/order/wxpay/create', { orderid: order.id, openid: 'o' }, w.owner)).toMatchObject({ errcode: ErrCode.INTERNAL, errmsg: VIP_MSG.payCreateFailed })
    expect((await storedOrder(order.id)).prepay_id).toBeNull()
  })

  it('should close a cancelled order at WeChat Pay', async () => {
    const order = await orderFor()
    ok(await w.call('/api/vip/order/wxpay/create', { orderid: order.id, openid: 'o' }, w.owner))
    expect(ok(await w.call('/api/vip/order/cancel', { orderid: order.id }, w.owner)).status).toBe(2)
    const close = fake.seen.find((s) => s.url === `/v3/pay/transactions/out-trade-no/${order.order_no}/close`)
    expect(close?.authValid).toBe(true)
    expect(JSON.parse(close?.body ?? '{}')).toEqual({ mchid: MCHID })
  })

  it('should have no sandbox completion with merchant credentials', async () => {
    const order = await orderFor()
    const res = await w.t.app.inject({ method: 'POST', url: '/api/pay/sandbox/complete', payload: { orderid: order.id, header: { userid: w.owner.userid, token: w.owner.token } } })
    expect(res.statusCode).toBe(404)
    expect(await w.call('/api/pay/iap/order/setting', { orderid: order.id, transaction_id: 't1' }, w.owner)).toMatchObject({ errcode: ErrCode.FORBIDDEN, errmsg: VIP_MSG.iapUnavailable })
  })
})

describe('the payment notification', () => {
  async function paidOrder(product_id = 1, discount_code?: string) {
    const order = await orderFor(product_id, discount_code)
    ok(await w.call('/api/vip/order/wxpay/create', { orderid: order.id, openid: 'openid-abc' }, w.owner))
    return order
  }

  it('should verify, decrypt and apply a payment: the order paid, the group a year of VIP 1 with its limits', async () => {
    const order = await paidOrder()
    const res = await notify(notification(transaction(order)))
    expect(res.statusCode).toBe(204)
    const stored = await storedOrder(order.id)
    const exp = addMonthsShanghai(w.t.clock.now(), 12).toISOString()
    expect(stored).toMatchObject({ status: 1, channel: 'wxpay', transaction_id: transaction(order).transaction_id, paid_at: '2025-06-01T02:05:00.000Z', vip_exp_after: exp })
    expect(await groupRow(w)).toMatchObject({ level: 2, vip_exp: exp, marker_limit: 1000, join_limit: 10, file_size_limit: 524288 })
    expect(ok(await w.call('/api/vip/order/getbyid', { id: order.id }, w.owner)).status).toBe(1)
  })

  it('should apply a duplicate notification once', async () => {
    await addDiscount(w, { code: 'DUP', value: 800 })
    const order = await paidOrder(1, 'DUP')
    const n = notification(transaction(order))
    expect((await notify(n)).statusCode).toBe(204)
    const after = await groupRow(w)
    w.t.clock.advance(60_000)
    expect((await notify(n)).statusCode).toBe(204)
    expect((await notify(notification(transaction(order)))).statusCode).toBe(204)
    expect(await groupRow(w)).toEqual(after)
    const discount = await w.t.db.kysely.selectFrom('discounts').select('used_count').where('code', '=', 'DUP').executeTakeFirstOrThrow()
    expect(discount.used_count).toBe(1)
  })

  it('should apply concurrent duplicates once', async () => {
    const order = await paidOrder()
    const n = notification(transaction(order))
    const results = await Promise.all([notify(n), notify(n), notify(n)])
    expect(results.map((r) => r.statusCode)).toEqual([204, 204, 204])
    expect((await groupRow(w)).vip_exp).toBe(addMonthsShanghai(w.t.clock.now(), 12).toISOString())
  })

  it.each<[string, NotifyOptions]>([
    ['signed with another key', { key: merchant.privateKey }],
    ['from an unknown platform serial', { serial: 'PUB_KEY_ID_OTHER' }],
    ['older than 5 minutes (a replay)', { timestamp: Math.floor(Date.parse('2025-06-01T01:50:00Z') / 1000) }],
    ['with a body changed after signing', { tamper: (b) => b.replace('支付成功', '支付成功!') }],
    ['encrypted with another APIv3 key', { apiV3Key: 'z'.repeat(32) }],
  ])('should refuse a notification %s and apply nothing', async (_name, options) => {
    const order = await paidOrder()
    const res = await notify(notification(transaction(order), options))
    expect(res.statusCode).toBe(401)
    expect(res.json()).toEqual({ code: 'FAIL', message: '签名验证失败' })
    expect((await storedOrder(order.id)).status).toBe(0)
    expect((await groupRow(w)).level).toBe(1)
  })

  it('should refuse a notification without the signature headers', async () => {
    const order = await paidOrder()
    const n = notification(transaction(order))
    const res = await w.t.app.inject({ method: 'POST', url: WXPAY_NOTIFY_PATH, payload: n.body, headers: { 'content-type': 'application/json' } })
    expect(res.statusCode).toBe(401)
    expect((await storedOrder(order.id)).status).toBe(0)
  })

  it("should refuse a paid amount that is not the order's, and another merchant's transaction", async () => {
    const order = await paidOrder()
    const cheap = await notify(notification(transaction(order, { amount: { total: 1, payer_total: 1, currency: 'CNY' } })))
    expect(cheap.statusCode).toBe(400)
    const foreign = await notify(notification(transaction(order, { mchid: '1111111111' })))
    expect(foreign.statusCode).toBe(401)
    expect((await storedOrder(order.id)).status).toBe(0)
  })

  it('should acknowledge other events without acting, and refuse an unknown order', async () => {
    const order = await paidOrder()
    expect((await notify(notification(transaction(order), { eventType: 'REFUND.SUCCESS' }))).statusCode).toBe(204)
    expect((await storedOrder(order.id)).status).toBe(0)
    expect((await notify(notification(transaction({ order_no: 'VIP20250601000000FFFFFFFF', amount: 8800 })))).statusCode).toBe(400)
  })

  it('should catch up on a lost notification when the order is read', async () => {
    const order = await paidOrder()
    fake.transactions.set(order.order_no, transaction(order))
    expect(ok(await w.call('/api/vip/order/getbyid', { id: order.id }, w.owner))).toMatchObject({ status: 1, channel: 'wxpay' })
    expect((await groupRow(w)).level).toBe(2)
    const query = fake.seen.find((s) => s.method === 'GET')
    expect(query?.url).toBe(`/v3/pay/transactions/out-trade-no/${order.order_no}?mchid=${MCHID}`)
    expect(query?.authValid).toBe(true)
    // The notification arriving later changes nothing.
    const after = await groupRow(w)
    expect((await notify(notification(transaction(order)))).statusCode).toBe(204)
    expect(await groupRow(w)).toEqual(after)
  })

  it('should honour a payment that arrives after the order was cancelled', async () => {
    const order = await paidOrder()
    ok(await w.call('/api/vip/order/cancel', { orderid: order.id }, w.owner))
    expect((await notify(notification(transaction(order)))).statusCode).toBe(204)
    expect((await storedOrder(order.id)).status).toBe(1)
    expect((await groupRow(w)).level).toBe(2)
  })
})

describe('discount caps at payment', () => {
  const discountRow = (code: string) => w.t.db.kysely.selectFrom('discounts').selectAll().where('code', '=', code).executeTakeFirstOrThrow()

  it('should complete a payment for an order whose reservation was released, without taking the use another order holds', async () => {
    await addDiscount(w, { code: 'ONE', max_uses: 1 })
    const cancelled = await orderFor(1, 'ONE')
    ok(await w.call('/api/vip/order/wxpay/create', { orderid: cancelled.id, openid: 'openid-abc' }, w.owner))
    ok(await w.call('/api/vip/order/cancel', { orderid: cancelled.id }, w.owner))
    const other = await w.stranger('13900000001', '甲')
    const holder = ok(await w.call('/api/vip/order/add', { product_id: 1, discount_code: 'ONE' }, other))
    expect(await w.call('/api/vip/order/add', { product_id: 1, discount_code: 'ONE' }, await w.stranger('13900000002', '乙'))).toMatchObject({ errmsg: VIP_MSG.discountReserved })

    // The money for the cancelled order was taken: it completes at that price, marked, and not counted.
    expect((await notify(notification(transaction(cancelled)))).statusCode).toBe(204)
    expect(await storedOrder(cancelled.id)).toMatchObject({ status: 1, amount: 7800, discount_over_cap: 1 })
    expect((await groupRow(w)).level).toBe(2)
    expect((await discountRow('ONE')).used_count).toBe(0)
    // The order that held the use still gets it.
    expect((await notify(notification(transaction(holder)))).statusCode).toBe(204)
    expect(await storedOrder(holder.id)).toMatchObject({ status: 1, discount_over_cap: 0 })
    expect((await discountRow('ONE')).used_count).toBe(1)
  })

  it('should count concurrent notifications of unreserved orders only up to the cap', async () => {
    const id = await addDiscount(w, { code: 'OLD', max_uses: 1 })
    const orders = [
      await unreservedDiscountOrder(w, w.owner, id),
      await unreservedDiscountOrder(w, await w.stranger('13900000001', '甲'), id),
      await unreservedDiscountOrder(w, await w.stranger('13900000002', '乙'), id),
    ]
    const results = await Promise.all(orders.map((o) => notify(notification(transaction(o)))))
    expect(results.map((r) => r.statusCode)).toEqual([204, 204, 204])
    expect((await discountRow('OLD')).used_count).toBe(1)
    const stored = await Promise.all(orders.map((o) => storedOrder(o.id)))
    expect(stored.map((o) => o.status)).toEqual([1, 1, 1])
    expect(stored.filter((o) => o.discount_over_cap === 0)).toHaveLength(1)
  })
})

describe('merchant credentials from the environment', () => {
  it('should be the sandbox with none, and refuse half a configuration', () => {
    expect(readWechatPayConfig(asEnv({}))).toBeNull()
    expect(() => readWechatPayConfig(asEnv({ WXPAY_MCHID: MCHID }))).toThrow(/WXPAY_APPID, WXPAY_SERIAL, WXPAY_PRIVATE_KEY, WXPAY_APIV3_KEY, WXPAY_PLATFORM_CERT, WXPAY_NOTIFY_URL/)
  })
  it('should need a 32-character APIv3 key and a serial for a platform public key', () => {
    expect(() => readWechatPayConfig(env({ WXPAY_APIV3_KEY: 'short' }))).toThrow(/32/)
    expect(() => readWechatPayConfig(env({ WXPAY_PLATFORM_SERIAL: undefined }))).toThrow(/WXPAY_PLATFORM_SERIAL/)
  })
  it('should read one-line PEM values with literal \\n and default the hosts', () => {
    const config = readWechatPayConfig(env({ WXPAY_PRIVATE_KEY: pem(merchant.privateKey, 'pkcs8').replace(/\n/g, '\\n'), WXPAY_BASE: undefined, WX_API_BASE: undefined }))
    expect(config).toMatchObject({ mchid: MCHID, appid: APPID, serial: MERCHANT_SERIAL, base: 'https://api.mch.weixin.qq.com', wxApiBase: 'https://api.weixin.qq.com', notifyUrl: NOTIFY_URL })
    expect(config?.platformKeys.map((k) => k.serial)).toEqual([PLATFORM_SERIAL])
  })
})
