/** Sessions, the envelope and what the server answers to bodies it cannot use. */
import { ErrCode } from '../../types/api'
import { MSG } from '../../src/domain/messages'
import { hashToken } from '../../server/src/auth'
import { makeTestApp, type TestApp } from './helpers'

const SESSION_PATHS = [
  '/api/user/getinfo',
  '/api/user/logout',
  '/api/user/init',
  '/api/user/save',
  '/api/user/logoff',
  '/api/user/check/expired',
  '/api/group/create',
  '/api/group/join',
  '/api/group/info',
  '/api/group/save/name',
]

let t: TestApp
beforeEach(async () => {
  t = await makeTestApp()
})
afterEach(() => t.close())

describe('authentication', () => {
  it.each(SESSION_PATHS)('%s should require authentication', async (path) => {
    const res = await t.call(path, { nickname: '小王', name: '团队', code: 'x' })
    expect(res.status).toBe(401)
    expect(res.errcode).toBe(ErrCode.UNAUTHORIZED)
    expect(res.errmsg).toBe(MSG.loggedOut)
    expect(res.data).toBeNull()
  })

  it('should answer 401 to an unknown token', async () => {
    const { auth } = await t.login()
    const res = await t.call('/api/user/getinfo', {}, { ...auth, token: 'not-a-token' })
    expect(res.status).toBe(401)
    expect(res.errmsg).toBe(MSG.loggedOut)
  })

  it("should answer 401 when header.userid does not name the token's user", async () => {
    const a = await t.login('13800138000')
    const b = await t.login('13900139000')
    expect((await t.call('/api/user/getinfo', {}, { userid: b.auth.userid, token: a.auth.token })).status).toBe(401)
    expect((await t.call('/api/user/getinfo', {}, { userid: '', token: a.auth.token })).status).toBe(401)
  })

  it('should accept header.userid as a number or a numeric string', async () => {
    const { auth } = await t.login()
    expect((await t.call('/api/user/getinfo', {}, auth)).status).toBe(200)
    expect((await t.call('/api/user/getinfo', {}, { ...auth, userid: String(auth.userid) })).status).toBe(200)
  })

  it('should answer 401 when the body has no header object at all', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/user/getinfo', payload: {} })
    expect(res.statusCode).toBe(401)
    expect(res.json().header.errmsg).toBe(MSG.loggedOut)
  })

  it('should revoke the token on logout so that later calls answer 401', async () => {
    const { auth } = await t.login()
    const other = await t.login()
    const out = await t.call('/api/user/logout', {}, auth)
    expect(out).toMatchObject({ status: 200, errcode: 0, data: null })
    expect((await t.call('/api/user/getinfo', {}, auth)).status).toBe(401)
    expect((await t.call('/api/user/logout', {}, auth)).status).toBe(401)
    // Other sessions of the same user stay valid.
    expect((await t.call('/api/user/getinfo', {}, other.auth)).status).toBe(200)
  })

  it('should record when a session was last seen, at most every 5 minutes', async () => {
    const { auth } = await t.login()
    const lastSeen = async () => (await t.db.kysely.selectFrom('sessions').select('last_seen_at').executeTakeFirstOrThrow()).last_seen_at
    const first = await lastSeen()
    t.clock.advance(60_000)
    await t.call('/api/user/getinfo', {}, auth)
    expect(await lastSeen()).toBe(first)
    t.clock.advance(5 * 60_000)
    await t.call('/api/user/getinfo', {}, auth)
    expect(await lastSeen()).toBe(t.clock.now().toISOString())
  })

  it('should store only a hash of each token', async () => {
    const { auth } = await t.login()
    const rows = await t.db.kysely.selectFrom('sessions').selectAll().execute()
    expect(rows).toHaveLength(1)
    expect(rows[0].token_hash).toBe(hashToken(auth.token))
    expect(rows[0].token_hash).not.toContain(auth.token)
    expect(auth.token).toMatch(/^[A-Za-z0-9_-]{43}$/)
  })
})

describe('envelope', () => {
  it("should wrap data as {header:{errcode:0, errmsg:''}, data}", async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/system/get/config', payload: { no_check_permission: true } })
    expect(res.statusCode).toBe(200)
    expect(Object.keys(res.json())).toEqual(['header', 'data'])
    expect(res.json().header).toEqual({ errcode: 0, errmsg: '' })
  })

  it('should answer a body that is not JSON with a 400 envelope', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/user/login', headers: { 'content-type': 'application/json' }, payload: '{"phone":' })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({ header: { errcode: ErrCode.VALIDATION, errmsg: MSG.badRequest }, data: null })
  })

  it('should answer a body of another media type with a 400 envelope', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/user/login', headers: { 'content-type': 'application/xml' }, payload: '<phone/>' })
    expect(res.statusCode).toBe(400)
    expect(res.json().header.errcode).toBe(ErrCode.VALIDATION)
  })

  it('should answer a JSON body that is not an object with VALIDATION', async () => {
    for (const payload of ['[1,2]', '"13800138000"', '42']) {
      const res = await t.app.inject({ method: 'POST', url: '/api/system/send/code', headers: { 'content-type': 'application/json' }, payload })
      expect(res.statusCode).toBe(200)
      expect(res.json().header).toEqual({ errcode: ErrCode.VALIDATION, errmsg: MSG.badRequest })
    }
  })

  it('should answer unknown /api paths with a 404 envelope', async () => {
    for (const method of ['GET', 'POST'] as const) {
      const res = await t.app.inject({ method, url: '/api/no/such/call', payload: method === 'POST' ? {} : undefined })
      expect(res.statusCode).toBe(404)
      expect(res.json()).toEqual({ header: { errcode: ErrCode.NOT_FOUND, errmsg: MSG.notFound }, data: null })
    }
  })

  it('should turn an unexpected error into INTERNAL 系统错误 without leaking a stack', async () => {
    await t.db.close()
    const res = await t.call('/api/system/get/config', { no_check_permission: true })
    expect(res.status).toBe(500)
    expect(res.errcode).toBe(ErrCode.INTERNAL)
    expect(res.errmsg).toBe(MSG.systemError)
    expect(res.raw).not.toMatch(/at .*\.ts|stack|Error:/)
  })
})

describe('validation', () => {
  const junk: unknown[] = [null, 42, true, [], {}, ['13800138000'], { a: 1 }, '', ' '.repeat(3), 'x'.repeat(5000)]
  const paths = [
    '/api/system/send/code',
    '/api/system/check/code',
    '/api/user/login',
    '/api/user/exist/phone',
    '/api/user/init',
    '/api/user/save',
    '/api/group/create',
    '/api/group/join',
    '/api/group/save/name',
  ]

  it('should answer junk fields with VALIDATION and a Chinese message, never a 500', async () => {
    const { auth } = await t.login()
    const before = { users: await t.count('users'), groups: await t.count('groups'), codes: await t.count('sms_codes') }
    for (const path of paths) {
      for (const value of junk) {
        const res = await t.call(path, { phone: value, code: value, nickname: value, avatar: value, name: value, channel: value }, auth)
        expect(res.status).toBe(200)
        expect(res.errcode).toBe(ErrCode.VALIDATION)
        expect(res.errmsg).toMatch(/[\u4e00-\u9fa5]/)
      }
    }
    expect({ users: await t.count('users'), groups: await t.count('groups'), codes: await t.count('sms_codes') }).toEqual(before)
  })
})
