import { MAP_MSG } from '../../src/domain/messages'
import { boundsOf, boundsOfMany, checkGeometry, formatArea, formatLength, layerTypeOf, markerTypesOf, measure, parsePoints, serializePoints } from '../../src/domain/points'

const parts = (s: string) => {
  const r = parsePoints(s)
  if (!r.ok) throw new Error(r.error)
  return r.parts
}

describe('points codec (SPEC 3)', () => {
  it("reads 'lng,lat' vertices joined by '|'", () => {
    expect(parts('116.397,39.909|116.4,39.91')).toEqual([
      [
        { lng: 116.397, lat: 39.909 },
        { lng: 116.4, lat: 39.91 },
      ],
    ])
  })

  it("reads the parts of a multi-part polygon joined by ';'", () => {
    expect(parts('1,1|2,1|2,2;3,3|4,3|4,4')).toHaveLength(2)
  })

  it('writes what it reads, trimming to 7 decimals', () => {
    expect(serializePoints(parts('116.3974280,39.9092300|116.40000001,39.91'))).toBe('116.397428,39.90923|116.4,39.91')
  })

  it('refuses empty, malformed, NaN and out-of-range vertices, naming the vertex', () => {
    expect(parsePoints('')).toEqual({ ok: false, error: MAP_MSG.pointsRequired })
    expect(parsePoints('116.4,39.9|')).toEqual({ ok: false, error: MAP_MSG.vertexInvalid(2) })
    expect(parsePoints('116.4;39.9')).toEqual({ ok: false, error: MAP_MSG.vertexInvalid(1) })
    expect(parsePoints('NaN,39.9')).toEqual({ ok: false, error: MAP_MSG.vertexInvalid(1) })
    expect(parsePoints('Infinity,1')).toEqual({ ok: false, error: MAP_MSG.vertexInvalid(1) })
    expect(parsePoints('1,2|181,10')).toEqual({ ok: false, error: MAP_MSG.lngRange(2) })
    expect(parsePoints('1,-91')).toEqual({ ok: false, error: MAP_MSG.latRange(1) })
  })
})

describe('geometry per marker kind', () => {
  it('wants exactly one vertex for a point', () => {
    expect(checkGeometry(0, '116.4,39.9')).toBeNull()
    expect(checkGeometry(0, '116.4,39.9|116.5,39.9')).toBe(MAP_MSG.pointNeedsOne)
  })
  it('wants at least two vertices for solid and dashed lines', () => {
    expect(checkGeometry(1, '1,1|2,2')).toBeNull()
    expect(checkGeometry(2, '1,1')).toBe(MAP_MSG.lineNeedsTwo)
  })
  it('wants at least three vertices for a polygon', () => {
    expect(checkGeometry(3, '1,1|2,1|2,2')).toBeNull()
    expect(checkGeometry(3, '1,1|2,1')).toBe(MAP_MSG.polygonNeedsThree)
  })
  it('wants exactly two distinct corners for a rectangle', () => {
    expect(checkGeometry(4, '1,1|2,2')).toBeNull()
    expect(checkGeometry(4, '1,1|2,2|3,3')).toBe(MAP_MSG.rectangleNeedsTwo)
    expect(checkGeometry(4, '1,1|1,2')).toBe(MAP_MSG.rectangleDegenerate)
  })
  it('wants a centre and a radius above 0 for a circle', () => {
    expect(checkGeometry(5, '116.4,39.9', 300)).toBeNull()
    expect(checkGeometry(5, '116.4,39.9', 0)).toBe(MAP_MSG.circleNeedsRadius)
    expect(checkGeometry(5, '116.4,39.9|1,1', 10)).toBe(MAP_MSG.circleNeedsCentre)
  })
  it('wants every part of a multi-part polygon to have three vertices', () => {
    expect(checkGeometry(6, '1,1|2,1|2,2;3,3|4,3|4,4')).toBeNull()
    expect(checkGeometry(6, '1,1|2,1|2,2;3,3|4,3')).toBe(MAP_MSG.multiPartNeedsThree(2))
  })
  it('refuses unknown kinds', () => {
    expect(checkGeometry(7, '1,1')).toBe(MAP_MSG.markerTypeInvalid)
  })
  it('puts points in point layers, lines in line layers and areas in area layers', () => {
    expect([0, 1, 2, 3, 4, 5, 6].map((t) => layerTypeOf(t as 0))).toEqual([1, 2, 2, 3, 3, 3, 3])
    expect(markerTypesOf(0)).toEqual([])
    expect(markerTypesOf(3)).toEqual([3, 4, 5, 6])
  })
})

describe('bounds and measures', () => {
  it('boxes the vertices, and a circle with its radius', () => {
    expect(boundsOf(1, parts('116,39|117,40'))).toEqual([116, 39, 117, 40])
    const [minLng, minLat, maxLng, maxLat] = boundsOf(5, parts('116.4,39.9'), 1000)
    expect(maxLat - minLat).toBeCloseTo((2 * 1000) / 111320, 6)
    expect(maxLng - minLng).toBeGreaterThan(maxLat - minLat)
  })
  it('ignores coordinates of 0 when fitting many markers (SPEC 4)', () => {
    expect(boundsOfMany([parts('0,0'), parts('116,39'), parts('117,0|118,40')])).toEqual([116, 39, 118, 40])
    expect(boundsOfMany([parts('0,0')])).toBeNull()
  })
  it('measures one degree of latitude as about 111 km', () => {
    expect(measure(1, parts('116,39|116,40')).length! / 1000).toBeCloseTo(111.2, 0)
  })
  it('measures a 0.01-degree square near the equator as about 1.24 square kilometres', () => {
    const { area } = measure(4, parts('0.001,0.001|0.011,0.011'))
    expect(area! / 1e6).toBeCloseTo(1.236, 2)
  })
  it('measures a circle as pi r squared', () => {
    expect(measure(5, parts('116,39'), 100).area).toBeCloseTo(Math.PI * 10000, 6)
  })
  it('formats lengths and areas in Chinese units', () => {
    expect(formatLength(856.4)).toBe('856米')
    expect(formatLength(1234)).toBe('1.23公里')
    expect(formatArea(3200)).toBe('3,200平方米')
    expect(formatArea(2_500_000)).toBe('2.50平方公里')
  })
})

describe('holes in areas', () => {
  // A square of about 1.1 km with a square hole of about 220 m in its middle.
  const outer = '116.39,39.9|116.4,39.9|116.4,39.91|116.39,39.91'
  const hole = '116.394,39.904|116.396,39.904|116.396,39.906|116.394,39.906'

  it("reads a polygon part's inner rings after '#', and strings without holes as before", () => {
    const r = parsePoints(`${outer}#${hole}`)
    expect(r.ok && r.parts).toEqual([parts(outer)[0]])
    expect(r.ok && r.holes).toEqual([[parts(hole)[0]]])
    const plain = parsePoints(outer)
    expect(plain.ok && plain.holes).toEqual([[]])
    // Each part of a multi-part area keeps its own holes; written back the same.
    const multi = `${outer}#${hole};116.5,39.9|116.51,39.9|116.51,39.91`
    const m = parsePoints(multi)
    expect(m.ok && m.holes.map((h) => h.length)).toEqual([1, 0])
    expect(m.ok && serializePoints(m.parts, m.holes)).toBe(multi)
  })

  it('allows holes in polygons and multi-part areas only, of three points at least, inside their part', () => {
    expect(checkGeometry(3, `${outer}#${hole}`)).toBeNull()
    expect(checkGeometry(6, `${outer}#${hole};116.5,39.9|116.51,39.9|116.51,39.91`)).toBeNull()
    expect(checkGeometry(1, `116.39,39.9|116.4,39.9#${hole}`)).toBe(MAP_MSG.holesOnlyInAreas)
    expect(checkGeometry(3, `${outer}#116.394,39.904|116.396,39.904`)).toBe(MAP_MSG.holeNeedsThree(1))
    expect(checkGeometry(3, `${outer}#${hole}#116.5,39.95|116.51,39.95|116.51,39.96`)).toBe(MAP_MSG.holeOutside(2))
    // Vertices are numbered through the holes, as the form lists them.
    expect(checkGeometry(3, `${outer}#116.394,39.904|x,1|116.396,39.906`)).toBe(MAP_MSG.vertexInvalid(6))
  })

  it('takes the holes out of the area', () => {
    const whole = measure(3, parts(outer)).area!
    const r = parsePoints(`${outer}#${hole}`)
    const holed = r.ok ? measure(3, r.parts, 0, r.holes).area! : 0
    const holeArea = measure(3, parts(hole)).area!
    expect(holed).toBeCloseTo(whole - holeArea, 3)
    expect(holeArea).toBeGreaterThan(0)
  })
})
