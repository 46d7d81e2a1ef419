/** Route-planning rules (src/domain/routes.ts): order of stops, marker stops, straight-line legs, checks, formatting. */
import { distanceMeters } from '../../src/domain/geo'
import { ROUTE_MSG } from '../../src/domain/routeMessages'
import {
  AVERAGE_SPEED_MPS,
  DETOUR_FACTOR,
  ROUTE_NAME_MAX,
  ROUTE_STOPS_MAX,
  checkAppend,
  checkRoute,
  checkRouteName,
  checkStops,
  defaultPointName,
  formatDistance,
  formatDuration,
  formatRouteSummary,
  isEstimate,
  markerStopPoint,
  moveDown,
  moveItem,
  moveUp,
  nearestNextOrder,
  parseStopCoordinate,
  planKey,
  removeAt,
  stopName,
  straightLeg,
  straightPlan,
  sumLegs,
} from '../../src/domain/routes'

const A = { lng: 116.397428, lat: 39.90923 }
const B = { lng: 116.41, lat: 39.92 }
const C = { lng: 116.45, lat: 39.95 }
const stop = (p: { lng: number; lat: number }, name = '点') => ({ marker_id: null, name, ...p })

describe('order of stops', () => {
  it('moves a stop up, down or anywhere; the ends stay put', () => {
    expect(moveUp(['a', 'b', 'c'], 2)).toEqual(['a', 'c', 'b'])
    expect(moveDown(['a', 'b', 'c'], 0)).toEqual(['b', 'a', 'c'])
    expect(moveUp(['a', 'b', 'c'], 0)).toEqual(['a', 'b', 'c'])
    expect(moveDown(['a', 'b', 'c'], 2)).toEqual(['a', 'b', 'c'])
    expect(moveItem(['a', 'b', 'c', 'd'], 0, 2)).toEqual(['b', 'c', 'a', 'd'])
    expect(moveItem(['a', 'b'], 5, 0)).toEqual(['a', 'b'])
    expect(removeAt(['a', 'b', 'c'], 1)).toEqual(['a', 'c'])
  })

  it('orders by the nearest next stop, keeping the first', () => {
    const far = { lng: 117, lat: 40.5 }
    expect(nearestNextOrder([A, far, C, B])).toEqual([A, B, C, far])
    expect(nearestNextOrder([C, A])).toEqual([C, A])
  })

  it('refuses to append the same place as the last stop, or beyond the stop limit', () => {
    expect(checkAppend([A], { ...A })).toBe(ROUTE_MSG.sameAsLast)
    expect(checkAppend([A], B)).toBeNull()
    expect(checkAppend([A, B], A)).toBeNull()
    const full = Array.from({ length: ROUTE_STOPS_MAX }, (_, i) => ({ lng: 116 + i / 100, lat: 39 }))
    expect(checkAppend(full, B)).toBe(ROUTE_MSG.stopsTooMany(ROUTE_STOPS_MAX))
  })
})

describe('where a marker stands as a stop', () => {
  it('a point at its position, a circle at its centre, lines and areas at the centre of their bounds', () => {
    expect(markerStopPoint(0, '116.397428,39.90923')).toEqual(A)
    expect(markerStopPoint(5, '116.41,39.92')).toEqual(B)
    expect(markerStopPoint(1, '116.40,39.90|116.42,39.94')).toEqual({ lng: 116.41, lat: 39.92 })
    expect(markerStopPoint(3, '116.40,39.90|116.44,39.90|116.42,39.96')).toEqual({ lng: 116.42, lat: 39.93 })
    expect(markerStopPoint(6, '116.40,39.90|116.41,39.90|116.41,39.91;116.50,39.99|116.51,39.99|116.51,40.00')).toEqual({ lng: 116.455, lat: 39.95 })
  })

  it('has no place for geometry that does not parse or lies at 0', () => {
    expect(markerStopPoint(0, '')).toBeNull()
    expect(markerStopPoint(0, 'abc')).toBeNull()
    expect(markerStopPoint(0, '0,0')).toBeNull()
  })
})

describe('typed coordinates and stop names', () => {
  it("reads 'lng,lat' with a Chinese comma or spaces, to seven decimals", () => {
    expect(parseStopCoordinate('116.397428,39.90923')).toEqual({ ok: true, point: A })
    expect(parseStopCoordinate(' 116.397428，39.90923 ')).toEqual({ ok: true, point: A })
    expect(parseStopCoordinate('116.397428 39.90923')).toEqual({ ok: true, point: A })
    expect(parseStopCoordinate('116.397428 , 39.90923')).toEqual({ ok: true, point: A })
    expect(parseStopCoordinate('116.123456789,39.1')).toEqual({ ok: true, point: { lng: 116.1234568, lat: 39.1 } })
  })

  it('refuses anything else with a message that shows the format', () => {
    for (const bad of ['', '116.4', 'abc,def', '116,39|117,40', '200,39', '116,95']) expect(parseStopCoordinate(bad)).toEqual({ ok: false, error: ROUTE_MSG.coordInvalid })
    expect(parseStopCoordinate('0,39.9')).toEqual({ ok: false, error: ROUTE_MSG.coordZero })
  })

  it('names an unnamed point by its coordinates and cuts long names', () => {
    expect(defaultPointName(A)).toBe('位置 116.39743,39.90923')
    expect(stopName('  ', A)).toBe('位置 116.39743,39.90923')
    expect(stopName(' 客户 ', A)).toBe('客户')
    expect(stopName('名'.repeat(60), A)).toBe('名'.repeat(50))
  })
})

describe('checks of a route, with their messages', () => {
  it('needs a name of at most 30 characters', () => {
    expect(checkRouteName('')).toBe(ROUTE_MSG.nameRequired)
    expect(checkRouteName('   ')).toBe(ROUTE_MSG.nameRequired)
    expect(checkRouteName('路'.repeat(ROUTE_NAME_MAX))).toBeNull()
    expect(checkRouteName('路'.repeat(ROUTE_NAME_MAX + 1))).toBe(ROUTE_MSG.nameTooLong(30))
    expect(checkRouteName('🚗'.repeat(30))).toBeNull()
  })

  it('needs 2 to 30 real places, none the same as the one before', () => {
    expect(checkStops([A])).toBe(ROUTE_MSG.stopsTooFew(2))
    expect(checkStops([A, B])).toBeNull()
    expect(checkStops([A, B, A])).toBeNull()
    expect(checkStops([A, B, B])).toBe(ROUTE_MSG.sameAsPrevious(3))
    expect(checkStops([A, { lng: 0, lat: 0 }])).toBe(ROUTE_MSG.stopInvalid(2))
    expect(checkStops([{ lng: NaN, lat: 39 }, A])).toBe(ROUTE_MSG.stopInvalid(1))
    expect(checkStops(Array.from({ length: 31 }, (_, i) => ({ lng: 116 + i / 100, lat: 39 })))).toBe(ROUTE_MSG.stopsTooMany(30))
  })

  it('checks the name first, then the mode, then the stops', () => {
    expect(checkRoute({ name: '', mode: 'flying', stops: [] })).toBe(ROUTE_MSG.nameRequired)
    expect(checkRoute({ name: '巡检', mode: 'flying', stops: [] })).toBe(ROUTE_MSG.modeInvalid)
    expect(checkRoute({ name: '巡检', mode: 'walking', stops: [A] })).toBe(ROUTE_MSG.stopsTooFew(2))
    expect(checkRoute({ name: '巡检', mode: 'walking', stops: [A, B] })).toBeNull()
  })
})

describe('straight-line legs (no provider, offline)', () => {
  it('measures the great-circle distance in whole metres and the time at the average speed over the detour', () => {
    const d = distanceMeters(A, B)
    const leg = straightLeg(A, B, 'driving')
    expect(leg.source).toBe('straight')
    expect(leg.distance).toBe(Math.round(d))
    expect(leg.duration).toBe(Math.round((leg.distance * DETOUR_FACTOR) / AVERAGE_SPEED_MPS.driving))
    expect(straightLeg(A, B, 'walking').duration).toBeGreaterThan(leg.duration * 6)
    // 1 km at 30 km/h over 1.3 km of road: 156 s.
    expect(straightLeg({ lng: 116, lat: 0.001 }, { lng: 116, lat: 0.001 + 1000 / 111195 }, 'driving')).toEqual({ distance: 1000, duration: 156, source: 'straight' })
  })

  it('sums the legs of a plan, one fewer than the stops', () => {
    const plan = straightPlan('walking', [stop(A), stop(B), stop(C)])
    expect(plan.legs).toHaveLength(2)
    expect(plan).toMatchObject(sumLegs(plan.legs))
    expect(plan.distance).toBe(plan.legs[0].distance + plan.legs[1].distance)
    expect(isEstimate(plan)).toBe(true)
    expect(isEstimate({ legs: [{ distance: 1, duration: 1, source: 'provider' }] })).toBe(false)
    expect(straightPlan('driving', [stop(A)])).toMatchObject({ legs: [], distance: 0, duration: 0 })
  })

  it('keys a plan by mode and places, so that an answer for other stops is told apart', () => {
    expect(planKey('driving', [A, B])).toBe(planKey('driving', [{ ...A }, { ...B }]))
    expect(planKey('driving', [A, B])).not.toBe(planKey('walking', [A, B]))
    expect(planKey('driving', [A, B])).not.toBe(planKey('driving', [B, A]))
  })
})

describe('distances and times as the pages write them', () => {
  it('writes metres below a kilometre, one decimal below 100 km, whole kilometres beyond', () => {
    expect(formatDistance(0)).toBe('0米')
    expect(formatDistance(849.6)).toBe('850米')
    expect(formatDistance(1000)).toBe('1公里')
    expect(formatDistance(3240)).toBe('3.2公里')
    expect(formatDistance(125_300)).toBe('125公里')
  })

  it('writes about-minutes, at least one, and hours with minutes', () => {
    expect(formatDuration(0)).toBe('约1分钟')
    expect(formatDuration(720)).toBe('约12分钟')
    expect(formatDuration(3600)).toBe('约1小时')
    expect(formatDuration(3900)).toBe('约1小时5分钟')
  })

  it("joins them as '3.2公里 · 约12分钟'", () => {
    expect(formatRouteSummary(3240, 720)).toBe('3.2公里 · 约12分钟')
  })
})
