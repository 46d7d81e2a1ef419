/** /api/system/save/config: the operator (ADMIN_TOKEN, header x-admin-token) changes the system config. */
import { ErrCode } from '../../types/api'
import { DEFAULT_SYSTEM_CONFIG } from '../../src/domain/constants'
import { BRAND_MAX, SIGN_RADIUS_MAX, SIGN_RADIUS_MIN } from '../../src/domain/systemConfig'
import { FILE_URL_MSG, SYSTEM_CONFIG_MSG } from '../../src/domain/systemMessages'
import { ADMIN_TOKEN_MIN, readServerConfig, serviceContactFromEnv } from '../../server/src/config'
import { OPERATOR_WRONG_TRIES } from '../../server/src/services/operator'
import { makeTestApp, type Auth, type TestApp } from './helpers'
import { uploadPng } from './upload-fixture'

const TOKEN = 'op-0123456789abcdef-secret'

let t: TestApp
beforeEach(async () => {
  t = await makeTestApp({ adminToken: TOKEN })
})
afterEach(() => t.close())

/** The call as the operator's tool sends it: the token in a header (null: no header), optionally a session in the body too. */
async function save(fields: object, token: string | null = TOKEN, auth?: Auth, app: TestApp = t) {
  const header = { userid: auth?.userid ?? '', groupid: '', token: auth?.token ?? '', device: 'app_h5', os: 'android' }
  const res = await app.app.inject({ method: 'POST', url: '/api/system/save/config', payload: { ...fields, header }, headers: token === null ? {} : { 'x-admin-token': token } })
  const body = res.json()
  return { status: res.statusCode, errcode: body.header.errcode as number, errmsg: body.header.errmsg as string, data: body.data }
}

const config = async (app: TestApp = t) => (await app.call('/api/system/get/config', { no_check_permission: true })).data

describe('/api/system/save/config', () => {
  it('should save what the operator sends and show it on the next get/config', async () => {
    const logo = 'https://cdn.example.com/brand/logo.png'
    const res = await save({
      logo,
      brand: ' 勘察地图 ',
      show_phone: false,
      sign_radius: 500,
      show_marker_cluster_count: false,
      service_phone: '400-800-1234',
      service_url: 'https://work.weixin.qq.com/kfid/kf001',
    })
    const expected = {
      id: 1,
      logo,
      brand: '勘察地图',
      show_phone: false,
      sign_radius: 500,
      show_marker_cluster_count: false,
      service_phone: '400-800-1234',
      service_url: 'https://work.weixin.qq.com/kfid/kf001',
    }
    expect(res).toMatchObject({ status: 200, errcode: ErrCode.OK, data: expected })
    expect(await config()).toEqual(expected)
  })

  it('should change only the fields given (and ignore the id the client may echo)', async () => {
    expect((await save({ id: 99, sign_radius: 1000 })).errcode).toBe(ErrCode.OK)
    expect(await config()).toEqual({ ...DEFAULT_SYSTEM_CONFIG, id: 1, sign_radius: 1000 })
    expect((await save({ service_url: 'https://kf.example.com/x' })).errcode).toBe(ErrCode.OK)
    expect((await save({ service_url: '' })).errcode).toBe(ErrCode.OK)
    expect(await config()).toEqual({ ...DEFAULT_SYSTEM_CONFIG, id: 1, sign_radius: 1000 })
  })

  it('should take a logo uploaded to the app, and none', async () => {
    const { auth } = await t.login()
    await t.call('/api/group/create', {}, auth)
    const logo = await uploadPng(t, auth, 'logo')
    expect((await save({ logo })).data.logo).toBe(logo)
    expect((await save({ logo: '' })).data.logo).toBe('')
  })

  it('should refuse a team administrator, a member and a stranger without the operator token, changing nothing', async () => {
    const { auth } = await t.login()
    await t.call('/api/group/create', {}, auth)
    const refused = { status: 200, errcode: ErrCode.FORBIDDEN, errmsg: SYSTEM_CONFIG_MSG.operatorOnly }
    expect(await save({ brand: '篡改' }, null, auth)).toMatchObject(refused)
    expect(await save({ brand: '篡改' }, null)).toMatchObject(refused)
    expect(await save({ brand: '篡改' }, '')).toMatchObject(refused)
    expect(await save({ brand: '篡改' }, TOKEN.slice(0, -1))).toMatchObject(refused)
    expect(await save({ brand: '篡改' }, `${TOKEN}x`)).toMatchObject(refused)
    // The token in the body is not the credential.
    expect(await save({ brand: '篡改', admin_token: TOKEN, 'x-admin-token': TOKEN }, null)).toMatchObject(refused)
    // Nothing about the fields is told before the credential holds.
    expect(await save({ sign_radius: 'lots' }, 'wrong')).toMatchObject(refused)
    expect(await config()).toEqual({ ...DEFAULT_SYSTEM_CONFIG, id: 1 })
  })

  it('should be off for everyone, the right token included, when ADMIN_TOKEN is not set', async () => {
    const off = await makeTestApp()
    try {
      for (const token of [null, '', TOKEN]) {
        expect(await save({ brand: '篡改' }, token, undefined, off)).toMatchObject({ errcode: ErrCode.FORBIDDEN, errmsg: SYSTEM_CONFIG_MSG.operatorDisabled })
      }
      expect((await config(off)).brand).toBe(DEFAULT_SYSTEM_CONFIG.brand)
    } finally {
      await off.close()
    }
  })

  it('should stop an address after too many wrong tokens, the right one included, until the window passes', async () => {
    for (let i = 0; i < OPERATOR_WRONG_TRIES.max; i++) expect((await save({ brand: 'x' }, `guess-${i}`)).errcode).toBe(ErrCode.FORBIDDEN)
    expect(await save({ brand: '勘察地图' })).toMatchObject({ errcode: ErrCode.RATE_LIMITED, errmsg: SYSTEM_CONFIG_MSG.operatorTooManyTries })
    t.clock.advance(OPERATOR_WRONG_TRIES.windowMs + 1000)
    expect((await save({ brand: '勘察地图' })).errcode).toBe(ErrCode.OK)
  })

  it.each([
    ['a sign radius below the range', { sign_radius: SIGN_RADIUS_MIN - 1 }, SYSTEM_CONFIG_MSG.signRadiusRange(SIGN_RADIUS_MIN, SIGN_RADIUS_MAX)],
    ['a sign radius above the range', { sign_radius: SIGN_RADIUS_MAX + 1 }, SYSTEM_CONFIG_MSG.signRadiusRange(SIGN_RADIUS_MIN, SIGN_RADIUS_MAX)],
    ['a fractional sign radius', { sign_radius: 100.5 }, SYSTEM_CONFIG_MSG.signRadiusRange(SIGN_RADIUS_MIN, SIGN_RADIUS_MAX)],
    ['a sign radius as text', { sign_radius: '300' }, SYSTEM_CONFIG_MSG.signRadiusRange(SIGN_RADIUS_MIN, SIGN_RADIUS_MAX)],
    ['a switch as text', { show_phone: 'false' }, SYSTEM_CONFIG_MSG.switchInvalid('显示手机号')],
    ['a switch as a number', { show_marker_cluster_count: 0 }, SYSTEM_CONFIG_MSG.switchInvalid('显示聚合数量')],
    ['a blank brand', { brand: '  ' }, SYSTEM_CONFIG_MSG.brandRequired],
    ['a brand too long', { brand: '图'.repeat(BRAND_MAX + 1) }, SYSTEM_CONFIG_MSG.brandTooLong(BRAND_MAX)],
    ['a javascript: logo', { logo: 'javascript:alert(1)' }, FILE_URL_MSG.logo],
    ['an http logo', { logo: 'http://cdn.example.com/logo.png' }, FILE_URL_MSG.logo],
    ['a made-up /files/ logo', { logo: '/files/1/logo.png' }, FILE_URL_MSG.logo],
    ['an http service link', { service_url: 'http://kf.example.com' }, SYSTEM_CONFIG_MSG.serviceUrlInvalid],
    ['a javascript: service link', { service_url: 'javascript:alert(1)' }, SYSTEM_CONFIG_MSG.serviceUrlInvalid],
    ['a service phone with letters', { service_phone: '400-CALL-NOW' }, SYSTEM_CONFIG_MSG.servicePhoneInvalid],
    ['nothing to change', {}, SYSTEM_CONFIG_MSG.nothingToSave],
  ])('should refuse %s with its message and change nothing', async (_what, fields, message) => {
    expect(await save(fields)).toMatchObject({ status: 200, errcode: ErrCode.VALIDATION, errmsg: message })
    // With a valid field beside it: still nothing is written.
    if (Object.keys(fields).length) expect(await save({ brand: '勘察地图', ...fields })).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: message })
    expect(await config()).toEqual({ ...DEFAULT_SYSTEM_CONFIG, id: 1 })
  })
})

describe('operator settings from the environment', () => {
  it('reads ADMIN_TOKEN, and leaves the operator calls off when it is unset or too short', () => {
    expect(readServerConfig({ ADMIN_TOKEN: TOKEN } as unknown as NodeJS.ProcessEnv).adminToken).toBe(TOKEN)
    expect(readServerConfig({ ADMIN_TOKEN: 'x'.repeat(ADMIN_TOKEN_MIN - 1) } as unknown as NodeJS.ProcessEnv).adminToken).toBeUndefined()
    expect(readServerConfig({ ADMIN_TOKEN: '' } as unknown as NodeJS.ProcessEnv).adminToken).toBeUndefined()
    expect(readServerConfig({} as NodeJS.ProcessEnv).adminToken).toBeUndefined()
  })

  it('stores SERVICE_PHONE / SERVICE_URL under the same rules as the operator call', () => {
    expect(serviceContactFromEnv({ SERVICE_PHONE: ' 400-800-1234 ', SERVICE_URL: 'https://kf.example.com/a' } as unknown as NodeJS.ProcessEnv)).toEqual({
      contact: { phone: '400-800-1234', url: 'https://kf.example.com/a' },
      ignored: [],
    })
    expect(serviceContactFromEnv({ SERVICE_PHONE: '' } as unknown as NodeJS.ProcessEnv)).toEqual({ contact: { phone: '' }, ignored: [] })
    const bad = serviceContactFromEnv({ SERVICE_PHONE: 'call us', SERVICE_URL: 'javascript:alert(1)' } as unknown as NodeJS.ProcessEnv)
    expect(bad.contact).toEqual({})
    expect(bad.ignored).toHaveLength(2)
  })
})
