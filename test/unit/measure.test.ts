/** 测距 / 测面积: the points tapped, what they measure (the marker details' geometry) and what the bar says. */
import {
  MEASURE_POINTS_MAX,
  addMeasurePoint,
  emptyMeasure,
  measureDraft,
  measureReadout,
  measuredArea,
  measuredLength,
  measuredPerimeter,
  switchMeasureMode,
  undoMeasurePoint,
  type MeasureState,
} from '../../src/domain/measure'
import { MEASURE_MSG } from '../../src/domain/measureMessages'
import { M2_PER_MU, formatArea, formatLength } from '../../src/domain/points'

// One minute of arc along the equator is one nautical mile, 1852 m to within 0.1% on the sphere.
const EQ0 = { lng: 0.5, lat: 0 }
const EQ1 = { lng: 0.5 + 1 / 60, lat: 0 }
const EQ2 = { lng: 0.5 + 2 / 60, lat: 0 }

function measured(mode: 'length' | 'area', points: { lng: number; lat: number }[]): MeasureState {
  return points.reduce(addMeasurePoint, emptyMeasure(mode))
}

/** A square of about 100 m side in Beijing (0.0009° of latitude; longitude scaled by cos 39.9°). */
const SIDE_LAT = 100 / 111_195
const SIDE_LNG = SIDE_LAT / Math.cos((39.9 * Math.PI) / 180)
const SQUARE = [
  { lng: 116.4, lat: 39.9 },
  { lng: 116.4 + SIDE_LNG, lat: 39.9 },
  { lng: 116.4 + SIDE_LNG, lat: 39.9 + SIDE_LAT },
  { lng: 116.4, lat: 39.9 + SIDE_LAT },
]

describe('measuring maths', () => {
  it('measures a length along the points, great-circle, in metres', () => {
    expect(measuredLength([EQ0, EQ1])).toBeGreaterThan(1852 * 0.999)
    expect(measuredLength([EQ0, EQ1])).toBeLessThan(1852 * 1.002)
    expect(measuredLength([EQ0, EQ1, EQ2])).toBeCloseTo(2 * measuredLength([EQ0, EQ1]), 6)
    expect(measuredLength([EQ0])).toBe(0)
  })

  it('measures the area the points enclose, closed back to the first, and its perimeter', () => {
    expect(measuredArea(SQUARE)).toBeGreaterThan(10_000 * 0.99)
    expect(measuredArea(SQUARE)).toBeLessThan(10_000 * 1.01)
    // the same ring tapped the other way round is the same area
    expect(measuredArea([...SQUARE].reverse())).toBeCloseTo(measuredArea(SQUARE), 6)
    expect(measuredPerimeter(SQUARE)).toBeGreaterThan(400 * 0.99)
    expect(measuredPerimeter(SQUARE)).toBeLessThan(400 * 1.01)
    expect(measuredArea(SQUARE.slice(0, 2))).toBe(0)
  })
})

describe('measuring state', () => {
  it('adds points in order, undoes the last, and switching mode keeps them', () => {
    let s = measured('length', SQUARE.slice(0, 3))
    expect(s.points).toHaveLength(3)
    s = undoMeasurePoint(s)
    expect(s.points).toEqual(SQUARE.slice(0, 2))
    const area = switchMeasureMode(s, 'area')
    expect(area).toEqual({ mode: 'area', points: SQUARE.slice(0, 2) })
    expect(undoMeasurePoint(emptyMeasure('area'))).toEqual(emptyMeasure('area'))
  })

  it('ignores a tap that is not a coordinate, and stops at the point limit', () => {
    const s = emptyMeasure('length')
    expect(addMeasurePoint(s, { lng: Number.NaN, lat: 39.9 })).toBe(s)
    const full = measured(
      'length',
      Array.from({ length: MEASURE_POINTS_MAX }, (_, i) => ({ lng: 116 + i * 1e-4, lat: 39.9 })),
    )
    expect(addMeasurePoint(full, { lng: 117, lat: 40 })).toBe(full)
    expect(measureReadout(full, 'm2').hint).toBe(MEASURE_MSG.tooMany(MEASURE_POINTS_MAX))
  })

  it('draws a line for a length and a polygon for an area, nothing before the first point', () => {
    expect(measureDraft(emptyMeasure('length'))).toBeNull()
    expect(measureDraft(measured('length', [EQ0, EQ1]))).toEqual({ type: 1, parts: [[EQ0, EQ1]], radius: 0 })
    expect(measureDraft(measured('area', SQUARE))?.type).toBe(3)
  })
})

describe('what the bar says', () => {
  it('asks for the first and next points of a length, then shows the total and the last segment', () => {
    expect(measureReadout(emptyMeasure('length'), 'm2')).toEqual({ figure: '', detail: '', hint: MEASURE_MSG.lengthStart })
    expect(measureReadout(measured('length', [EQ0]), 'm2').hint).toBe(MEASURE_MSG.lengthNext)
    const r = measureReadout(measured('length', [EQ0, EQ1, EQ2]), 'm2')
    expect(r.figure).toBe(`总长 ${formatLength(measuredLength([EQ0, EQ1, EQ2]))}`)
    expect(r.figure).toMatch(/^总长 3\.7\d公里$/)
    expect(r.detail).toBe('最后一段 1.85公里')
  })

  it('counts down the points an area still needs, then shows it in the settings’ unit with its perimeter', () => {
    expect(measureReadout(measured('area', SQUARE.slice(0, 1)), 'm2').hint).toBe(MEASURE_MSG.areaNeeds(2))
    expect(measureReadout(measured('area', SQUARE.slice(0, 2)), 'm2').figure).toBe('')
    const s = measured('area', SQUARE)
    expect(measureReadout(s, 'm2').figure).toBe(`面积 ${formatArea(measuredArea(SQUARE), 'm2')}`)
    expect(measureReadout(s, 'm2').figure).toMatch(/^面积 (9,9\d\d|10,0\d\d)平方米$/)
    // 亩: 10,000 m² is 15 mu
    expect(measureReadout(s, 'mu').figure).toBe(`面积 ${(measuredArea(SQUARE) / M2_PER_MU).toFixed(2)}亩`)
    expect(measureReadout(s, 'ha').figure).toMatch(/^面积 (0\.99|1\.00|1\.01)公顷$/)
    expect(measureReadout(s, 'm2').detail).toMatch(/^周长 (39\d|40\d)米$/)
  })
})
