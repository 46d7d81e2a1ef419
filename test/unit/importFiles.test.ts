/** Import files as other tools write them (test/fixtures/import): names, descriptions, multi-geometries, encodings, KMZ; and CSV export against formulas. */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import iconv from 'iconv-lite'
import { parseFile, serializeFile, type ExportMarker } from '../../src/domain/formats'
import { safeCell } from '../../src/domain/formats/csv'
import { decodeText, detectEncoding } from '../../src/domain/formats/encoding'
import { readImportFile } from '../../src/domain/formats/read'
import { exportFile } from '../../src/domain/formats/exportFile'
import { MAP_IO_MSG, MAP_MSG } from '../../src/domain/messages'
import { IMPORT_MSG } from '../../src/domain/importMessages'

const fixture = (name: string) => new Uint8Array(readFileSync(join(__dirname, '../fixtures/import', name)))
const text = (name: string) => readFileSync(join(__dirname, '../fixtures/import', name), 'utf8')

describe('names and descriptions', () => {
  it('takes a GeoJSON name from name, Name, NAME, 名称, title or 标题, the first present, and keeps the rest as fields', () => {
    const { rows, errors } = parseFile('geojson', text('mixed-qgis.geojson'))
    expect(errors).toEqual([])
    expect([...new Set(rows.map((r) => r.name.replace(/-\d$/, '')))]).toEqual(['一号水井', '巡检路线', '试验田', '监测点组', '支路', '站点与围栏', '两块地'])
    // 名称 came first, so title is only a field; the key used for the name is not one.
    expect(rows[2].fields).toEqual({ title: '不用这个' })
    expect(rows[0].fields).toEqual({ 深度: '12.5' })
    // Any spelling of description is the description field.
    expect(rows[1].fields).toEqual({ description: '每周一巡检' })
  })

  it('keeps a KML <description> (CDATA too) as the description value', () => {
    const { rows } = parseFile('kml', text('mymaps.kml'))
    expect(rows[0]).toMatchObject({ name: '东门岗亭', fields: { description: '值班电话 010-12345678<br>夜间锁门' } })
  })

  it('prefers a description in ExtendedData to the <description> element', () => {
    const kml = `<kml><Document><Placemark><name>a</name><description>外</description><ExtendedData><Data name="description"><value>内</value></Data></ExtendedData><Point><coordinates>1,1</coordinates></Point></Placemark></Document></kml>`
    expect(parseFile('kml', kml).rows[0].fields).toEqual({ description: '内' })
  })

  it('names KML markers from 名称 in ExtendedData when there is no <name>', () => {
    const kml = `<kml><Document><Placemark><ExtendedData><Data name="名称"><value>泵站</value></Data></ExtendedData><Point><coordinates>1,1</coordinates></Point></Placemark></Document></kml>`
    expect(parseFile('kml', kml).rows[0]).toMatchObject({ name: '泵站', fields: {} })
  })
})

describe('multi-geometries and mixed files', () => {
  it('splits MultiPoint, MultiLineString and GeometryCollection into markers and keeps a MultiPolygon one area', () => {
    const { rows, summary } = parseFile('geojson', text('mixed-qgis.geojson'))
    expect(rows.map((r) => [r.row, r.name, r.type])).toEqual([
      [1, '一号水井', 0],
      [2, '巡检路线', 1],
      [3, '试验田', 3],
      [4, '监测点组-1', 0],
      [4, '监测点组-2', 0],
      [5, '支路-1', 1],
      [5, '支路-2', 1],
      [6, '站点与围栏-1', 0],
      [6, '站点与围栏-2', 3],
      [7, '两块地', 6],
    ])
    expect(summary).toEqual({ points: 4, lines: 3, areas: 3, no_geometry: 0, split: 3 })
  })

  it('reads gx:Track as a line and a mixed KML MultiGeometry as one marker per member', () => {
    const { rows, errors, summary } = parseFile('kml', text('mymaps.kml'))
    expect(errors).toEqual([])
    expect(rows.map((r) => [r.name, r.type])).toEqual([
      ['东门岗亭', 0],
      ['车辆轨迹', 1],
      ['取水点和管线-1', 0],
      ['取水点和管线-2', 1],
      ['厂区', 3],
    ])
    expect(rows[1].points.split('|')).toHaveLength(3)
    expect(rows[3].fields).toEqual({ description: '从取水点沿管线到泵房' })
    expect(summary).toEqual({ points: 2, lines: 2, areas: 1, no_geometry: 0, split: 1 })
  })

  it('says a placemark has no geometry, apart from empty coordinates', () => {
    const { rows, errors, summary } = parseFile('kml', text('no-geometry.kml'))
    expect(rows.map((r) => r.name)).toEqual(['有坐标'])
    expect(errors).toEqual([
      { row: 2, message: IMPORT_MSG.noGeometry },
      { row: 3, message: MAP_IO_MSG.importGeometryMissing },
    ])
    expect(summary).toMatchObject({ points: 1, no_geometry: 1 })
    expect(IMPORT_MSG.noGeometry).toBe('该地标没有几何数据')
  })

  it('counts every marker of a split record against the row cap', () => {
    const multi = JSON.stringify({
      type: 'Feature',
      properties: {},
      geometry: {
        type: 'MultiPoint',
        coordinates: [
          [1, 1],
          [2, 2],
          [3, 3],
        ],
      },
    })
    expect(parseFile('geojson', multi, 'wgs84', 2)).toEqual({ rows: [], errors: [], tooManyRows: true })
    expect(parseFile('geojson', multi, 'wgs84', 3).rows).toHaveLength(3)
  })
})

describe('encodings', () => {
  it('tells UTF-8 (with or without BOM), GBK and UTF-16 apart', () => {
    expect(detectEncoding(fixture('utf8-bom.csv'))).toBe('utf8')
    expect(detectEncoding(new TextEncoder().encode('名称,经度,纬度'))).toBe('utf8')
    expect(detectEncoding(fixture('gbk-excel.csv'))).toBe('gb18030')
    expect(detectEncoding(fixture('utf16le-bom.txt'))).toBe('utf16le')
    expect(detectEncoding(fixture('utf16be.csv'))).toBe('utf16be')
    expect(detectEncoding(iconv.encode('name,lng,lat\nA,1,1', 'utf16le'))).toBe('utf16le')
  })

  it('reads a GBK CSV saved by Excel with Chinese headers as its points', async () => {
    expect(decodeText(fixture('gbk-excel.csv'))).toContain('北京站')
    const { rows, errors } = await readImportFile('csv', { bytes: fixture('gbk-excel.csv') }, 'gcj02')
    expect(errors).toEqual([])
    expect(rows).toEqual([
      { row: 2, name: '北京站', type: 0, points: '116.427,39.903', radius: 0, fields: { 备注: '东广场' } },
      { row: 3, name: '天津站', type: 0, points: '117.21,39.136', radius: 0, fields: { 备注: '出站口,北' } },
    ])
  })

  it('reads UTF-16 (LE with BOM and tabs, BE without BOM) and UTF-8 with BOM', async () => {
    const name = async (file: string) => (await readImportFile('csv', { bytes: fixture(file) }, 'gcj02')).rows.map((r) => [r.name, r.points])
    expect(await name('utf16le-bom.txt')).toEqual([['上海站', '121.456,31.249']])
    expect(await name('utf16be.csv')).toEqual([['广州站', '113.257,23.149']])
    expect(await name('utf8-bom.csv')).toEqual([['深圳站', '114.117,22.532']])
  })

  it('reads a GBK KML by its bytes too', async () => {
    const kml = '<?xml version="1.0" encoding="GBK"?><kml><Document><Placemark><name>泵房</name><Point><coordinates>1,1</coordinates></Point></Placemark></Document></kml>'
    expect((await readImportFile('kml', { bytes: iconv.encode(kml, 'gbk') })).rows[0].name).toBe('泵房')
  })
})

describe('KMZ', () => {
  it('reads the doc.kml inside and ignores the icon files', async () => {
    const { rows, errors } = await readImportFile('kmz', { bytes: fixture('sample.kmz') })
    expect(errors).toEqual([])
    expect(rows.map((r) => [r.name, r.type, r.fields])).toEqual([
      ['西湖', 0, { description: '断桥残雪' }],
      ['苏堤', 1, {}],
    ])
  })

  it('calls a file that is no zip unreadable and a zip without KML so', async () => {
    expect((await readImportFile('kmz', { bytes: new TextEncoder().encode('not a zip') })).errors).toEqual([{ row: 0, message: MAP_MSG.importUnreadable }])
    const JSZip = (await import('jszip')).default
    const zip = new JSZip()
    zip.file('files/icon.png', 'x')
    const bytes = await zip.generateAsync({ type: 'uint8array' })
    expect((await readImportFile('kmz', { bytes })).errors).toEqual([{ row: 0, message: IMPORT_MSG.kmzNoKml }])
  })
})

describe('GPX', () => {
  it('reads waypoints as points, each track segment and each route as a line, with names and <desc> as the description', async () => {
    const { rows, errors } = await readImportFile('gpx', { bytes: fixture('track-2bulu.gpx') })
    expect(errors).toEqual([])
    const byName = (name: string) => rows.filter((r) => r.name.startsWith(name))
    expect(byName('一号检查井')).toMatchObject([{ type: 0, fields: { description: '井盖破损，需要更换', sym: 'Flag' } }])
    expect(byName('二号检查井')).toMatchObject([{ type: 0 }])
    // Two segments of one track: two lines, the first of three points.
    expect(byName('香山北线').map((r) => [r.type, r.points.split('|').length])).toEqual([
      [1, 3],
      [1, 2],
    ])
    expect(byName('返程路线').map((r) => r.type)).toEqual([1])
    expect(rows).toHaveLength(5)
  })

  it('calls a file that is not GPX unreadable', async () => {
    expect((await readImportFile('gpx', { text: '<kml><Document/></kml>' })).errors).toEqual([{ row: 0, message: MAP_MSG.importUnreadable }])
    expect((await readImportFile('gpx', { text: '<gpx><wpt lat="1" lon=' })).errors).toEqual([{ row: 0, message: MAP_MSG.importUnreadable }])
  })
})

describe('Excel', () => {
  it('reads the first sheet with 名称/经度/纬度 columns, other columns as fields, rows numbered as the spreadsheet shows them', async () => {
    const { rows, errors } = await readImportFile('xlsx', { bytes: fixture('points-excel.xlsx') })
    expect(errors).toEqual([])
    expect(rows.map((r) => [r.row, r.name, r.type, r.fields])).toEqual([
      [2, '一号阀门井', 0, { 备注: '东侧', 口径: '300' }],
      [3, '二号消火栓', 0, { 口径: '150' }],
      [5, '三号水表', 0, { 备注: '西门', 口径: '100' }],
    ])
  })

  it('reads lines and areas from a WKT column', async () => {
    const { rows, errors } = await readImportFile('xlsx', { bytes: fixture('wkt-excel.xlsx') })
    expect(errors).toEqual([])
    expect(rows.map((r) => [r.name, r.type])).toEqual([
      ['巡查线', 1],
      ['片区', 3],
    ])
  })

  it('says how to save an Excel 97-2003 file, and calls other bytes unreadable', async () => {
    const ole = new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0, 0, 0])
    expect((await readImportFile('xlsx', { bytes: ole })).errors).toEqual([{ row: 0, message: IMPORT_MSG.xlsOld }])
    expect((await readImportFile('xlsx', { bytes: new TextEncoder().encode('名称,经度,纬度') })).errors).toEqual([{ row: 0, message: MAP_MSG.importUnreadable }])
  })
})

describe('zipped Shapefile', () => {
  it('reads every .shp in the zip, decodes GBK attributes by the .cpg and reprojects from a CGCS2000 Gauss-Kruger .prj', async () => {
    const { rows, errors } = await readImportFile('shp', { bytes: fixture('wuhan-cgcs2000.zip') }, 'gcj02')
    expect(errors).toEqual([])
    expect(rows.map((r) => [r.name, r.type, r.fields])).toEqual([
      ['汉口一号井', 0, { 类型: '检查井', 埋深: '1.5' }],
      ['武昌二号阀', 0, { 类型: '阀门', 埋深: '2.25' }],
      ['试验地块', 3, {}],
    ])
    // The projected metres come back to longitude and latitude (kept as given with crs gcj02).
    expect(rows[0].points).toBe('114.2985,30.5928')
  })

  it('says what a zip needs when it holds no Shapefile', async () => {
    const JSZip = (await import('jszip')).default
    const zip = new JSZip()
    zip.file('readme.txt', '说明')
    const bytes = await zip.generateAsync({ type: 'uint8array' })
    expect((await readImportFile('shp', { bytes })).errors).toEqual([{ row: 0, message: IMPORT_MSG.shpUnreadable }])
    expect((await readImportFile('shp', { bytes: new TextEncoder().encode('not a zip') })).errors).toEqual([{ row: 0, message: IMPORT_MSG.shpUnreadable }])
  })
})

describe('tables of addresses', () => {
  const csv = '名称,地址,口径\n天安门,北京市东城区东长安街1号,300\n东门,北京市东城区东长安街1号,\n中关村,北京市海淀区中关村大街27号,150\n'

  it('answers the distinct addresses first, then places each row with the places given', () => {
    expect(parseFile('csv', csv)).toEqual({ rows: [], errors: [], addresses: ['北京市东城区东长安街1号', '北京市海淀区中关村大街27号'] })
    const placed = parseFile('csv', csv, 'wgs84', Infinity, { 北京市东城区东长安街1号: [116.403963, 39.915119], 北京市海淀区中关村大街27号: null })
    // Places are GCJ-02 whatever the file's crs: no conversion; the address stays a field value.
    expect(placed.rows).toEqual([
      { row: 2, name: '天安门', type: 0, points: '116.403963,39.915119', radius: 0, fields: { 地址: '北京市东城区东长安街1号', 口径: '300' } },
      { row: 3, name: '东门', type: 0, points: '116.403963,39.915119', radius: 0, fields: { 地址: '北京市东城区东长安街1号' } },
    ])
    expect(placed.errors).toEqual([{ row: 4, message: IMPORT_MSG.addressNotFound('北京市海淀区中关村大街27号') }])
  })

  it('prefers coordinates when a table has both, and still refuses a table with neither', () => {
    expect(parseFile('csv', '名称,地址,经度,纬度\n甲,某地,116.4,39.9\n', 'gcj02').rows[0]).toMatchObject({ points: '116.4,39.9', fields: { 地址: '某地' } })
    expect(parseFile('csv', '名称,备注\n甲,乙\n').errors).toEqual([{ row: 0, message: MAP_IO_MSG.importColumnsMissing }])
  })
})

describe('polygon holes', () => {
  const outer = [
    [116.39, 39.9],
    [116.4, 39.9],
    [116.4, 39.91],
    [116.39, 39.91],
    [116.39, 39.9],
  ]
  const hole = [
    [116.394, 39.904],
    [116.396, 39.904],
    [116.396, 39.906],
    [116.394, 39.904],
  ]
  const stored = '116.39,39.9|116.4,39.9|116.4,39.91|116.39,39.91#116.394,39.904|116.396,39.904|116.396,39.906'
  const kmlRing = (ring: number[][]) => `<LinearRing><coordinates>${ring.map((p) => p.join(',')).join(' ')}</coordinates></LinearRing>`

  it('keeps the inner rings of GeoJSON, KML and WKT polygons as holes', () => {
    const geojson = JSON.stringify({ type: 'Feature', properties: { name: '田' }, geometry: { type: 'Polygon', coordinates: [outer, hole] } })
    const kml = `<kml><Placemark><name>田</name><Polygon><outerBoundaryIs>${kmlRing(outer)}</outerBoundaryIs><innerBoundaryIs>${kmlRing(hole)}</innerBoundaryIs></Polygon></Placemark></kml>`
    const wkt = `name,wkt\n田,"POLYGON ((${outer.map((p) => p.join(' ')).join(', ')}), (${hole.map((p) => p.join(' ')).join(', ')}))"\n`
    for (const [format, text] of [
      ['geojson', geojson],
      ['kml', kml],
      ['csv', wkt],
    ] as const) {
      const { rows, errors } = parseFile(format, text, 'gcj02')
      expect([format, errors]).toEqual([format, []])
      expect([format, rows[0].type, rows[0].points]).toEqual([format, 3, stored])
    }
    // A MultiPolygon keeps each part's own holes.
    const multi = JSON.stringify({ type: 'Feature', properties: {}, geometry: { type: 'MultiPolygon', coordinates: [[outer, hole], [outer.map(([x, y]) => [x + 0.1, y])]] } })
    expect(parseFile('geojson', multi, 'gcj02').rows[0].points).toBe(`${stored};116.49,39.9|116.5,39.9|116.5,39.91|116.49,39.91`)
  })

  it('writes the holes back as inner rings in every format that has them', async () => {
    const marker: ExportMarker = { name: '田', type: 3, points: stored, radius: 0, fields: {} }
    for (const format of ['geojson', 'kml', 'csv'] as const) {
      const back = parseFile(format, serializeFile(format, [marker], { crs: 'gcj02' }), 'gcj02')
      expect([format, back.rows[0]?.points]).toEqual([format, stored])
    }
    // GPX has no areas: the hole's outline is a segment of the area's track.
    const gpx = await exportFile('gpx', '田', [marker], { crs: 'gcj02' })
    expect(gpx.content.match(/<trkseg>/g)).toHaveLength(2)
  })
})

describe('export to KMZ, GPX and Excel', () => {
  const markers: ExportMarker[] = [
    { name: '泵站', type: 0, points: '116.397428,39.90923', radius: 0, fields: { description: '东门', 口径: 300 } },
    { name: '巡线', type: 1, points: '116.39,39.9|116.4,39.91', radius: 0, fields: {} },
    { name: '片区', type: 3, points: '116.39,39.9|116.4,39.9|116.4,39.91', radius: 0, fields: { description: '一号片区' } },
    { name: '禁区', type: 5, points: '116.41,39.92', radius: 150, fields: {} },
  ]
  const bytes = (file: { content: string; encoding?: string }) => new Uint8Array(Buffer.from(file.content, file.encoding === 'base64' ? 'base64' : 'utf8'))

  it('writes a KMZ of doc.kml that imports back to the same markers', async () => {
    const file = await exportFile('kmz', '外业/点位', markers, { crs: 'gcj02', fieldNames: ['description', '口径'], title: '点位' })
    expect(file).toMatchObject({ filename: '外业_点位.kmz', mime: 'application/vnd.google-earth.kmz', encoding: 'base64' })
    const back = await readImportFile('kmz', { bytes: bytes(file) }, 'gcj02')
    expect(back.errors).toEqual([])
    expect(back.rows.map((r) => [r.name, r.type, r.points, r.radius])).toEqual(markers.map((m) => [m.name, m.type, m.points, m.radius]))
    expect(back.rows[0].fields).toEqual({ description: '东门', 口径: '300' })
  })

  it('writes GPX waypoints for points and circles, tracks for lines and closed areas, that read back', async () => {
    const file = await exportFile('gpx', '点位', markers, { crs: 'gcj02' })
    expect(file.mime).toBe('application/gpx+xml')
    expect(file.content).toContain('<desc>半径150米</desc>')
    expect(file.content).toContain('<type>面</type>')
    const back = await readImportFile('gpx', { text: file.content }, 'gcj02')
    expect(back.errors).toEqual([])
    const byName = Object.fromEntries(back.rows.map((r) => [r.name, r]))
    expect(byName['泵站']).toMatchObject({ type: 0, points: '116.397428,39.90923', fields: { description: '东门' } })
    expect(byName['巡线']).toMatchObject({ type: 1, points: '116.39,39.9|116.4,39.91' })
    // The area's ring comes back closed as a track: a line along its outline.
    expect(byName['片区'].points).toBe('116.39,39.9|116.4,39.9|116.4,39.91|116.39,39.9')
    expect(byName['禁区']).toMatchObject({ type: 0, points: '116.41,39.92' })
  })

  it('writes an Excel workbook of the same table as CSV, numbers as numbers, that imports back', async () => {
    const file = await exportFile('xlsx', '点位', [markers[0]], { crs: 'gcj02', fieldNames: ['description', '口径'] })
    expect(file).toMatchObject({ filename: '点位.xlsx', encoding: 'base64' })
    const { readSheet } = await import('read-excel-file/node')
    expect(await readSheet(Buffer.from(file.content, 'base64'))).toEqual([
      ['name', 'lng', 'lat', 'description', '口径'],
      ['泵站', 116.397428, 39.90923, '东门', 300],
    ])
    const back = await readImportFile('xlsx', { bytes: bytes(file) }, 'gcj02')
    expect(back.rows).toMatchObject([{ name: '泵站', type: 0, points: '116.397428,39.90923', fields: { description: '东门', 口径: '300' } }])
    // Lines and areas go as a WKT table and read back too.
    const all = await exportFile('xlsx', '全部', markers, { crs: 'gcj02' })
    expect((await readImportFile('xlsx', { bytes: bytes(all) }, 'gcj02')).rows.map((r) => [r.name, r.type])).toEqual(markers.map((m) => [m.name, m.type]))
  })
})

describe('CSV export against formulas', () => {
  it('prefixes cells that a spreadsheet would run, and leaves numbers alone', () => {
    expect(safeCell('=HYPERLINK("http://x","点我")')).toBe(`'=HYPERLINK("http://x","点我")`)
    expect(safeCell('+86 138')).toBe(`'+86 138`)
    expect(safeCell('-危险')).toBe(`'-危险`)
    expect(safeCell('@SUM(A1)')).toBe(`'@SUM(A1)`)
    expect(safeCell('-12.5')).toBe('-12.5')
    expect(safeCell(-33.8)).toBe('-33.8')
    expect(safeCell('水井')).toBe('水井')
  })

  it('round-trips names, fields and negative coordinates through a CSV file', () => {
    const markers: ExportMarker[] = [
      { name: '=cmd|calc', type: 0, points: '-70.6483,-33.4569', radius: 0, fields: { 备注: '@risk', 温度: '-5' } },
      { name: '悉尼', type: 0, points: '151.2093,-33.8688', radius: 0, fields: { 备注: '+1', 温度: '22' } },
    ]
    const csv = serializeFile('csv', markers, { crs: 'gcj02', fieldNames: ['备注', '温度'] })
    expect(csv).toContain(`'=cmd|calc,-70.6483,-33.4569,'@risk,-5`)
    const { rows } = parseFile('csv', csv, 'gcj02')
    expect(rows.map((r) => [r.name, r.points, r.fields])).toEqual([
      ['=cmd|calc', '-70.6483,-33.4569', { 备注: '@risk', 温度: '-5' }],
      ['悉尼', '151.2093,-33.8688', { 备注: '+1', 温度: '22' }],
    ])
  })
})
