/** Location tracking rules (SPEC 4 location, SPEC 9 geocoding range and polls). */
import { GEOCODE_EVERY_N_POLLS, LOCATION_POLL_MS } from '../../src/domain/constants'
import { inGeocodeRange, pollStep } from '../../src/domain/tracking'

describe('SPEC 9 geocoding range: lng 70-136, lat 2-54', () => {
  it('takes China, edges included', () => {
    expect(inGeocodeRange({ lng: 116.397, lat: 39.909 })).toBe(true)
    expect(inGeocodeRange({ lng: 70, lat: 2 })).toBe(true)
    expect(inGeocodeRange({ lng: 136, lat: 54 })).toBe(true)
  })

  it('refuses anything outside, and no position at all', () => {
    expect(inGeocodeRange({ lng: 69.99, lat: 30 })).toBe(false)
    expect(inGeocodeRange({ lng: 136.01, lat: 30 })).toBe(false)
    expect(inGeocodeRange({ lng: 100, lat: 1.99 })).toBe(false)
    expect(inGeocodeRange({ lng: 100, lat: 54.01 })).toBe(false)
    expect(inGeocodeRange({ lng: -0.1276, lat: 51.5072 })).toBe(false) // London
    expect(inGeocodeRange({ lng: 0, lat: 0 })).toBe(false)
    expect(inGeocodeRange({ lng: NaN, lat: 30 })).toBe(false)
  })
})

describe('SPEC 4: every 10th poll, when logged in, geocode and report', () => {
  const beijing = { lng: 116.4, lat: 39.9 }

  it('polls every 2 s and reports every 10th (20 s)', () => {
    expect(LOCATION_POLL_MS).toBe(2000)
    expect(GEOCODE_EVERY_N_POLLS).toBe(10)
    const reported = Array.from({ length: 30 }, (_, i) => i + 1).filter((n) => pollStep(n, true, beijing).report)
    expect(reported).toEqual([10, 20, 30])
  })

  it('geocodes the reported position only inside the range', () => {
    expect(pollStep(10, true, beijing)).toEqual({ report: true, geocode: true })
    expect(pollStep(10, true, { lng: 2.35, lat: 48.86 })).toEqual({ report: true, geocode: false })
  })

  it('neither reports nor geocodes when signed out, or between reports', () => {
    expect(pollStep(10, false, beijing)).toEqual({ report: false, geocode: false })
    expect(pollStep(9, true, beijing)).toEqual({ report: false, geocode: false })
    expect(pollStep(0, true, beijing)).toEqual({ report: false, geocode: false })
  })
})
