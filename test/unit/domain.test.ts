import * as C from '../../src/domain/constants'
import { deviceKind, osOf } from '../../src/domain/device'
import { DEFAULT_CENTER, distanceMeters, gcj02ToWgs84, wgs84ToGcj02 } from '../../src/domain/geo'
import { MSG } from '../../src/domain/messages'
import { decryptJson, encryptJson } from '../../src/domain/secure'
import { formatStorage, isCustomMember, isVipExpired, membershipLabel, newTrial, vipDaysLeft } from '../../src/domain/tiers'
import { checkCode, checkNickname, checkPhone, maskPhone } from '../../src/domain/validate'

const ANDROID = 'Mozilla/5.0 (Linux; Android 13; Redmi Note 12) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36'
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1'
const DESKTOP = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36'
const WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36'

describe('SPEC 9 constants', () => {
  it('has the client and app versions and the map plugin version', () => {
    expect(C.CLIENT_VERSION).toBe(70)
    expect(C.APP_VERSION_STR).toBe('1.0.38')
    expect(C.DEFAULT_MAP_PLUGIN_VERSION).toBe('2.0')
  })
  it('has the marker and map limits', () => {
    expect(C.MARKER_PAGE_SIZE).toBe(5000)
    expect(C.MAX_VISIBLE_POINTS).toBe(200)
    expect(C.CLUSTER_MIN_ITEMS).toBe(20)
    expect(C.CLUSTER_OPTIONS).toEqual({ radius: 20, minPoints: 4, minZoom: 2, maxZoom: 22 })
    expect(C.HEATMAP_OPTIONS).toEqual({ radius: 25, opacity: [0, 0.8], max: 100 })
    expect([C.LOADING_DASHED_THRESHOLD, C.LOADING_SOLID_THRESHOLD, C.LOADING_DELAY_CAP_MS]).toEqual([10, 30, 10000])
  })
  it('has the marker defaults', () => {
    expect(C.DEFAULT_MARKER_COLOR).toBe('#165DFF')
    expect(C.DEFAULT_TITLE_FONT_SIZE).toBe(14)
    expect([C.DEFAULT_POINT_SIZE, C.DEFAULT_LINE_SIZE]).toEqual([32, 2])
  })
  it('has the default system config and map style', () => {
    expect(C.DEFAULT_SYSTEM_CONFIG).toMatchObject({ sign_radius: 300, show_phone: true, show_marker_cluster_count: true })
    expect(C.DEFAULT_MAP_STYLE).toEqual({ type: 0, bg: true, road: true, building: true, poi: true, traffic: false })
  })
  it('has the group VIP defaults and the trial', () => {
    expect(C.DEFAULT_GROUP_VIP).toEqual({ marker_limit: 5000, join_limit: 50, file_size_limit: 2097152 })
    expect([C.TRIAL_DAYS, C.TRIAL_QUESTIONNAIRE_DAYS]).toEqual([7, 30])
    expect(C.TRIAL_LIMITS).toEqual({ marker_limit: 300, join_limit: 5, file_size_limit: 300 * 1024 })
    expect(C.FREE_KEEP_RECORDS).toBe(20)
  })
  it('has the polls, notices and share limits', () => {
    expect([C.GROUP_REFRESH_MS, C.LOCATION_POLL_MS, C.HOST_MESSAGE_POLL_MS, C.PAYMENT_USERINFO_POLL_MS]).toEqual([10000, 2000, 1000, 3000])
    expect(C.GEOCODE_EVERY_N_POLLS * C.LOCATION_POLL_MS).toBe(20000)
    expect([C.PAYMENT_NOTICE_MS, C.REFRESH_NOTICE_DELAY_MS, C.NOTICE_BAR_MS]).toEqual([7000, 3000, 3000])
    expect([C.SHARE_NAME_MAX, C.SHARE_PWD_MAX, C.SHARE_BTN_DEFAULT, C.SHARE_BTN_ROUTE_DEFAULT]).toEqual([30, 6, 60, 172])
    expect(C.SHARE_BTN.TOOLBOX + C.SHARE_BTN.REFRESH + C.SHARE_BTN.TOGGLE_TITLE + C.SHARE_BTN.LOCATE).toBe(C.SHARE_BTN_DEFAULT)
    expect([C.PANEL_INITIAL_HEIGHT, C.PANEL_DRAG_STEP]).toEqual([200, 15])
  })
})

describe('SPEC 8 messages', () => {
  it('quotes the error catalogue exactly', () => {
    expect(MSG.loggedOut).toBe('您已退出登录，即将进入登录页面')
    expect(MSG.systemError).toBe('系统错误，请稍后再试')
    expect(MSG.networkError).toBe('网络错误，请检查设备网络')
    expect(MSG.mapInitError).toBe('地图初始化错误，请刷新页面重试')
    expect(MSG.copyOk).toBe('复制成功')
    expect(MSG.copyFailed).toBe('复制失败，请稍后再试')
    expect(MSG.mandatoryItem('地图')).toBe('地图必须授权，无法取消')
  })
})

describe('device kind', () => {
  it('treats phones as mobile', () => {
    expect(deviceKind(ANDROID)).toBe('mobile')
    expect(deviceKind(IPHONE)).toBe('mobile')
    expect(deviceKind('Mozilla/5.0 (Phone; OpenHarmony 4.0) ArkWeb/4.1.6.1 Mobile')).toBe('mobile')
  })
  it('treats desktop browsers as desktop and an empty or odd agent as unknown', () => {
    expect(deviceKind(DESKTOP)).toBe('desktop')
    expect(deviceKind(WINDOWS)).toBe('desktop')
    expect(deviceKind('')).toBe('unknown')
    expect(deviceKind('curl/8.0')).toBe('unknown')
  })
  it('names the OS for the request header', () => {
    expect(osOf(ANDROID)).toBe('android')
    expect(osOf(IPHONE)).toBe('ios')
  })
})

describe('input rules', () => {
  it('accepts mainland mobile numbers only', () => {
    expect(checkPhone('13800138000')).toBeNull()
    expect(checkPhone('19912345678')).toBeNull()
    expect(checkPhone('')).toBe(MSG.phoneRequired)
    expect(checkPhone('12800138000')).toBe(MSG.phoneInvalid)
    expect(checkPhone('1380013800')).toBe(MSG.phoneInvalid)
    expect(checkPhone('+8613800138000')).toBe(MSG.phoneInvalid)
  })
  it('wants a 6-digit code', () => {
    expect(checkCode('123456')).toBeNull()
    expect(checkCode('')).toBe(MSG.codeRequired)
    expect(checkCode('12345')).toBe(MSG.codeInvalidFormat)
    expect(checkCode('12345a')).toBe(MSG.codeInvalidFormat)
  })
  it('requires a nickname of at most 20 characters, counting emoji once', () => {
    expect(checkNickname('  ')).toBe(MSG.nicknameRequired)
    expect(checkNickname('小王')).toBeNull()
    expect(checkNickname('😀'.repeat(20))).toBeNull()
    expect(checkNickname('字'.repeat(21))).toBe(MSG.nicknameTooLong(20))
  })
  it('masks phone numbers', () => {
    expect(maskPhone('13800138000')).toBe('138****8000')
  })
})

describe('tiers', () => {
  const now = new Date('2026-11-22T04:00:00Z')
  it('starts a 7-day trial with 300 markers, 5 collaborators and 300 M', () => {
    const t = newTrial(now)
    expect(t).toMatchObject({ level: 1, marker_limit: 300, join_limit: 5, file_size_limit: 307200 })
    expect(t.vip_exp.getTime() - now.getTime()).toBe(7 * 24 * 3600 * 1000)
  })
  it('calls a VIP 3 group with non-default limits a custom member, unless all three are zero', () => {
    const base = { level: 4 as const, marker_limit: 5000, join_limit: 50, file_size_limit: 2097152 }
    expect(isCustomMember(base)).toBe(false)
    expect(isCustomMember({ ...base, marker_limit: 8000 })).toBe(true)
    expect(isCustomMember({ ...base, marker_limit: 0, join_limit: 0, file_size_limit: 0 })).toBe(false)
    expect(isCustomMember({ ...base, level: 3, marker_limit: 8000 })).toBe(false)
  })
  it('shows storage of 1048576 KB or more in G to 1 decimal, otherwise in M', () => {
    expect(formatStorage(1048576)).toBe('1.0G')
    expect(formatStorage(2097152)).toBe('2.0G')
    expect(formatStorage(1048575)).toBe('1024.0M')
    expect(formatStorage(307200)).toBe('300M')
  })
  it('knows when a membership has expired and how many days remain', () => {
    expect(isVipExpired(1, '2026-11-22T03:59:59Z', now)).toBe(true)
    expect(isVipExpired(1, '2026-11-29T04:00:00Z', now)).toBe(false)
    expect(isVipExpired(0, '2020-01-01T00:00:00Z', now)).toBe(false)
    expect(vipDaysLeft('2026-11-29T04:00:00Z', now)).toBe(7)
    expect(membershipLabel({ level: 1, group_vip_exp: '2026-11-29T04:00:00Z', nickname: '', phone: '', marker_limit: 300, join_limit: 5, file_size_limit: 307200 }, now)).toBe('试用版 · 剩余7天')
  })
})

describe('GCJ-02 and WGS-84', () => {
  it('round-trips a point in China to well under a metre', () => {
    const gcj = { lng: 121.4737, lat: 31.2304 }
    const back = wgs84ToGcj02(gcj02ToWgs84(gcj))
    expect(distanceMeters(gcj, back)).toBeLessThan(0.01)
  })
  it('shifts Chinese coordinates by a few hundred metres and leaves foreign ones alone', () => {
    const shift = distanceMeters(DEFAULT_CENTER, gcj02ToWgs84(DEFAULT_CENTER))
    expect(shift).toBeGreaterThan(100)
    expect(shift).toBeLessThan(1000)
    expect(gcj02ToWgs84({ lng: 2.35, lat: 48.85 })).toEqual({ lng: 2.35, lat: 48.85 })
  })
})

describe('local data encryption', () => {
  it('round-trips JSON and rejects tampered or foreign data', () => {
    const cipher = encryptJson({ id: 1, phone: '13800138000' })
    expect(cipher).not.toContain('13800138000')
    expect(decryptJson(cipher)).toEqual({ id: 1, phone: '13800138000' })
    expect(decryptJson('not-a-cipher')).toBeNull()
    expect(decryptJson(encryptJson({ a: 1 }, 'other-key'))).toBeNull()
  })
})
