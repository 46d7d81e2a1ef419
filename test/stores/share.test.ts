import { ErrCode } from '../../types/api'
import type { ShareMeta } from '../../types/share'
import { SHARE_BTN } from '../../src/domain/constants'
import { shanghaiDate } from '../../src/domain/share'
import { forwardFrom } from '../../src/stores/createdShare'
import { fail, makeRoot, ok } from '../support/fakes'
import { buildLayer, buildMarker, signedInRoot } from '../support/mapBuilders'

const shareable = buildLayer({ id: 5, name: '客户', type: 1, manager: false, layer_opts: ['layer_share'] })
const notShareable = buildLayer({ id: 6, name: '仓库', type: 1, manager: false, layer_opts: ['marker_add'] })
const folder = buildLayer({ id: 1, name: '外业', type: 0, manager: false, layer_opts: ['layer_share'] })

describe('ShareStore: the share dialog (SPEC 5)', () => {
  async function withLayers(handlers: Record<string, (b: any) => any> = {}) {
    const made = await signedInRoot({ '/api/layer/getlist': () => ok([folder, shareable, notShareable]), ...handlers }, { admin: false })
    await made.root.layers.load()
    made.calls.length = 0
    return made
  }

  it('offers only type 1+ layers the user may share (SPEC 6: the share permission)', async () => {
    const { root } = await withLayers()
    expect(root.shares.shareableLayers.map((l) => l.name)).toEqual(['客户'])
  })

  it('opens with the default name and mask, and picking layers keeps only shareable ones', async () => {
    const { root } = await withLayers()
    root.shares.open(1)
    expect(root.shares.form).toMatchObject({ name: '图层_分享', show_btn: 60, data_ids: [] })
    root.shares.pickLayers([1, 5, 6])
    expect(root.shares.form?.data_ids).toEqual([5])
    expect(root.shares.form?.name).toBe('客户_图层_分享')
  })

  it('refuses an empty selection, a missing password and a missing expiry with SPEC 5 messages, calling nothing', async () => {
    const { root, calls } = await withLayers()
    root.shares.open(1)
    expect(await root.shares.submit()).toBe(false)
    expect(root.app.notices.at(-1)?.text).toBe('请选择要分享的数据')
    root.shares.pickLayers([5])
    root.shares.setPwdSwitch(true)
    expect(await root.shares.submit()).toBe(false)
    expect(root.app.notices.at(-1)?.text).toBe('请输入分享密码')
    root.shares.setPwd('1234')
    root.shares.setExpSwitch(true)
    expect(await root.shares.submit()).toBe(false)
    expect(root.app.notices.at(-1)?.text).toBe('请设置过期时间')
    root.shares.setName('')
    expect(await root.shares.submit()).toBe(false)
    expect(root.app.notices.at(-1)?.text).toBe('请填写分享名称')
    expect(calls).toHaveLength(0)
  })

  it('takes 请设置过期时间 away once a date is set, so it never shows beside 分享成功', async () => {
    const { root } = await withLayers({ '/api/share/save': () => ok('AbCdEfGhIj123456') })
    root.shares.open(1, [5], '客户')
    root.shares.setExpSwitch(true)
    expect(await root.shares.submit()).toBe(false)
    expect(root.app.currentNotice?.text).toBe('请设置过期时间')
    root.shares.setName('客户分享')
    expect(root.app.currentNotice?.text).toBe('请设置过期时间')
    root.shares.setExp(shanghaiDate(new Date()))
    expect(root.app.currentNotice).toBeNull()
    // Closing the dialog takes the notice of its form away too.
    root.shares.setExp(null)
    expect(await root.shares.submit()).toBe(false)
    expect(root.app.currentNotice?.text).toBe('请设置过期时间')
    root.shares.close()
    expect(root.app.currentNotice).toBeNull()
  })

  it('opens the expiry picker a week ahead, or on the date already chosen', async () => {
    const { root } = await withLayers()
    root.shares.open(1, [5], '客户')
    root.shares.setExpSwitch(true)
    // 2026-03-01 20:00 UTC is already 2 March in Asia/Shanghai.
    const now = new Date('2026-03-01T20:00:00Z')
    expect(root.shares.expPickerDate(now)).toBe('2026-03-09')
    expect(root.shares.expPickerDate(new Date('2026-12-28T00:00:00Z'))).toBe('2027-01-04')
    root.shares.setExp('2026-05-20')
    expect(root.shares.expPickerDate(now)).toBe('2026-05-20')
    root.shares.setExp(null)
    expect(root.shares.expPickerDate(now)).toBe('2026-03-09')
  })

  it('switching the password off clears it; cancelling the date clears it', async () => {
    const { root } = await withLayers()
    root.shares.open(1, [5], '客户')
    root.shares.setPwdSwitch(true)
    root.shares.setPwd('1234')
    root.shares.setPwdSwitch(false)
    expect(root.shares.form?.pwd).toBe('')
    root.shares.setExpSwitch(true)
    root.shares.setExp('2099-01-01')
    root.shares.setExp(null)
    expect(root.shares.form?.exp).toBe('')
  })

  it('saves, shows the link and resets the form; flag 64 attaches the current map style', async () => {
    const { root, calls } = await withLayers({ '/api/share/save': () => ok('AbCdEfGhIj123456') })
    root.shares.open(1, [5], '客户')
    root.shares.setFlag(SHARE_BTN.MAP_STYLE, true)
    root.shares.setExpSwitch(true)
    root.shares.setExp(shanghaiDate(new Date()))
    expect(await root.shares.submit()).toBe(true)
    expect(calls[0].body).toMatchObject({ type: 1, data_ids: [5], show_btn: 124, need_pwd: false, exp: shanghaiDate(new Date()) })
    expect(calls[0].body.style).toMatchObject({ bg: true, road: true })
    expect(root.shares.createdLink).toBe('https://map.test/share/view?id=AbCdEfGhIj123456')
    expect(root.shares.form).toBeNull()
    expect(await root.shares.copy(root.shares.createdLink!)).toBe(true)
    expect(root.app.notices.at(-1)?.text).toBe('复制成功')
  })

  it("the share just made is what the dialog's 发给微信好友 forwards, with its card picture, until the dialog closes", async () => {
    const { root } = await withLayers({ '/api/share/save': () => ok('NewShareId123456') })
    root.shares.open(1, [5], '客户')
    root.shares.setName('网点分享')
    expect(await root.shares.submit()).toBe(true)
    expect(forwardFrom('button')).toEqual({
      title: '网点分享',
      path: '/pages/share/view/index?id=NewShareId123456',
      query: 'id=NewShareId123456',
      imageUrl: 'https://map.test/api/share/card/NewShareId123456.png',
    })
    // The ··· menu forwards the app, not the share.
    expect(forwardFrom('menu')).toEqual({ title: '团队地图', path: '/pages/map/index' })
    root.shares.dismissCreated()
    expect(forwardFrom('button')).toEqual({ title: '团队地图', path: '/pages/map/index' })
  })

  it('a member lists only their own shares; deleting removes one from the list', async () => {
    const share = {
      id: 'AbCdEfGhIj123456',
      name: 's',
      show_btn: 60,
      need_pwd: false,
      exp: null,
      expired: false,
      data_ids: [5],
      type: 1,
      style: null,
      addtime: '2026-11-23T00:00:00Z',
      op_user: { id: 7, nickname: '小王' },
      group_id: 3,
    }
    const { root, calls } = await withLayers({ '/api/share/getlist/group': () => ok({ list: [share], total: 1 }), '/api/share/delete': () => ok(null) })
    await root.shares.load(1)
    expect(calls[0].body).toMatchObject({ op_userid: 7, pageindex: 1 })
    expect(await root.shares.remove(share.id)).toBe(true)
    expect(root.shares.list).toEqual([])
  })
})

describe('ShareViewStore: the public share view', () => {
  const meta: ShareMeta = {
    id: 'AbCdEfGhIj123456',
    name: '客户分布',
    type: 1,
    show_btn: 60,
    need_pwd: true,
    exp: null,
    expired: false,
    style: null,
    group_name: '工程队',
    op_user: { nickname: '小王' },
  }
  const layer = { id: 5, name: '客户', type: 1 as const, parent_id: 0, sort: 0, title_style: null }
  const markers = [buildMarker({ id: 1, layer_id: 5, name: '张三门店' }), buildMarker({ id: 2, layer_id: 5, name: '李四仓库' })]

  it('asks for the password, refuses a wrong one with the server message, then loads with the proof', async () => {
    const { root, calls } = makeRoot(
      {
        '/api/share/getbyid': () => ok(meta),
        '/api/share/check/pwd': (b) => (b.pwd === '1234' ? ok({ proof: 'p1', expires_at: new Date(Date.now() + 3600_000).toISOString() }) : fail(ErrCode.VALIDATION, '分享密码错误')),
        '/api/layer/get/share': () => ok([layer]),
        '/api/marker/get/share': () => ok({ list: markers, total: 2 }),
      },
      { path: '/share/view' },
    )
    await root.shareView.open(meta.id)
    expect(root.shareView.state).toBe('password')
    expect(await root.shareView.checkPassword('0000')).toBe(false)
    expect(root.shareView.error).toBe('分享密码错误')
    expect(await root.shareView.checkPassword('1234')).toBe(true)
    expect(root.shareView.state).toBe('ready')
    expect(root.shareView.markers).toHaveLength(2)
    expect(calls.find((c) => c.path === '/api/marker/get/share')?.body).toMatchObject({ share_id: meta.id, proof: 'p1' })
    // The mask: toolbox, refresh, toggle title and locate; no search, titles off at first.
    expect(root.shareView.flag(SHARE_BTN.SEARCH)).toBe(false)
    expect(root.shareView.flag(SHARE_BTN.REFRESH)).toBe(true)
    expect(root.shareView.titlesOn).toBe(false)
  })

  it('forwards a share with its card picture, and offers Moments only for a public share', async () => {
    const handlers = (need_pwd: boolean) => ({
      '/api/share/getbyid': () => ok({ ...meta, need_pwd }),
      '/api/layer/get/share': () => ok([layer]),
      '/api/marker/get/share': () => ok({ list: markers, total: 2 }),
    })
    const open = makeRoot(handlers(false))
    await open.root.shareView.open(meta.id)
    expect(open.root.shareView.forward).toEqual({
      title: '客户分布',
      path: `/pages/share/view/index?id=${meta.id}`,
      query: `id=${meta.id}`,
      imageUrl: `https://map.test/api/share/card/${meta.id}.png`,
    })
    expect(open.timeline).toEqual([true])
    const locked = makeRoot(handlers(true))
    await locked.root.shareView.open(meta.id)
    expect(locked.timeline).toEqual([false])
    // The card of a password share shows a lock, never its data (the server draws it so): forwarding it is fine.
    expect(locked.root.shareView.forward.imageUrl).toBe(`https://map.test/api/share/card/${meta.id}.png`)
  })

  it('keeps the proof on the phone: opening the link again needs no password', async () => {
    const handlers = {
      '/api/share/getbyid': () => ok(meta),
      '/api/share/check/pwd': () => ok({ proof: 'p1', expires_at: new Date(Date.now() + 3600_000).toISOString() }),
      '/api/layer/get/share': () => ok([layer]),
      '/api/marker/get/share': () => ok({ list: markers, total: 2 }),
    }
    const first = makeRoot(handlers)
    await first.root.shareView.open(meta.id)
    await first.root.shareView.checkPassword('1234')
    const again = makeRoot(handlers, { storage: first.storage.dump() })
    await again.root.shareView.open(meta.id)
    expect(again.root.shareView.state).toBe('ready')
  })

  it('a route share (type 3) draws each shared route as a line through its stops, in order, with the stop markers', async () => {
    const route = {
      id: 9,
      name: '早班巡店',
      mode: 'driving',
      distance: 3900,
      duration: 600,
      legs: [],
      created_at: '',
      updated_at: '2026-11-23T08:00:00.000Z',
      stops: [
        { marker_id: 1, name: '张三门店', lng: 116.418, lat: 39.914 },
        { marker_id: null, name: '路口', lng: 116.411, lat: 39.917 },
        { marker_id: 2, name: '李四仓库', lng: 116.374, lat: 39.913 },
      ],
    }
    const { root, calls } = makeRoot({
      '/api/share/getbyid': () => ok({ ...meta, type: 3, show_btn: 172, need_pwd: false }),
      '/api/layer/get/share': () => ok([layer]),
      '/api/marker/get/share': () => ok({ list: markers, total: 2 }),
      '/api/route/get/share': () => ok([route]),
    })
    await root.shareView.open(meta.id)
    expect(root.shareView.state).toBe('ready')
    expect(calls.find((c) => c.path === '/api/route/get/share')?.body).toMatchObject({ share_id: meta.id })
    const line = root.shareView.markers.find((m) => m.name === '早班巡店')
    expect(line).toMatchObject({ type: 1, points: '116.418,39.914|116.411,39.917|116.374,39.913' })
    expect(root.shareView.markers.filter((m) => m.id < 1000)).toHaveLength(2)
  })

  it('shows a clear page for an expired or deleted share', async () => {
    const expired = makeRoot({ '/api/share/getbyid': () => fail(ErrCode.EXPIRED, '分享已过期') })
    await expired.root.shareView.open('x1234567890')
    expect(expired.root.shareView.state).toBe('expired')
    const gone = makeRoot({ '/api/share/getbyid': () => fail(ErrCode.NOT_FOUND, '分享不存在或已被删除') })
    await gone.root.shareView.open('x1234567890')
    expect(gone.root.shareView.state).toBe('missing')
    // No notice pops over the page: the page itself says it.
    expect(gone.root.app.notices).toHaveLength(0)
  })

  it('search narrows the drawn markers by name and layers can be hidden', async () => {
    const { root } = makeRoot({
      '/api/share/getbyid': () => ok({ ...meta, need_pwd: false, show_btn: 60 | SHARE_BTN.SEARCH }),
      '/api/layer/get/share': () => ok([layer]),
      '/api/marker/get/share': () => ok({ list: markers, total: 2 }),
    })
    await root.shareView.open(meta.id)
    root.shareView.setKeyword('张三')
    expect(root.shareView.visibleMarkers.map((m) => m.name)).toEqual(['张三门店'])
    root.shareView.setKeyword('')
    root.shareView.toggleLayer(5)
    expect(root.shareView.visibleMarkers).toEqual([])
  })
})
