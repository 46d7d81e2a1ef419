/**
 * Check-in rules (src/domain/sign.ts): "check in at the current position within the
 * group's sign radius (system_config.sign_radius, default 300 m) of a marker or a free location";
 * the point a target is measured to, the radius edge, the ticket's lifetime, the list's Shanghai
 * days, and the canonical strings the server signs (stable, unambiguous, every field counted).
 */
import type { SignTarget } from '../../types/signs'
import { DEFAULT_SYSTEM_CONFIG } from '../../src/domain/constants'
import { distanceMeters } from '../../src/domain/geo'
import { markerStopPoint } from '../../src/domain/routes'
import {
  SIGN_PHOTOS_MAX,
  SIGN_RADIUS_DEFAULT,
  SIGN_TICKET_TTL_S,
  checkSignDistance,
  checkSignPosition,
  isSignCode,
  isTicketExpired,
  markerSignPoint,
  shanghaiDayStartIso,
  signDistance,
  signRadius,
  signRecordCanonical,
  signTargetLabel,
  signTicketCanonical,
  signTimeRange,
  signVerifyLabel,
  taskPlacePoint,
  ticketExpiry,
  withinRadius,
  type SignRecordFields,
  type SignTicketFields,
} from '../../src/domain/sign'
import { SIGN_MSG } from '../../src/domain/signMessages'

const SHOP = { lng: 116.397428, lat: 39.90923 }
const MARKER: SignTarget = { kind: 'marker', marker_id: 7, task_id: null, name: '客户甲', lng: SHOP.lng, lat: SHOP.lat }
const FREE: SignTarget = { kind: 'free', marker_id: null, task_id: null, name: '', lng: null, lat: null }

/** A point `metres` due north of `p` (great circle: 1 degree of latitude is R * pi / 180). */
const north = (p: { lng: number; lat: number }, metres: number) => ({ lng: p.lng, lat: p.lat + (metres / 6371008.8) * (180 / Math.PI) })

describe('constants (SPEC 9 and the check-in rules)', () => {
  it('defaults the radius to system_config.sign_radius 300 m; a ticket lives 600 s; 9 photos at most', () => {
    expect(SIGN_RADIUS_DEFAULT).toBe(300)
    expect(SIGN_RADIUS_DEFAULT).toBe(DEFAULT_SYSTEM_CONFIG.sign_radius)
    expect(SIGN_TICKET_TTL_S).toBe(600)
    expect(SIGN_PHOTOS_MAX).toBe(9)
  })

  it('takes the configured radius when it is a positive number, the default otherwise', () => {
    expect(signRadius(500)).toBe(500)
    expect(signRadius(120.4)).toBe(120)
    for (const bad of [0, -5, NaN, Infinity, null, undefined, '500']) expect(signRadius(bad)).toBe(300)
  })
})

describe('distance and the radius', () => {
  it('measures great-circle metres rounded to 1 m', () => {
    const p = north(SHOP, 250.4)
    expect(signDistance(p, SHOP)).toBe(250)
    expect(signDistance(p, SHOP)).toBe(Math.round(distanceMeters(p, SHOP)))
    expect(signDistance(SHOP, SHOP)).toBe(0)
  })

  it('lets a position at exactly the radius in, and refuses one metre more with the distance and the radius', () => {
    expect(withinRadius(300, 300)).toBe(true)
    expect(withinRadius(301, 300)).toBe(false)
    expect(checkSignDistance(north(SHOP, 300), MARKER, 300)).toEqual({ ok: true, distance: 300 })
    expect(checkSignDistance(north(SHOP, 301), MARKER, 300)).toEqual({ ok: false, distance: 301, error: '当前位置距签到点301米，超出签到范围300米' })
    expect(checkSignDistance(north(SHOP, 301), MARKER, 301)).toEqual({ ok: true, distance: 301 })
  })

  it('has no distance and no limit for a free check-in (or a task with no place)', () => {
    expect(checkSignDistance({ lng: 121.47, lat: 31.23 }, FREE, 300)).toEqual({ ok: true, distance: null })
  })

  it('refuses a position that is not a real place', () => {
    expect(checkSignPosition(SHOP)).toBeNull()
    for (const p of [
      { lng: 0, lat: 39 },
      { lng: 116, lat: 0 },
      { lng: 181, lat: 39 },
      { lng: 116, lat: -91 },
      { lng: NaN, lat: 39 },
      { lng: 116, lat: Infinity },
    ]) {
      expect(checkSignPosition(p)).toBe(SIGN_MSG.positionInvalid)
    }
  })
})

describe('the point a target is measured to', () => {
  it("is a point's position, a circle's centre, and the centre of the bounds of a line or an area (as a route stop)", () => {
    expect(markerSignPoint(0, '116.397428,39.90923')).toEqual(SHOP)
    expect(markerSignPoint(5, '116.4,39.9')).toEqual({ lng: 116.4, lat: 39.9 })
    expect(markerSignPoint(1, '116.40,39.90|116.42,39.94|116.41,39.92')).toEqual({ lng: 116.41, lat: 39.92 })
    expect(markerSignPoint(3, '116.39,39.90|116.41,39.90|116.41,39.92|116.39,39.92')).toEqual({ lng: 116.4, lat: 39.91 })
    for (const [type, points] of [
      [1, '116.40,39.90|116.42,39.94'],
      [4, '116.1,39.1|116.3,39.4'],
      [6, '116,39|117,39|117,40;116.2,39.2|116.4,39.2|116.4,39.4'],
    ] as const) {
      expect(markerSignPoint(type, points)).toEqual(markerStopPoint(type, points))
    }
  })

  it('is none for geometry that does not parse or lies at 0', () => {
    expect(markerSignPoint(0, 'nonsense')).toBeNull()
    expect(markerSignPoint(0, '0,0')).toBeNull()
  })

  it("is a task's place when it has one that is a real place", () => {
    expect(taskPlacePoint({ place_lng: 116.4, place_lat: 39.9 })).toEqual({ lng: 116.4, lat: 39.9 })
    expect(taskPlacePoint({ place_lng: null, place_lat: null })).toBeNull()
    expect(taskPlacePoint({ place_lng: 0, place_lat: 0 })).toBeNull()
  })
})

describe('the ticket', () => {
  it('expires exactly SIGN_TICKET_TTL_S after its time', () => {
    const at = new Date('2025-06-01T02:00:00.000Z')
    const expires = ticketExpiry(at).toISOString()
    expect(expires).toBe('2025-06-01T02:10:00.000Z')
    expect(isTicketExpired(expires, new Date('2025-06-01T02:09:59.999Z'))).toBe(false)
    expect(isTicketExpired(expires, new Date('2025-06-01T02:10:00.000Z'))).toBe(true)
    expect(isTicketExpired('not a time', at)).toBe(true)
  })

  it('shows a code of 8 upper-case hex characters', () => {
    expect(isSignCode('0A1B2C3D')).toBe(true)
    for (const bad of ['0a1b2c3d', '0A1B2C3', '0A1B2C3D4', 'GGGGGGGG']) expect(isSignCode(bad)).toBe(false)
  })
})

describe('canonical strings the server signs', () => {
  const ticket: SignTicketFields = {
    nonce: 'n0nce-n0nce-n0nce-00',
    user_id: 12,
    group_id: 3,
    time: '2025-06-01T02:00:00.000Z',
    expires_at: '2025-06-01T02:10:00.000Z',
    lng: 116.397428,
    lat: 39.91123,
    target: MARKER,
    distance: 222,
    radius: 300,
  }
  const record: SignRecordFields = {
    group_id: 3,
    user_id: 12,
    nonce: ticket.nonce,
    code: '0A1B2C3D',
    time: ticket.time,
    lng: ticket.lng,
    lat: ticket.lat,
    addr: '北京市东城区',
    target: MARKER,
    distance: 222,
    radius: 300,
    photos: [{ url: '/files/3/0123456789abcdef0123456789abcdef.jpg', sha256: 'ab'.repeat(32) }],
    remark: '门店已巡查',
  }

  it('are stable: the same fields give exactly this text', () => {
    expect(signTicketCanonical(ticket)).toBe(
      '["sign-ticket",1,"n0nce-n0nce-n0nce-00",12,3,"2025-06-01T02:00:00.000Z","2025-06-01T02:10:00.000Z",116.397428,39.91123,"marker",7,null,"客户甲",116.397428,39.90923,222,300]',
    )
    expect(signRecordCanonical(record)).toBe(
      `["sign-record",1,3,12,"n0nce-n0nce-n0nce-00","0A1B2C3D","2025-06-01T02:00:00.000Z",116.397428,39.91123,"北京市东城区","marker",7,null,"客户甲",116.397428,39.90923,222,300,[["/files/3/0123456789abcdef0123456789abcdef.jpg","${'ab'.repeat(32)}"]],"门店已巡查"]`,
    )
    // Key order of the input does not matter.
    const reordered = Object.fromEntries(Object.entries(record).reverse()) as unknown as SignRecordFields
    expect(signRecordCanonical(reordered)).toBe(signRecordCanonical(record))
  })

  it('change when any signed field changes', () => {
    const base = signRecordCanonical(record)
    const changes: Partial<SignRecordFields>[] = [
      { group_id: 4 },
      { user_id: 13 },
      { nonce: 'other' },
      { code: '0A1B2C3E' },
      { time: '2025-06-01T02:00:01.000Z' },
      { lng: 116.3974281 },
      { lat: 39.9112301 },
      { addr: '北京市' },
      { target: { ...MARKER, name: '客户乙' } },
      { target: { ...MARKER, lng: 116.4 } },
      { target: { ...MARKER, kind: 'task', task_id: 7, marker_id: null } },
      { distance: 221 },
      { distance: null },
      { radius: 500 },
      { photos: [] },
      { photos: [{ ...record.photos[0], sha256: 'cd'.repeat(32) }] },
      { remark: '' },
    ]
    for (const change of changes) expect(signRecordCanonical({ ...record, ...change })).not.toBe(base)
    expect(signTicketCanonical({ ...ticket, distance: 0 })).not.toBe(signTicketCanonical(ticket))
    expect(signTicketCanonical({ ...ticket, expires_at: '2025-06-01T03:00:00.000Z' })).not.toBe(signTicketCanonical(ticket))
  })

  it('are unambiguous: a separator inside a text cannot shift one field into the next', () => {
    const a = signRecordCanonical({ ...record, addr: 'A","B', remark: '' })
    const b = signRecordCanonical({ ...record, addr: 'A', remark: 'B' })
    expect(a).not.toBe(b)
    expect(JSON.parse(a)[9]).toBe('A","B')
  })

  it('never make a ticket and a record alike', () => {
    expect(signTicketCanonical(ticket).startsWith('["sign-ticket"')).toBe(true)
    expect(signRecordCanonical(record).startsWith('["sign-record"')).toBe(true)
  })
})

describe('the list', () => {
  it('turns Shanghai calendar days into instants (UTC+8): from the start of date_from to before the day after date_to', () => {
    expect(shanghaiDayStartIso('2025-06-01')).toBe('2025-05-31T16:00:00.000Z')
    expect(signTimeRange('2025-06-01', '2025-06-01')).toEqual({ ok: true, from: '2025-05-31T16:00:00.000Z', before: '2025-06-01T16:00:00.000Z' })
    expect(signTimeRange('2025-12-31', '2025-12-31')).toEqual({ ok: true, from: '2025-12-30T16:00:00.000Z', before: '2025-12-31T16:00:00.000Z' })
    expect(signTimeRange(undefined, '2024-02-28')).toEqual({ ok: true, from: null, before: '2024-02-28T16:00:00.000Z' })
    expect(signTimeRange()).toEqual({ ok: true, from: null, before: null })
  })

  it('refuses days that do not exist and a range that ends before it starts', () => {
    for (const bad of ['2025-02-29', '2025-13-01', '2025-6-1', '20250601', 'today']) expect(signTimeRange(bad)).toEqual({ ok: false, error: SIGN_MSG.dateInvalid })
    expect(signTimeRange('2024-02-29')).toMatchObject({ ok: true })
    expect(signTimeRange('2025-06-02', '2025-06-01')).toEqual({ ok: false, error: SIGN_MSG.dateRange })
  })

  it('labels the verification and the target', () => {
    expect(signVerifyLabel({ verified: true, verify_failure: null })).toBe('已校验')
    expect(signVerifyLabel({ verified: false, verify_failure: 'record' })).toBe('校验失败：签到记录被修改')
    expect(signVerifyLabel({ verified: false, verify_failure: 'photo' })).toBe('校验失败：照片被替换或已丢失')
    expect(signTargetLabel(MARKER)).toBe('客户甲')
    expect(signTargetLabel(FREE)).toBe('自由签到')
  })
})
