/**
 * LocationStore (SPEC 4 location, SPEC 8 permission dialog, SPEC 9 polls): tracking starts
 * by itself only where access was granted, polls every 2 s, reports every 10th poll with the address
 * inside China, shows '权限错误' when refused, and stops at sign-out. Fake timers drive time.
 */
import { MAP_UI_MSG, MSG } from '../../src/domain/messages'
import { LocationError, type GeoPlatform, type Position } from '../../src/platform/location/types'
import { buildLogin, makeRoot, ok } from '../support/fakes'

const BEIJING: Position = { lng: 116.397, lat: 39.909, accuracy: 10 }

beforeEach(() => {
  jest.useFakeTimers()
})
afterEach(() => {
  jest.useRealTimers()
})

function setUp(geo: Partial<GeoPlatform>, signedIn = true) {
  const made = makeRoot({ '/api/user/login': () => ok(buildLogin()), '/api/user/location/save': () => ok(null), '/api/user/logout': () => ok(null) }, { geo })
  return {
    ...made,
    async start() {
      if (signedIn) expect(await made.root.session.login('13800138000', '123456')).toBe(true)
      made.root.groupRefresh.stop()
      made.calls.length = 0
    },
    saves: () => made.calls.filter((c) => c.path === '/api/user/location/save').map((c) => ({ lng: c.body.lng, lat: c.body.lat, addr: c.body.addr })),
  }
}

describe('LocationStore', () => {
  it('does not ask for the position on entry when access was never granted', async () => {
    const locate = jest.fn(async () => BEIJING)
    const t = setUp({ locate, permissionGranted: async () => null })
    await t.start()
    await t.root.tracker.resume()
    await jest.advanceTimersByTimeAsync(10_000)
    expect(locate).not.toHaveBeenCalled()
    expect(t.root.tracker.running).toBe(false)
    expect(t.root.app.uni_location_permission).toEqual({ is_request: false, allowed: false })
  })

  it('tracks where access was granted: every 2 s the self-location moves, every 10th poll the position is reported with its address', async () => {
    let n = 0
    const locate = jest.fn(async () => ({ ...BEIJING, lng: BEIJING.lng + ++n / 1000 }))
    const reverseGeocode = jest.fn(async () => '北京市东城区东华门街道')
    const t = setUp({ locate, reverseGeocode, permissionGranted: async () => true })
    await t.start()
    await t.root.tracker.resume()
    expect(locate).toHaveBeenCalledTimes(1)
    expect(t.root.app.self_location?.lng).toBeCloseTo(116.398)
    expect(t.root.app.uni_location_permission).toEqual({ is_request: true, allowed: true })
    await jest.advanceTimersByTimeAsync(1999)
    expect(locate).toHaveBeenCalledTimes(1)
    await jest.advanceTimersByTimeAsync(1)
    expect(locate).toHaveBeenCalledTimes(2)
    expect(t.saves()).toEqual([])
    // Polls 3-10: the 10th reports with the address (18 s after the first).
    await jest.advanceTimersByTimeAsync(8 * 2000)
    expect(locate).toHaveBeenCalledTimes(10)
    expect(reverseGeocode).toHaveBeenCalledTimes(1)
    expect(t.saves()).toEqual([{ lng: expect.closeTo(116.407, 5), lat: BEIJING.lat, addr: '北京市东城区东华门街道' }])
    await jest.advanceTimersByTimeAsync(10 * 2000)
    expect(t.saves()).toHaveLength(2)
  })

  it('reports without geocoding outside China, and reports nothing while signed out', async () => {
    const reverseGeocode = jest.fn(async () => 'somewhere')
    const paris = setUp({ locate: async () => ({ lng: 2.35, lat: 48.86, accuracy: 5 }), reverseGeocode, permissionGranted: async () => true })
    await paris.start()
    await paris.root.tracker.resume()
    await jest.advanceTimersByTimeAsync(9 * 2000)
    expect(paris.saves()).toEqual([{ lng: 2.35, lat: 48.86, addr: '' }])
    expect(reverseGeocode).not.toHaveBeenCalled()

    const anon = setUp({ locate: async () => BEIJING, permissionGranted: async () => true }, false)
    await anon.start()
    await anon.root.tracker.resume()
    await jest.advanceTimersByTimeAsync(20 * 2000)
    expect(anon.root.tracker.polls).toBeGreaterThanOrEqual(20)
    expect(anon.saves()).toEqual([])
  })

  it('a geocoder that cannot load says SPEC 8 map message once, and the position is still reported', async () => {
    const t = setUp({ locate: async () => BEIJING, reverseGeocode: async () => Promise.reject(new Error('load failed')), permissionGranted: async () => true })
    await t.start()
    const notify = jest.spyOn(t.root.app, 'notify')
    await t.root.tracker.resume()
    await jest.advanceTimersByTimeAsync(19 * 2000)
    expect(t.saves()).toEqual([
      { lng: BEIJING.lng, lat: BEIJING.lat, addr: '' },
      { lng: BEIJING.lng, lat: BEIJING.lat, addr: '' },
    ])
    expect(notify.mock.calls.filter(([text]) => text === MSG.mapInitError)).toEqual([[MSG.mapInitError, 'danger']])
  })

  it('a refusal on the locate control shows 权限错误; authorise opens the setting or says where it is', async () => {
    const openAuthSetting = jest.fn(async () => false)
    const t = setUp({ locate: async () => Promise.reject(new LocationError('denied')), openAuthSetting })
    await t.start()
    expect(await t.root.tracker.locateNow()).toBeNull()
    expect(t.root.tracker.showPermissionDialog).toBe(true)
    expect(t.root.tracker.running).toBe(false)
    expect(t.root.app.uni_location_permission).toEqual({ is_request: true, allowed: false })
    await t.root.tracker.openSetting()
    expect(openAuthSetting).toHaveBeenCalledTimes(1)
    expect(t.root.tracker.showPermissionDialog).toBe(false)
    expect(t.root.app.notices.at(-1)?.text).toBe(MAP_UI_MSG.locationSettingHint)
  })

  it('a position the device cannot find says so on the locate control, and the next poll tries again', async () => {
    let fail = true
    const t = setUp({ locate: async () => (fail ? Promise.reject(new LocationError('unavailable')) : BEIJING) })
    await t.start()
    expect(await t.root.tracker.locateNow()).toBeNull()
    expect(t.root.app.notices.at(-1)?.text).toBe(MAP_UI_MSG.locateFailed)
    expect(t.root.tracker.showPermissionDialog).toBe(false)
    fail = false
    expect(await t.root.tracker.locateNow()).toEqual(BEIJING)
    expect(t.root.tracker.running).toBe(true)
  })

  it('the locate control starts tracking, and signing out stops it', async () => {
    const locate = jest.fn(async () => BEIJING)
    const t = setUp({ locate })
    await t.start()
    await t.root.tracker.locateNow()
    await jest.advanceTimersByTimeAsync(4000)
    expect(locate).toHaveBeenCalledTimes(3)
    await t.root.session.logout()
    expect(t.root.tracker.running).toBe(false)
    await jest.advanceTimersByTimeAsync(10_000)
    expect(locate).toHaveBeenCalledTimes(3)
  })

  it("a tap while a background poll is under way gets that poll's position (not nothing)", async () => {
    let answer: ((p: Position) => void) | null = null
    const locate = jest.fn(() => new Promise<Position>((done) => (answer = done)))
    const t = setUp({ locate, permissionGranted: async () => true })
    await t.start()
    const background = t.root.tracker.resume()
    const tapped = t.root.tracker.locateNow()
    expect(locate).toHaveBeenCalledTimes(1)
    answer!(BEIJING)
    await background
    expect(await tapped).toEqual(BEIJING)
    expect(locate).toHaveBeenCalledTimes(1)
  })
})
