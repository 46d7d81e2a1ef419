import { APP_MSG } from '../../src/domain/appMessages'
import { NICKNAME_MAX } from '../../src/domain/constants'
import { MSG } from '../../src/domain/messages'
import { FILE_URL_MSG } from '../../src/domain/systemMessages'
import { decryptJson } from '../../src/domain/secure'
import { CLEARED_ON_LOGOUT, STORAGE_KEYS } from '../../src/stores/storageKeys'
import { buildUser, fail, makeRoot, ok } from '../support/fakes'
import { signedInRoot } from '../support/mapBuilders'

/** An avatar's URL as the upload call gives it. */
const AVATAR = '/files/3/0123456789abcdef0123456789abcdef.png'

describe('settings preferences', () => {
  it('start from the defaults: counts as the system config says, areas in square metres', () => {
    const { root } = makeRoot()
    expect(root.app.show_cluster_count).toBeNull()
    expect(root.app.clusterCountShown).toBe(true)
    expect(root.app.area_unit).toBe('m2')
  })

  it('let the user override the system config on cluster counts, both ways', async () => {
    const { root } = makeRoot({ '/api/system/get/config': () => ok({ show_marker_cluster_count: false }) })
    await root.app.loadConfig()
    expect(root.app.clusterCountShown).toBe(false)
    root.app.setClusterCountShown(true)
    expect(root.app.clusterCountShown).toBe(true)
    root.app.setClusterCountShown(false)
    expect(root.app.show_cluster_count).toBe(false)
    expect(root.app.clusterCountShown).toBe(false)
  })

  it('persist with the other base settings across a new RootStore on the same storage', async () => {
    const first = await signedInRoot()
    first.root.app.setClusterCountShown(false)
    first.root.app.setAreaUnit('mu')
    first.root.app.setMapStyle('poi', false)
    const saved = JSON.parse(first.storage.get(STORAGE_KEYS.baseSetting)!)
    expect(saved).toMatchObject({ show_cluster_count: false, area_unit: 'mu', map_style: { poi: false } })

    const again = makeRoot({}, { storage: first.storage.dump() })
    expect(again.root.app.show_cluster_count).toBe(false)
    expect(again.root.app.clusterCountShown).toBe(false)
    expect(again.root.app.area_unit).toBe('mu')
    expect(again.root.app.map_style.poi).toBe(false)
  })

  it('ignore stored values of the wrong kind, and an unknown unit', () => {
    const { root } = makeRoot({}, { storage: { [STORAGE_KEYS.baseSetting]: JSON.stringify({ show_cluster_count: 'no', area_unit: 'acre' }) } })
    expect(root.app.show_cluster_count).toBeNull()
    expect(root.app.area_unit).toBe('m2')
    root.app.setAreaUnit('acre' as never)
    expect(root.app.area_unit).toBe('m2')
  })

  it('are cleared at logout like the other base settings', async () => {
    expect(CLEARED_ON_LOGOUT).toContain(STORAGE_KEYS.baseSetting)
    const { root, storage } = await signedInRoot()
    root.app.setClusterCountShown(false)
    root.app.setAreaUnit('ha')
    await root.session.logout()
    expect(storage.get(STORAGE_KEYS.baseSetting)).toBeNull()
    expect(root.app.show_cluster_count).toBeNull()
    expect(root.app.area_unit).toBe('m2')
    const again = makeRoot({}, { storage: storage.dump() })
    expect(again.root.app.area_unit).toBe('m2')
    expect(again.root.app.show_cluster_count).toBeNull()
  })
})

describe('the tile source (地图样式 → 底图来源)', () => {
  it('starts from the build tiles, switches at once and is remembered on this device', () => {
    const first = makeRoot()
    expect(first.root.app.tile_source).toBe('osm')
    first.root.app.setTileSource('amap')
    expect(first.root.app.tile_source).toBe('amap')
    expect(makeRoot({}, { storage: first.storage.dump() }).root.app.tile_source).toBe('amap')
  })

  it("stays after logout: it follows the device's network, not the user", async () => {
    expect(CLEARED_ON_LOGOUT).not.toContain(STORAGE_KEYS.tileSource)
    const { root, storage } = await signedInRoot()
    root.app.setTileSource('none')
    await root.session.logout()
    expect(makeRoot({}, { storage: storage.dump() }).root.app.tile_source).toBe('none')
  })

  it('ignores an unknown source, stored or asked for', () => {
    const { root } = makeRoot({}, { storage: { [STORAGE_KEYS.tileSource]: 'google' } })
    expect(root.app.tile_source).toBe('osm')
    root.app.setTileSource('google' as never)
    expect(root.app.tile_source).toBe('osm')
  })
})

describe('SessionStore.saveProfile (/myinfo, /api/user/save)', () => {
  it.each([
    ['an empty nickname', '', MSG.nicknameRequired],
    ['a blank nickname', '   ', MSG.nicknameRequired],
    ['a nickname over the limit', '字'.repeat(NICKNAME_MAX + 1), MSG.nicknameTooLong(NICKNAME_MAX)],
  ])('refuses %s with a clear message and calls nothing', async (_label, nickname, message) => {
    const { root, calls, storage } = await signedInRoot()
    const stored = storage.get(STORAGE_KEYS.userInfo)
    expect(await root.session.saveProfile({ nickname, avatar: '/files/3/0123456789abcdef0123456789abcdef.png' })).toBe(false)
    expect(root.app.currentNotice).toMatchObject({ type: 'warning', text: message })
    expect(calls).toHaveLength(0)
    expect(root.session.user?.nickname).toBe('小王')
    expect(root.session.user?.avatar).toBe('')
    expect(storage.get(STORAGE_KEYS.userInfo)).toBe(stored)
  })

  it('saves a trimmed nickname and makes the answer the session user, token kept and stored', async () => {
    const { root, calls, storage } = await signedInRoot({
      '/api/user/save': (body) => ok(buildUser({ nickname: body.nickname, token: '' })),
    })
    expect(await root.session.saveProfile({ nickname: '  小李  ' })).toBe(true)
    expect(calls).toHaveLength(1)
    expect(calls[0].path).toBe('/api/user/save')
    expect(calls[0].body).toMatchObject({ nickname: '小李' })
    expect(calls[0].body).not.toHaveProperty('avatar')
    expect(root.session.user).toMatchObject({ nickname: '小李', token: 'tok-7' })
    expect(root.app.currentNotice).toMatchObject({ type: 'success', text: APP_MSG.profileSaved })
    expect(decryptJson<any>(storage.get(STORAGE_KEYS.userInfo)).user).toMatchObject({ nickname: '小李', token: 'tok-7' })
    const again = makeRoot({}, { storage: storage.dump() })
    expect(again.root.session.user?.nickname).toBe('小李')
  })

  it('saves an avatar alone, without checking or sending the nickname', async () => {
    const { root, calls } = await signedInRoot({
      '/api/user/save': (body) => ok(buildUser({ avatar: body.avatar })),
    })
    expect(await root.session.saveProfile({ avatar: AVATAR })).toBe(true)
    expect(calls[0].body).toMatchObject({ avatar: AVATAR })
    expect(calls[0].body).not.toHaveProperty('nickname')
    expect(root.session.user?.avatar).toBe(AVATAR)
  })

  it.each(['https://tracker.example.com/p.gif', 'javascript:alert(1)', '/files/3/abc.png'])('refuses %s as the avatar before calling the server', async (avatar) => {
    const { root, calls } = await signedInRoot()
    expect(await root.session.saveProfile({ avatar })).toBe(false)
    expect(root.app.currentNotice).toMatchObject({ type: 'warning', text: FILE_URL_MSG.avatar })
    expect(calls).toHaveLength(0)
  })

  it('changes nothing when the server refuses, and shows its message', async () => {
    const { root, storage } = await signedInRoot({ '/api/user/save': () => fail(1001, '昵称包含敏感词') })
    const stored = storage.get(STORAGE_KEYS.userInfo)
    expect(await root.session.saveProfile({ nickname: '小李' })).toBe(false)
    expect(root.app.currentNotice).toMatchObject({ type: 'danger', text: '昵称包含敏感词' })
    expect(root.session.user?.nickname).toBe('小王')
    expect(storage.get(STORAGE_KEYS.userInfo)).toBe(stored)
  })

  it('sends nothing for an empty patch or without a session', async () => {
    const signedIn = await signedInRoot()
    expect(await signedIn.root.session.saveProfile({})).toBe(false)
    expect(signedIn.calls).toHaveLength(0)
    const anonymous = makeRoot()
    expect(await anonymous.root.session.saveProfile({ nickname: '小李' })).toBe(false)
    expect(anonymous.calls).toHaveLength(0)
  })
})
