import type { ImportFormat, MarkerType } from '../../types/mapdata'
import { exportFileName, formatOfFileName, parseFile, serializeFile, type ExportMarker } from '../../src/domain/formats'
import { parseCsv } from '../../src/domain/formats/csv'
import { parseGeoJson } from '../../src/domain/formats/geojson'
import { parseKml } from '../../src/domain/formats/kml'
import { MARKER_NAME_MAX } from '../../src/domain/markers'
import { MAP_IO_MSG, MAP_MSG } from '../../src/domain/messages'
import { parsePoints } from '../../src/domain/points'
import { IMPORT_MSG } from '../../src/domain/importMessages'

// The published reference pair of the GCJ-02 transform: WGS-84 (116.404, 39.915) is GCJ-02
// (116.41024449916938, 39.91640428150164); stored points keep 7 decimals.
const WGS = { lng: 116.404, lat: 39.915 }
const GCJ_POINTS = '116.4102445,39.9164043'

const feature = (geometry: unknown, properties: Record<string, unknown> = {}) => ({ type: 'Feature', properties, geometry })
const collection = (...features: unknown[]) => JSON.stringify({ type: 'FeatureCollection', features })

/** One marker of every kind around Beijing, in stored GCJ-02. */
const ALL_KINDS: ExportMarker[] = [
  { name: '水井', type: 0, points: '116.4102445,39.9164043', radius: 0, fields: { 深度: '12.5', 负责人: '张三' } },
  { name: '主干道', type: 1, points: '116.40,39.90|116.41,39.91|116.42,39.905', radius: 0, fields: {} },
  { name: '规划路', type: 2, points: '116.43,39.90|116.44,39.91', radius: 0, fields: {} },
  { name: '地块A', type: 3, points: '116.40,39.92|116.41,39.92|116.41,39.93', radius: 0, fields: { 面积备注: '约1公顷' } },
  { name: '仓库', type: 4, points: '116.45,39.92|116.46,39.93', radius: 0, fields: {} },
  { name: '禁飞区', type: 5, points: '116.47,39.94', radius: 500, fields: {} },
  { name: '片区', type: 6, points: '116.40,39.95|116.41,39.95|116.41,39.96;116.42,39.95|116.43,39.95|116.43,39.96', radius: 0, fields: {} },
]

function vertices(points: string) {
  const parsed = parsePoints(points)
  if (!parsed.ok) throw new Error(parsed.error)
  return parsed.parts.flat()
}

/** Same geometry within 2e-7 degrees (about 2 cm): one rounding on each way through a file. */
function expectSamePoints(actual: string, expected: string) {
  const a = vertices(actual)
  const b = vertices(expected)
  expect(a).toHaveLength(b.length)
  a.forEach((p, i) => {
    expect(Math.abs(p.lng - b[i].lng)).toBeLessThan(2e-7)
    expect(Math.abs(p.lat - b[i].lat)).toBeLessThan(2e-7)
  })
  expect(actual.split(';').length).toBe(expected.split(';').length)
}

describe('coordinates in files', () => {
  it('converts WGS-84 file coordinates to the stored GCJ-02 by default', () => {
    const { rows, errors } = parseGeoJson(collection(feature({ type: 'Point', coordinates: [WGS.lng, WGS.lat] }, { name: '天安门' })))
    expect(errors).toEqual([])
    expect(rows).toEqual([{ row: 1, name: '天安门', type: 0, points: GCJ_POINTS, radius: 0, fields: {} }])
  })

  it('takes coordinates as they are when the file is already GCJ-02', () => {
    const { rows } = parseGeoJson(collection(feature({ type: 'Point', coordinates: [116.404, 39.915] })), 'gcj02')
    expect(rows[0].points).toBe('116.404,39.915')
  })

  it('writes stored GCJ-02 points back as the WGS-84 reference coordinates', () => {
    const text = serializeFile('geojson', [{ name: 'p', type: 0, points: GCJ_POINTS, radius: 0, fields: {} }])
    const [lng, lat] = JSON.parse(text).features[0].geometry.coordinates
    expect(Math.abs(lng - WGS.lng)).toBeLessThan(2e-7)
    expect(Math.abs(lat - WGS.lat)).toBeLessThan(2e-7)
  })

  it('leaves coordinates outside China unchanged in both directions', () => {
    const { rows } = parseCsv('name,lng,lat\n巴黎,2.35,48.85')
    expect(rows[0].points).toBe('2.35,48.85')
    expect(serializeFile('csv', [{ name: '巴黎', type: 0, points: '2.35,48.85', radius: 0, fields: {} }])).toContain('巴黎,2.35,48.85')
  })
})

describe('GeoJSON', () => {
  it('reads points, lines, polygons and multi-polygons as marker kinds 0, 1, 3 and 6', () => {
    const { rows, errors } = parseGeoJson(
      collection(
        feature({ type: 'Point', coordinates: [116.4, 39.9] }),
        feature({
          type: 'LineString',
          coordinates: [
            [116.4, 39.9],
            [116.5, 39.9],
          ],
        }),
        feature({
          type: 'Polygon',
          coordinates: [
            [
              [116.4, 39.9],
              [116.5, 39.9],
              [116.5, 40],
              [116.4, 39.9],
            ],
          ],
        }),
        feature({
          type: 'MultiPolygon',
          coordinates: [
            [
              [
                [1, 1],
                [2, 1],
                [2, 2],
                [1, 1],
              ],
            ],
            [
              [
                [3, 3],
                [4, 3],
                [4, 4],
                [3, 3],
              ],
            ],
          ],
        }),
      ),
      'gcj02',
    )
    expect(errors).toEqual([])
    expect(rows.map((r) => r.type)).toEqual([0, 1, 3, 6])
    expect(rows[2].points).toBe('116.4,39.9|116.5,39.9|116.5,40')
    expect(rows[3].points).toBe('1,1|2,1|2,2;3,3|4,3|4,4')
  })

  it('reads a circle as a Point with a radius and a rectangle as a Polygon of kind rectangle', () => {
    const { rows } = parseGeoJson(
      collection(
        feature({ type: 'Point', coordinates: [116.4, 39.9] }, { radius: 300 }),
        feature(
          {
            type: 'Polygon',
            coordinates: [
              [
                [116.4, 39.9],
                [116.5, 39.9],
                [116.5, 40],
                [116.4, 40],
                [116.4, 39.9],
              ],
            ],
          },
          { kind: 'rectangle' },
        ),
        feature(
          {
            type: 'LineString',
            coordinates: [
              [116.4, 39.9],
              [116.5, 39.9],
            ],
          },
          { kind: 'dashed_line' },
        ),
      ),
      'gcj02',
    )
    expect(rows.map((r) => [r.type, r.points, r.radius])).toEqual([
      [5, '116.4,39.9', 300],
      [4, '116.4,39.9|116.5,40', 0],
      [2, '116.4,39.9|116.5,39.9', 0],
    ])
  })

  it('keeps other properties as field values by name and gives nameless features a name', () => {
    const { rows } = parseGeoJson(collection(feature({ type: 'Point', coordinates: [1, 1] }, { 负责人: '张三', 深度: 12, 标签: ['a', 'b'], 空: null })))
    expect(rows[0].fields).toEqual({ 负责人: '张三', 深度: '12', 标签: 'a b' })
    expect(rows[0].name).toBe('点1')
  })

  it('accepts a single Feature or a bare geometry', () => {
    expect(parseGeoJson(JSON.stringify(feature({ type: 'Point', coordinates: [1, 1] }))).rows).toHaveLength(1)
    expect(parseGeoJson(JSON.stringify({ type: 'Point', coordinates: [1, 1] })).rows).toHaveLength(1)
  })

  it('names every bad feature by its number with the reason', () => {
    const { rows, errors } = parseGeoJson(
      collection(
        feature({ type: 'Point', coordinates: [1, 1] }),
        feature({ type: 'Point', coordinates: [200, 1] }),
        feature(null),
        feature({ type: 'LineString', coordinates: [[1, 1]] }),
        feature({ type: 'MultiPoint', coordinates: [[1, 1]] }),
        feature({ type: 'Point', coordinates: ['x', 1] }),
        feature({ type: 'Point', coordinates: [1, 1] }, { radius: -5 }),
        feature({ type: 'Point', coordinates: [1, 1] }, { name: '长'.repeat(MARKER_NAME_MAX + 1) }),
      ),
    )
    // A MultiPoint of one position is one point.
    expect(rows.map((r) => r.row)).toEqual([1, 5])
    expect(errors).toEqual([
      { row: 2, message: MAP_MSG.lngRange(1) },
      { row: 3, message: IMPORT_MSG.featureNoGeometry },
      { row: 4, message: MAP_MSG.lineNeedsTwo },
      { row: 6, message: MAP_MSG.vertexInvalid(1) },
      { row: 7, message: MAP_MSG.circleNeedsRadius },
      { row: 8, message: MAP_MSG.markerNameTooLong(MARKER_NAME_MAX) },
    ])
  })

  it('calls text that is not GeoJSON unreadable and an empty collection empty', () => {
    expect(parseGeoJson('{not json')).toEqual({ rows: [], errors: [{ row: 0, message: MAP_MSG.importUnreadable }] })
    expect(parseGeoJson('{"type":"Topology"}').errors).toEqual([{ row: 0, message: MAP_MSG.importUnreadable }])
    expect(parseGeoJson(collection()).errors).toEqual([{ row: 0, message: MAP_MSG.importEmpty }])
  })

  it('writes closed rings and the kind of every marker', () => {
    const json = JSON.parse(serializeFile('geojson', ALL_KINDS, { crs: 'gcj02' }))
    expect(json.type).toBe('FeatureCollection')
    expect(json.features.map((f: any) => [f.geometry.type, f.properties.kind])).toEqual([
      ['Point', 'point'],
      ['LineString', 'line'],
      ['LineString', 'dashed_line'],
      ['Polygon', 'polygon'],
      ['Polygon', 'rectangle'],
      ['Point', 'circle'],
      ['MultiPolygon', 'multi_polygon'],
    ])
    expect(json.features[4].geometry.coordinates[0]).toEqual([
      [116.45, 39.92],
      [116.46, 39.92],
      [116.46, 39.93],
      [116.45, 39.93],
      [116.45, 39.92],
    ])
    expect(json.features[5].properties.radius).toBe(500)
    expect(json.features[0].properties).toMatchObject({ name: '水井', 深度: '12.5', 负责人: '张三' })
  })
})

describe('KML', () => {
  const kml = (body: string) => `<?xml version="1.0" encoding="UTF-8"?><kml xmlns="http://www.opengis.net/kml/2.2"><Document>${body}</Document></kml>`

  it('reads Placemarks in document order through nested folders', () => {
    const { rows, errors } = parseKml(
      kml(`
        <Placemark><name>A &amp; B</name><Point><coordinates>116.404,39.915,0</coordinates></Point></Placemark>
        <Folder><name>f</name>
          <Placemark><name>线</name><LineString><coordinates>116.4,39.9 116.5,39.9</coordinates></LineString></Placemark>
        </Folder>
        <Placemark><name><![CDATA[面]]></name><Polygon><outerBoundaryIs><LinearRing><coordinates>
          116.4,39.9 116.5,39.9 116.5,40 116.4,39.9
        </coordinates></LinearRing></outerBoundaryIs></Polygon></Placemark>`),
    )
    expect(errors).toEqual([])
    expect(rows.map((r) => [r.row, r.name, r.type])).toEqual([
      [1, 'A & B', 0],
      [2, '线', 1],
      [3, '面', 3],
    ])
    expect(rows[0].points).toBe(GCJ_POINTS)
  })

  it('reads a MultiGeometry of polygons as a multi-part polygon and ExtendedData as fields', () => {
    const { rows } = parseKml(
      kml(`<Placemark><name>片区</name>
        <ExtendedData><Data name="负责人"><value>李四</value></Data><SchemaData><SimpleData name="编号">A-1</SimpleData></SchemaData></ExtendedData>
        <MultiGeometry>
          <Polygon><outerBoundaryIs><LinearRing><coordinates>1,1 2,1 2,2 1,1</coordinates></LinearRing></outerBoundaryIs></Polygon>
          <Polygon><outerBoundaryIs><LinearRing><coordinates>3,3 4,3 4,4 3,3</coordinates></LinearRing></outerBoundaryIs></Polygon>
        </MultiGeometry></Placemark>`),
      'gcj02',
    )
    expect(rows[0]).toMatchObject({ type: 6, points: '1,1|2,1|2,2;3,3|4,3|4,4', fields: { 负责人: '李四', 编号: 'A-1' } })
  })

  it('names bad placemarks by number', () => {
    const { errors } = parseKml(
      kml(`<Placemark><name>ok</name><Point><coordinates>1,1</coordinates></Point></Placemark>
        <Placemark><name>no geometry</name></Placemark>
        <Placemark><name>bad</name><Point><coordinates>1,abc</coordinates></Point></Placemark>`),
    )
    expect(errors).toEqual([
      { row: 2, message: IMPORT_MSG.noGeometry },
      { row: 3, message: MAP_MSG.vertexInvalid(1) },
    ])
  })

  it('calls text that is not KML unreadable', () => {
    expect(parseKml('<html><body>hi</body></html>').errors).toEqual([{ row: 0, message: MAP_MSG.importUnreadable }])
    expect(parseKml('not xml at all <<<').errors[0].row).toBe(0)
  })

  it('escapes names and field values it writes', () => {
    const text = serializeFile('kml', [{ name: 'A <&> "B"', type: 0, points: '1,1', radius: 0, fields: { 备注: '<b>' } }])
    expect(text).toContain('<name>A &lt;&amp;&gt; &quot;B&quot;</name>')
    expect(parseKml(text).rows[0]).toMatchObject({ name: 'A <&> "B"', fields: { 备注: '<b>' } })
  })
})

describe('CSV', () => {
  it('reads points from lng/lat or 经度/纬度 columns and other columns as fields', () => {
    const a = parseCsv('name,lng,lat,负责人\n水井,116.404,39.915,张三')
    const b = parseCsv('名称,经度,纬度,负责人\n水井,116.404,39.915,张三')
    for (const { rows, errors } of [a, b]) {
      expect(errors).toEqual([])
      expect(rows).toEqual([{ row: 2, name: '水井', type: 0, points: GCJ_POINTS, radius: 0, fields: { 负责人: '张三' } }])
    }
  })

  it('reads any kind from a WKT column, with kind and radius columns for ours', () => {
    const { rows, errors } = parseCsv(
      [
        'name,kind,radius,wkt',
        '线,,,"LINESTRING (1 1, 2 2)"',
        '面,,,"POLYGON ((1 1, 2 1, 2 2, 1 1))"',
        '多面,,,"MULTIPOLYGON (((1 1, 2 1, 2 2, 1 1)), ((3 3, 4 3, 4 4, 3 3)))"',
        '圆,circle,250,POINT (1 1)',
        '矩形,rectangle,,"POLYGON ((1 1, 2 1, 2 2, 1 2, 1 1))"',
        '三维点,,,POINT Z (1 1 5)',
      ].join('\n'),
      'gcj02',
    )
    expect(errors).toEqual([])
    expect(rows.map((r) => [r.type, r.points, r.radius])).toEqual([
      [1, '1,1|2,2', 0],
      [3, '1,1|2,1|2,2', 0],
      [6, '1,1|2,1|2,2;3,3|4,3|4,4', 0],
      [5, '1,1', 250],
      [4, '1,1|2,2', 0],
      [0, '1,1', 0],
    ])
  })

  it('numbers rows as a spreadsheet shows the file: the header is row 1, blank lines keep their numbers', () => {
    const { rows, errors } = parseCsv('name,lng,lat\nA,1,1\n\nB,abc,1\nC,1,\nD,,\nE,1,91\nF,"LINESTRING (1 1)"')
    expect(rows.map((r) => r.row)).toEqual([2])
    expect(errors).toEqual([
      { row: 4, message: MAP_MSG.vertexInvalid(1) },
      { row: 5, message: MAP_MSG.vertexInvalid(1) },
      { row: 6, message: MAP_MSG.pointsRequired },
      { row: 7, message: MAP_MSG.latRange(1) },
      { row: 8, message: MAP_MSG.vertexInvalid(1) },
    ])
  })

  it('refuses bad WKT and a file without coordinate columns', () => {
    expect(parseCsv('name,wkt\nA,POINT (1)\nB,"POLYGON ((1 1, 2 1)"').errors).toEqual([
      { row: 2, message: MAP_IO_MSG.wktInvalid },
      { row: 3, message: MAP_IO_MSG.wktInvalid },
    ])
    expect(parseCsv('name,remark\nA,北京').errors).toEqual([{ row: 0, message: MAP_IO_MSG.importColumnsMissing }])
    expect(parseCsv('\n\n').errors).toEqual([{ row: 0, message: MAP_MSG.importEmpty }])
  })

  it('writes plain points as lng/lat columns and everything else as WKT, with a BOM for Excel', () => {
    const points = serializeFile('csv', [ALL_KINDS[0]], { fieldNames: ['负责人', '深度'], crs: 'gcj02' })
    expect(points).toBe('\uFEFFname,lng,lat,负责人,深度\r\n水井,116.4102445,39.9164043,张三,12.5')
    const mixed = serializeFile('csv', ALL_KINDS.slice(4, 6), { crs: 'gcj02' })
    expect(mixed).toBe('\uFEFFname,kind,radius,wkt\r\n仓库,rectangle,,"POLYGON ((116.45 39.92, 116.46 39.92, 116.46 39.93, 116.45 39.93, 116.45 39.92))"\r\n禁飞区,circle,500,POINT (116.47 39.94)')
  })

  it('quotes names with commas, quotes and line breaks', () => {
    const text = serializeFile('csv', [{ name: 'a, "b"\nc', type: 0, points: '1,1', radius: 0, fields: {} }])
    expect(parseCsv(text).rows[0].name).toBe('a, "b"\nc')
  })
})

describe('round trips', () => {
  it.each<[ImportFormat, 'wgs84' | 'gcj02']>([
    ['geojson', 'wgs84'],
    ['geojson', 'gcj02'],
    ['kml', 'wgs84'],
    ['kml', 'gcj02'],
    ['csv', 'wgs84'],
    ['csv', 'gcj02'],
  ])('brings every marker kind back from %s (%s) with its name, kind, radius and fields', (format, crs) => {
    const text = serializeFile(format, ALL_KINDS, { crs, fieldNames: ['深度', '负责人', '面积备注'], title: '图层' })
    const { rows, errors } = parseFile(format, text, crs)
    expect(errors).toEqual([])
    expect(rows.map((r) => [r.name, r.type, r.radius, r.fields])).toEqual(ALL_KINDS.map((m) => [m.name, m.type, m.radius, m.fields]))
    rows.forEach((r, i) => expectSamePoints(r.points, ALL_KINDS[i].points))
  })

  it('keeps a single-part multi-polygon a multi-polygon', () => {
    const one: ExportMarker = { name: 'x', type: 6 as MarkerType, points: '1,1|2,1|2,2', radius: 0, fields: {} }
    for (const format of ['geojson', 'kml', 'csv'] as const) {
      expect(parseFile(format, serializeFile(format, [one])).rows[0].type).toBe(6)
    }
  })
})

describe('file names', () => {
  it('suggests the format from the extension', () => {
    expect(formatOfFileName('点位.GeoJSON')).toBe('geojson')
    expect(formatOfFileName('a.json')).toBe('geojson')
    expect(formatOfFileName('a.kml')).toBe('kml')
    expect(formatOfFileName('a.csv')).toBe('csv')
    expect(formatOfFileName('a.kmz')).toBe('kmz')
    expect(formatOfFileName('a.txt')).toBe('csv')
    expect(formatOfFileName('a.shp')).toBeNull()
  })

  it('names the export after the layer without characters file systems refuse', () => {
    expect(exportFileName('水井/泵站:1', 'kml')).toBe('水井_泵站_1.kml')
    expect(exportFileName('  ', 'csv')).toBe('layer.csv')
  })
})

describe('row limit', () => {
  const points = (n: number) => Array.from({ length: n }, (_, i): ExportMarker => ({ name: `点${i + 1}`, type: 0, points: `116.${400 + i},39.9`, radius: 0, fields: {} }))

  it.each<ImportFormat>(['geojson', 'kml', 'csv'])('reads a %s file of maxRows records and stops at one more, answering tooManyRows', (format) => {
    expect(parseFile(format, serializeFile(format, points(3)), 'wgs84', 3).rows).toHaveLength(3)
    expect(parseFile(format, serializeFile(format, points(4)), 'wgs84', 3)).toEqual({ rows: [], errors: [], tooManyRows: true })
  })

  it('counts bad records too: a file of too many is refused whatever they hold', () => {
    const bad = collection(...Array.from({ length: 4 }, () => feature(null)))
    expect(parseFile('geojson', bad, 'wgs84', 3).tooManyRows).toBe(true)
  })

  it('answers whole-file problems before the count', () => {
    expect(parseFile('csv', 'name,remark\nA,北京\nB,上海', 'wgs84', 1)).toEqual({ rows: [], errors: [{ row: 0, message: MAP_IO_MSG.importColumnsMissing }] })
    expect(parseFile('geojson', '{oops', 'wgs84', 0).errors).toEqual([{ row: 0, message: MAP_MSG.importUnreadable }])
  })

  it('does not count blank CSV lines or Placemarks inside KML comments and CDATA', () => {
    expect(parseFile('csv', 'name,lng,lat\n\nA,116.4,39.9\n\n\nB,116.5,39.9\n', 'wgs84', 2).rows).toHaveLength(2)
    const kml = `<kml><Document><!-- <Placemark><name>旧</name></Placemark> --><Placemark><name>A</name><description><![CDATA[<Placemark>]]></description><Point><coordinates>116.4,39.9</coordinates></Point></Placemark></Document></kml>`
    expect(parseFile('kml', kml, 'wgs84', 1).rows.map((r) => r.name)).toEqual(['A'])
  })
})
