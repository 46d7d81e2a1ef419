/** Sessions end: a token unused for 30 days stops working, and the signed-in devices can be listed and the others signed out. */
import { DAY_MS, makeTestApp, type Auth, type TestApp } from './helpers'
import { SESSION_IDLE_MS } from '../../server/src/auth'

let t: TestApp
beforeEach(async () => {
  t = await makeTestApp()
})
afterEach(() => t.close())

/** Signs in from a device kind (the body header's device and os). */
async function signInOn(device: string, os: string, phone = '13800138000'): Promise<Auth> {
  const sent = await t.call('/api/system/send/code', { phone })
  expect(sent.errcode).toBe(0)
  const res = await t.app.inject({ method: 'POST', url: '/api/user/login', payload: { phone, code: t.sms.lastCode(phone), header: { userid: '', token: '', device, os } } })
  const data = res.json().data
  t.clock.advance(61_000)
  return { userid: data.user.id, token: data.user.token }
}

describe('a token unused for 30 days', () => {
  it('no longer works (HTTP 401), while one used within the 30 days goes on', async () => {
    const idle = await signInOn('app_h5', 'android')
    const used = await signInOn('app_weapp', 'ios')
    t.clock.advance(SESSION_IDLE_MS - DAY_MS)
    expect((await t.call('/api/user/getinfo', {}, used)).status).toBe(200)
    t.clock.advance(DAY_MS)
    expect(await t.call('/api/user/getinfo', {}, idle)).toMatchObject({ status: 401 })
    expect((await t.call('/api/user/getinfo', {}, used)).status).toBe(200)
    // It stays ended: using it again does not bring it back.
    expect(await t.call('/api/user/getinfo', {}, idle)).toMatchObject({ status: 401 })
  })
})

describe('signed-in devices', () => {
  it('lists this device first, then the others by last use, with what they signed in from', async () => {
    const phone = await signInOn('app_weapp', 'android')
    const browser = await signInOn('app_h5', 'ios')
    t.clock.advance(60_000)
    const res = await t.call('/api/user/session/getlist', {}, browser)
    expect(res.errcode).toBe(0)
    expect(res.data.list).toEqual([
      { id: expect.any(Number), device: 'app_h5', os: 'ios', created_at: expect.any(String), last_seen_at: expect.any(String), current: true },
      { id: expect.any(Number), device: 'app_weapp', os: 'android', created_at: expect.any(String), last_seen_at: expect.any(String), current: false },
    ])
    expect((await t.call('/api/user/session/getlist', {}, phone)).data.list.map((d: any) => d.current)).toEqual([true, false])
  })

  it('signs out every other device at once with 退出其他设备, and only those', async () => {
    const a = await signInOn('app_weapp', 'android')
    const b = await signInOn('app_h5', 'android')
    const c = await signInOn('app_h5', 'ios')
    const someoneElse = await signInOn('app_h5', 'ios', '13900139000')
    expect((await t.call('/api/user/session/revoke/others', {}, c)).data).toEqual({ revoked: 2 })
    expect(await t.call('/api/user/getinfo', {}, a)).toMatchObject({ status: 401 })
    expect(await t.call('/api/user/getinfo', {}, b)).toMatchObject({ status: 401 })
    expect((await t.call('/api/user/getinfo', {}, c)).status).toBe(200)
    expect((await t.call('/api/user/getinfo', {}, someoneElse)).status).toBe(200)
    expect((await t.call('/api/user/session/getlist', {}, c)).data.list).toHaveLength(1)
    expect((await t.call('/api/user/session/revoke/others', {}, c)).data).toEqual({ revoked: 0 })
  })

  it('leaves out sessions that logged out or went unused for 30 days', async () => {
    const old = await signInOn('app_weapp', 'android')
    t.clock.advance(SESSION_IDLE_MS)
    const out = await signInOn('app_h5', 'android')
    await t.call('/api/user/logout', {}, out)
    const current = await signInOn('app_h5', 'ios')
    expect((await t.call('/api/user/session/getlist', {}, current)).data.list.map((d: any) => d.os)).toEqual(['ios'])
    expect(old.token).not.toBe(current.token)
  })
})
