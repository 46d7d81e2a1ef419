/** /api/marker/import and /api/marker/export: GeoJSON, KML and CSV of a layer. */
import { IMPORT_MSG } from '../../src/domain/importMessages'
import { ErrCode } from '../../types/api'
import { IMPORT_MAX_ROWS } from '../../src/domain/constants'
import { MAP_IO_MSG, MAP_MSG, MAP_UI_MSG, MSG } from '../../src/domain/messages'
import { PERM } from '../../src/domain/permissions'
import { expectOk, grant, makeLayer, makeMarker, makeTeam, rowCount, setMarkerLimit, type Team } from './mapdata-fixture'

let team: Team
let pointLayer: number
beforeEach(async () => {
  team = await makeTeam()
  pointLayer = await makeLayer(team.t, team.owner, '水井')
})
afterEach(() => team.t.close())

const importInto = (layer_id: number, format: string, content: string, extra: object = {}, auth = team.owner) => team.t.call('/api/marker/import', { layer_id, format, content, ...extra }, auth)
const exportOf = (layer_id: number, format: string, extra: object = {}, auth = team.owner) => team.t.call('/api/marker/export', { layer_id, format, ...extra }, auth)
const markersOf = async (layerId: number) => expectOk(await team.t.call('/api/marker/getlist', { layer_ids: [layerId], pageindex: 1, pagesize: 5000 }, team.owner)).list

const point = (lng: number, lat: number, properties: object = {}) => ({ type: 'Feature', properties, geometry: { type: 'Point', coordinates: [lng, lat] } })
const collection = (features: object[]) => JSON.stringify({ type: 'FeatureCollection', features })

describe('/api/marker/import', () => {
  it('should import points from WGS-84 as stored GCJ-02 with field values by name', async () => {
    const { t, owner } = team
    const depth = expectOk(await t.call('/api/layer/field/save', { layer_id: pointLayer, name: '深度', kind: 'number' }, owner))
    const res = await importInto(pointLayer, 'geojson', collection([point(116.404, 39.915, { name: '天安门', 深度: '12.5', 无关: 'x' })]))
    expect(res).toMatchObject({ errcode: 0, data: { imported: 1, errors: [], invalid_rows: 0, message: MAP_MSG.importOk(1) } })
    const [marker] = await markersOf(pointLayer)
    expect(marker).toMatchObject({ name: '天安门', type: 0, points: '116.4102445,39.9164043', fields: { [depth.id]: 12.5 }, creator_id: owner.userid, style: { color: '#165DFF', size: 32 } })
  })

  it('should take coordinates as they are when the file says gcj02', async () => {
    expectOk(await importInto(pointLayer, 'csv', 'name,lng,lat\nA,116.404,39.915', { crs: 'gcj02' }))
    expect((await markersOf(pointLayer))[0].points).toBe('116.404,39.915')
  })

  it('should import nothing when any row is bad and name every bad row with its reason', async () => {
    const { t, owner } = team
    expectOk(await t.call('/api/layer/field/save', { layer_id: pointLayer, name: '深度', kind: 'number' }, owner))
    const csv = ['name,lng,lat,深度', 'ok,116.4,39.9,1', 'bad lng,abc,39.9,1', 'far,200,39.9,1', 'depth,116.4,39.9,很深', 'ok2,116.41,39.91,'].join('\n')
    const res = await importInto(pointLayer, 'csv', csv)
    expect(res.errcode).toBe(0)
    expect(res.data).toEqual({
      imported: 0,
      errors: [
        // CSV rows are numbered as a spreadsheet shows them: the header is row 1.
        { row: 3, message: MAP_MSG.vertexInvalid(1) },
        { row: 4, message: MAP_MSG.lngRange(1) },
        { row: 5, message: MAP_MSG.fieldNumber('深度') },
      ],
      invalid_rows: 3,
      message: MAP_MSG.importRowsInvalid(3),
      summary: { points: 5, lines: 0, areas: 0, no_geometry: 0, split: 0 },
      layers: [],
    })
    expect(await rowCount(team.t, 'markers')).toBe(0)
  })

  it('should put kinds the layer cannot hold into a new sibling layer of their kind, and keep rectangles and circles in an area layer', async () => {
    const line = {
      type: 'Feature',
      properties: { name: '路' },
      geometry: {
        type: 'LineString',
        coordinates: [
          [116.4, 39.9],
          [116.5, 39.9],
        ],
      },
    }
    const res = expectOk(await importInto(pointLayer, 'geojson', collection([point(116.4, 39.9), line]), { file_name: '勘察.geojson' }))
    expect(res).toMatchObject({
      imported: 2,
      errors: [],
      layers: [
        { id: pointLayer, imported: 1, created: false },
        { name: '勘察-线', type: 2, imported: 1, created: true },
      ],
    })
    const areaLayer = await makeLayer(team.t, team.owner, '地块', 3)
    const area = {
      type: 'Feature',
      properties: { kind: 'rectangle' },
      geometry: {
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
    }
    expect(expectOk(await importInto(areaLayer, 'geojson', collection([area, point(116.4, 39.9, { radius: 100 })]))).imported).toBe(2)
    expect((await markersOf(areaLayer)).map((m: any) => m.type)).toEqual([4, 5])
  })

  it('should answer whole-file problems as errors', async () => {
    expect(await importInto(pointLayer, 'geojson', '{oops')).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: MAP_MSG.importUnreadable })
    expect(await importInto(pointLayer, 'kml', '<kml><Document/></kml>')).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: MAP_MSG.importEmpty })
    expect(await importInto(pointLayer, 'csv', 'name,remark\nA,北京')).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: MAP_IO_MSG.importColumnsMissing })
    // Addresses alone need the geocoder, which this server has not (test/server/geocode.test.ts places them).
    expect(await importInto(pointLayer, 'csv', 'name,address\nA,北京')).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: IMPORT_MSG.geocodeUnavailable })
    expect(await importInto(pointLayer, 'csv', '')).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: MAP_MSG.importEmpty })
    expect(await importInto(pointLayer, 'dwg', 'x')).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: MAP_UI_MSG.importFormatUnknown })
    const folder = await makeLayer(team.t, team.owner, '文件夹', 0)
    expect(await importInto(folder, 'csv', 'name,lng,lat\nA,1,1')).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: MAP_MSG.folderCannotHoldMarkers })
  })

  it('should hold the marker limit: what is there plus the file may not pass it', async () => {
    await setMarkerLimit(team, 3)
    await makeMarker(team.t, team.owner, pointLayer)
    const three = collection([point(116.4, 39.9), point(116.41, 39.9), point(116.42, 39.9)])
    expect(await importInto(pointLayer, 'geojson', three)).toMatchObject({ errcode: ErrCode.LIMIT_REACHED, errmsg: MAP_MSG.markerLimit(3) })
    expect(await rowCount(team.t, 'markers')).toBe(1)
    expect(expectOk(await importInto(pointLayer, 'geojson', collection([point(116.4, 39.9), point(116.41, 39.9)]))).imported).toBe(2)
  })

  it('should record one log entry for the whole import', async () => {
    expectOk(await importInto(pointLayer, 'csv', 'name,lng,lat\nA,116.4,39.9\nB,116.5,39.9'))
    const log = expectOk(await team.t.call('/api/oplog/getlist', {}, team.owner))
    expect(log.list[0]).toMatchObject({ entity: 'layer', entity_id: pointLayer, action: 'update', before: { marker_count: 0 }, after: { marker_count: 2 } })
    expect(log.total).toBe(2)
  })

  it('should import 10,000 points in one go (the most one import takes)', async () => {
    await setMarkerLimit(team, 20_000)
    const features = Array.from({ length: IMPORT_MAX_ROWS }, (_, i) => point(116 + (i % 100) / 100, 39 + Math.floor(i / 100) / 100, { name: `点${i + 1}` }))
    const content = collection(features)
    expect(content.length).toBeGreaterThan(1024 * 1024)
    const res = await importInto(pointLayer, 'geojson', content)
    expect(res).toMatchObject({ errcode: 0, data: { imported: 10_000 } })
    expect(await rowCount(team.t, 'markers')).toBe(10_000)
    // The imported bounds are indexed: WGS-84 116.00-116.01 x 39.00-39.01 lie about 600 m east in GCJ-02.
    const hits = expectOk(await team.t.call('/api/marker/search', { layer_ids: [pointLayer], bbox: [115.99, 38.99, 116.02, 39.02], pageindex: 1, pagesize: 100 }, team.owner))
    expect(hits.list.map((m: any) => m.name).sort()).toEqual(['点1', '点101', '点102', '点2'])
  }, 60_000)
})

describe('/api/marker/export', () => {
  it.each(['geojson', 'kml', 'csv'])('should export a layer as %s and import it back into another layer unchanged', async (format) => {
    const { t, owner } = team
    const depth = expectOk(await t.call('/api/layer/field/save', { layer_id: pointLayer, name: '深度', kind: 'number' }, owner))
    const photos = expectOk(await t.call('/api/layer/field/save', { layer_id: pointLayer, name: '照片', kind: 'photo' }, owner))
    const photoUrls = ['/files/1/0123456789abcdef0123456789abcdef.jpg', '/files/1/abcdef0123456789abcdef0123456789.png']
    await makeMarker(t, owner, pointLayer, { name: '1号井', points: '116.4102445,39.9164043', fields: { [depth.id]: 12.5, [photos.id]: photoUrls } })
    await makeMarker(t, owner, pointLayer, { name: '2号井, "北"', points: '121.4737,31.2304' })

    const file = expectOk(await exportOf(pointLayer, format))
    expect(file.filename).toBe(`水井.${format}`)
    expect(file.mime).toBe({ geojson: 'application/geo+json', kml: 'application/vnd.google-earth.kml+xml', csv: 'text/csv' }[format])

    const copy = await makeLayer(t, owner, '水井副本')
    const copyDepth = expectOk(await t.call('/api/layer/field/save', { layer_id: copy, name: '深度', kind: 'number' }, owner))
    const copyPhotos = expectOk(await t.call('/api/layer/field/save', { layer_id: copy, name: '照片', kind: 'photo' }, owner))
    expect(expectOk(await importInto(copy, format, file.content))).toMatchObject({ imported: 2, errors: [] })

    const original = await markersOf(pointLayer)
    const copied = await markersOf(copy)
    expect(copied.map((m: any) => [m.name, m.type])).toEqual(original.map((m: any) => [m.name, m.type]))
    copied.forEach((m: any, i: number) => {
      const [a, b] = [m.points, original[i].points].map((p: string) => p.split(',').map(Number))
      expect(Math.abs(a[0] - b[0])).toBeLessThan(2e-7)
      expect(Math.abs(a[1] - b[1])).toBeLessThan(2e-7)
    })
    expect(copied[0].fields).toEqual({ [copyDepth.id]: 12.5, [copyPhotos.id]: photoUrls })
  })

  it('should write WGS-84 by default and GCJ-02 when asked', async () => {
    await makeMarker(team.t, team.owner, pointLayer, { points: '116.4102445,39.9164043' })
    const wgs = JSON.parse(expectOk(await exportOf(pointLayer, 'geojson')).content).features[0].geometry.coordinates
    expect(wgs[0]).toBeCloseTo(116.404, 6)
    expect(wgs[1]).toBeCloseTo(39.915, 6)
    const gcj = JSON.parse(expectOk(await exportOf(pointLayer, 'geojson', { crs: 'gcj02' })).content).features[0].geometry.coordinates
    expect(gcj).toEqual([116.4102445, 39.9164043])
  })

  it('should export every kind of an area layer', async () => {
    const areaLayer = await makeLayer(team.t, team.owner, '地块', 3)
    await makeMarker(team.t, team.owner, areaLayer, { type: 3, points: '116.4,39.9|116.5,39.9|116.5,40' })
    await makeMarker(team.t, team.owner, areaLayer, { type: 4, points: '116.4,39.9|116.5,40' })
    await makeMarker(team.t, team.owner, areaLayer, { type: 5, points: '116.4,39.9', radius: 250 })
    await makeMarker(team.t, team.owner, areaLayer, { type: 6, points: '116.4,39.9|116.5,39.9|116.5,40;116.6,39.9|116.7,39.9|116.7,40' })
    const csv = expectOk(await exportOf(areaLayer, 'csv')).content
    expect(csv.split('\r\n').map((line: string) => line.split(',')[1])).toEqual(['kind', 'polygon', 'rectangle', 'circle', 'multi_polygon'])
  })
})

describe('import and export permissions', () => {
  it('should refuse a plain member without layer_import or layer_export and write nothing', async () => {
    const { t, member } = team
    await grant(team, pointLayer, member, [PERM.MARKER_ADD])
    const forbidden = { errcode: ErrCode.FORBIDDEN, errmsg: MSG.forbidden }
    expect(await importInto(pointLayer, 'csv', 'name,lng,lat\nA,1,1', {}, member)).toMatchObject(forbidden)
    expect(await exportOf(pointLayer, 'csv', {}, member)).toMatchObject(forbidden)
    await grant(team, pointLayer, member, [PERM.LAYER_IMPORT, PERM.LAYER_EXPORT])
    expect(expectOk(await importInto(pointLayer, 'csv', 'name,lng,lat\nA,1,1', {}, member)).imported).toBe(1)
    expect(expectOk(await exportOf(pointLayer, 'csv', {}, member)).content).toContain('A,1,1')
    expect(await rowCount(t, 'markers')).toBe(1)
  })

  it("should keep another group from importing into or exporting this group's layers", async () => {
    const { outsider } = team
    await makeMarker(team.t, team.owner, pointLayer, { name: '机密' })
    expect(await importInto(pointLayer, 'csv', 'name,lng,lat\nA,1,1', {}, outsider)).toMatchObject({ errcode: ErrCode.NOT_FOUND })
    expect(await exportOf(pointLayer, 'csv', {}, outsider)).toMatchObject({ errcode: ErrCode.NOT_FOUND, data: null })
    expect(await rowCount(team.t, 'markers')).toBe(1)
  })

  it('should require a session', async () => {
    expect((await team.t.call('/api/marker/import', { layer_id: pointLayer, format: 'csv', content: 'x' })).status).toBe(401)
    expect((await team.t.call('/api/marker/export', { layer_id: pointLayer, format: 'csv' })).status).toBe(401)
  })
})
