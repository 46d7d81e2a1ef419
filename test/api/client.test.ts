import { ApiError, ERRCODE } from '../../src/api/errors'
import { MSG } from '../../src/domain/messages'
import { ErrCode } from '../../types/api'
import { buildLogin, fail, makeRoot, ok } from '../support/fakes'
import { buildMarker } from '../support/mapBuilders'

describe('api client (SPEC 7 and 8)', () => {
  it('tells a caller that paces its requests of a page’s data as sent, before the page is decoded, and of no failed call', async () => {
    const list = [buildMarker({ id: 5 }), buildMarker({ id: 6, name: '二号' })]
    const { root } = makeRoot({
      '/api/marker/getlist': () => ok({ list, total: 2 }),
      '/api/group/info': () => fail(1500, '不行'),
    })
    const told: unknown[] = []
    let decoded = false
    const page = root.api
      .request('/api/marker/getlist', { layer_ids: [1], pageindex: 1, pagesize: 5000, format: 'columns' }, { answered: (data) => told.push({ data, decoded }) })
      .then((res) => ((decoded = true), res))
    expect(await page).toEqual({ list, total: 2 })
    // Told of the columns as sent, with their total, while the markers were still to be made from them.
    expect(told).toEqual([{ data: expect.objectContaining({ v: 1, n: 2, total: 2 }), decoded: false }])
    const failed: unknown[] = []
    await root.api.post('/api/group/info', {}, { answered: (data) => failed.push(data) })
    expect(failed).toEqual([])
  })

  it('posts JSON to <base><path> with the header object beside the fields', async () => {
    const { root, calls } = makeRoot({ '/api/system/get/config': () => ok({ id: 1 }) })
    await root.api.post('/api/system/get/config', { no_check_permission: true })
    expect(calls[0].path).toBe('/api/system/get/config')
    expect(calls[0].body).toEqual({
      no_check_permission: true,
      header: { userid: '', groupid: '', token: '', device: 'app_h5', os: 'android' },
    })
  })

  it('sends the signed-in user, group and token in the header', async () => {
    const { root, calls } = makeRoot({ '/api/user/login': () => ok(buildLogin()), '/api/group/info': () => ok({ id: 3 }) })
    await root.session.login('13800138000', '123456')
    await root.api.post('/api/group/info', {})
    expect(calls[1].body.header).toMatchObject({ userid: 7, groupid: 3, token: 'tok-7', device: 'app_h5' })
  })

  it('unwraps data on errcode 0', async () => {
    const { root } = makeRoot({ '/api/user/exist/phone': () => ok({ exist: true }) })
    await expect(root.api.post('/api/user/exist/phone', { phone: '13800138000' })).resolves.toEqual({ exist: true })
  })

  it('shows a danger notice with errmsg and yields nothing when errcode is not 0', async () => {
    const { root } = makeRoot({ '/api/user/exist/phone': () => fail(1001, '请输入正确的手机号') })
    await expect(root.api.post('/api/user/exist/phone', { phone: 'x' })).resolves.toBeUndefined()
    expect(root.app.currentNotice).toMatchObject({ type: 'danger', text: '请输入正确的手机号' })
  })

  it("says 'Error' when the server gives no errmsg", async () => {
    const { root } = makeRoot({ '/api/user/exist/phone': () => fail(1500, '') })
    await root.api.post('/api/user/exist/phone', { phone: 'x' })
    expect(root.app.currentNotice?.text).toBe('Error')
  })

  it('on HTTP 401 warns that the user was logged out, logs out and goes to login', async () => {
    const { root, navigations, storage } = makeRoot({
      '/api/user/login': () => ok(buildLogin()),
      '/api/group/info': () => ({ status: 401, data: { header: { errcode: 401, errmsg: 'x' }, data: null } }),
    })
    await root.session.login('13800138000', '123456')
    expect(storage.get('user_info')).not.toBeNull()
    await expect(root.api.post('/api/group/info', {})).resolves.toBeUndefined()
    expect(root.app.currentNotice).toMatchObject({ type: 'warning', text: MSG.loggedOut })
    expect(root.session.user).toBeNull()
    expect(storage.get('user_info')).toBeNull()
    expect(navigations.at(-1)).toEqual({ path: '/login', mode: 'relaunch' })
  })

  it('says 系统错误 for any other HTTP status', async () => {
    const { root } = makeRoot({ '/api/group/info': () => ({ status: 502, data: 'bad gateway' }) })
    await expect(root.api.request('/api/group/info', {})).rejects.toMatchObject({ kind: 'http', status: 502 })
    expect(root.app.currentNotice?.text).toBe(MSG.systemError)
  })

  it('says 网络错误 when the request cannot be sent', async () => {
    const { root } = makeRoot({
      '/api/group/info': () => {
        throw new Error('request:fail')
      },
    })
    const err = await root.api.request('/api/group/info', {}).catch((e) => e)
    expect(err).toBeInstanceOf(ApiError)
    expect(err.kind).toBe('network')
    expect(root.app.currentNotice?.text).toBe(MSG.networkError)
  })

  it('drives the loading indicator for every call and releases it on failure', async () => {
    let release: (v: any) => void = () => undefined
    const { root } = makeRoot({ '/api/group/info': () => new Promise((r) => (release = r)) })
    const pending = root.api.post('/api/group/info', {})
    expect(root.app.show_loading).toBe(true)
    release({ status: 500, data: '' })
    await pending
    expect(root.app.show_loading).toBe(false)
  })
})

describe('error codes restated for the app bundles', () => {
  it('match the server enum', () => {
    for (const [k, v] of Object.entries(ERRCODE)) expect(ErrCode[k as keyof typeof ErrCode]).toBe(v)
  })
})

describe('a save refused as stale (types/sync.ts)', () => {
  const current = { id: 5, name: '对方改的', rev: 3 }

  it('throws an ApiError for CONFLICT that carries the current entity from the envelope', async () => {
    const { root } = makeRoot({ '/api/marker/delete': () => ({ status: 200, data: { header: { errcode: ERRCODE.CONFLICT, errmsg: '数据已被他人修改' }, data: current } }) })
    const err = await root.api.request('/api/marker/delete', { id: 5, rev: 2 }, { quiet: true }).catch((e) => e)
    expect(err).toBeInstanceOf(ApiError)
    expect(err.errcode).toBe(1006)
    expect(err.errcode).toBe(ERRCODE.CONFLICT)
    expect(err.data).toEqual(current)
  })

  it('carries null when the entity was deleted', async () => {
    const { root } = makeRoot({ '/api/marker/delete': () => ({ status: 200, data: { header: { errcode: ERRCODE.CONFLICT, errmsg: '已删除' }, data: null } }) })
    const err = await root.api.request('/api/marker/delete', { id: 5, rev: 2 }, { quiet: true }).catch((e) => e)
    expect(err.errcode).toBe(ERRCODE.CONFLICT)
    expect(err.data).toBeNull()
  })

  it('is no conflict for another business error', async () => {
    const { root } = makeRoot({ '/api/marker/delete': () => fail(1003, '没有权限') })
    const err = await root.api.request('/api/marker/delete', { id: 5 }, { quiet: true }).catch((e) => e)
    expect(err.errcode).not.toBe(ERRCODE.CONFLICT)
  })
})
