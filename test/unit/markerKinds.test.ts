import { LAYER_KIND, MARKER_KIND, isArea, isLine, isPoint } from '../../src/domain/markerKinds'
import { AREA_TYPES, LINE_TYPES, MARKER_TYPES, POINT_TYPES, layerTypeOf } from '../../src/domain/points'

describe('marker and layer kinds (SPEC 3)', () => {
  it('number the kinds as SPEC 3 does', () => {
    expect(MARKER_KIND).toEqual({ point: 0, solidLine: 1, dashedLine: 2, polygon: 3, rectangle: 4, circle: 5, multiPolygon: 6 })
    expect(LAYER_KIND).toEqual({ folder: 0, point: 1, line: 2, area: 3 })
    expect(MARKER_TYPES).toEqual([0, 1, 2, 3, 4, 5, 6])
  })

  it('tell points, lines (1-2) and areas (3-6) apart', () => {
    expect(MARKER_TYPES.filter(isPoint)).toEqual(POINT_TYPES)
    expect(MARKER_TYPES.filter(isLine)).toEqual(LINE_TYPES)
    expect(MARKER_TYPES.filter(isArea)).toEqual(AREA_TYPES)
    expect(LINE_TYPES).toEqual([1, 2])
    expect(AREA_TYPES).toEqual([3, 4, 5, 6])
    expect(MARKER_TYPES.map(layerTypeOf)).toEqual([1, 2, 2, 3, 3, 3, 3])
  })
})
