/**
 * /api/marker/import with files as other tools write them (test/fixtures/import), sent as the app
 * sends a picked file: its bytes as base64 with the file's name. Mixed kinds go to layers of their
 * kind, descriptions to a field or a note, encodings and KMZ are read, all in one transaction.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import iconv from 'iconv-lite'
import { ErrCode } from '../../types/api'
import type { Layer } from '../../types/mapdata'
import type { SyncChange } from '../../types/sync'
import { IMPORT_MAX_BYTES } from '../../src/domain/formats'
import { MAP_IO_MSG, MAP_MSG } from '../../src/domain/messages'
import { PERM } from '../../src/domain/permissions'
import { expectOk, grant, makeLayer, makeTeam, rowCount, setMarkerLimit, type Team } from './mapdata-fixture'
import { IMPORT_MSG } from '../../src/domain/importMessages'

let team: Team
let pointLayer: number
let folder: number
beforeEach(async () => {
  team = await makeTeam()
  folder = await makeLayer(team.t, team.owner, '外业', 0)
  pointLayer = await makeLayer(team.t, team.owner, '点位', 1, folder)
})
afterEach(() => team.t.close())

const bytes = (name: string) => readFileSync(join(__dirname, '../fixtures/import', name))
const importBytes = (layer_id: number, format: string, file: Buffer | Uint8Array, file_name: string, auth = team.owner, extra: object = {}) =>
  team.t.call('/api/marker/import', { layer_id, format, content: Buffer.from(file).toString('base64'), encoding: 'base64', file_name, ...extra }, auth)
const markersOf = async (layerId: number) => expectOk(await team.t.call('/api/marker/getlist', { layer_ids: [layerId], pageindex: 1, pagesize: 5000 }, team.owner)).list
const layers = async (): Promise<Layer[]> => expectOk(await team.t.call('/api/layer/getlist', {}, team.owner))
const notesOf = async (markerid: number) => expectOk(await team.t.call('/api/marker/note/getlist', { markerid }, team.owner))

describe('a mixed file', () => {
  it('imports each kind into a layer of its kind: the chosen one and new siblings named after the file', async () => {
    const res = expectOk(await importBytes(pointLayer, 'geojson', bytes('mixed-qgis.geojson'), '外业调查.geojson'))
    expect(res.summary).toEqual({ points: 4, lines: 3, areas: 3, no_geometry: 0, split: 3 })
    expect(res.imported).toBe(10)
    expect(res.layers).toEqual([
      { id: pointLayer, name: '点位', type: 1, imported: 4, created: false },
      { id: expect.any(Number), name: '外业调查-线', type: 2, imported: 3, created: true },
      { id: expect.any(Number), name: '外业调查-面', type: 3, imported: 3, created: true },
    ])
    const [, lineLayer, areaLayer] = res.layers
    // Siblings: in the chosen layer's folder.
    const all = await layers()
    expect(all.filter((l) => l.parent_id === folder).map((l) => l.name)).toEqual(expect.arrayContaining(['点位', '外业调查-线', '外业调查-面']))
    expect((await markersOf(pointLayer)).map((m: any) => m.name)).toEqual(['一号水井', '监测点组-1', '监测点组-2', '站点与围栏-1'])
    expect((await markersOf(lineLayer.id)).map((m: any) => [m.name, m.type])).toEqual([
      ['巡检路线', 1],
      ['支路-1', 1],
      ['支路-2', 1],
    ])
    expect((await markersOf(areaLayer.id)).map((m: any) => [m.name, m.type])).toEqual([
      ['试验田', 3],
      ['站点与围栏-2', 3],
      ['两块地', 6],
    ])
    // One log entry per layer written, besides the new layers' own.
    const log = expectOk(await team.t.call('/api/oplog/getlist', {}, team.owner))
    expect(log.list.filter((e: any) => e.entity === 'layer' && e.action === 'update').map((e: any) => e.after.marker_count)).toEqual(expect.arrayContaining([4, 3, 3]))
  })

  it('imports nothing and makes no layer when one row of any kind is bad', async () => {
    const mixed = JSON.stringify({
      type: 'FeatureCollection',
      features: [
        { type: 'Feature', properties: { name: 'ok' }, geometry: { type: 'Point', coordinates: [116.4, 39.9] } },
        { type: 'Feature', properties: { name: '线' }, geometry: { type: 'LineString', coordinates: [[116.4, 39.9]] } },
      ],
    })
    const res = expectOk(await importBytes(pointLayer, 'geojson', Buffer.from(mixed), '坏.geojson'))
    expect(res).toMatchObject({ imported: 0, errors: [{ row: 2, message: MAP_MSG.lineNeedsTwo }], layers: [], summary: { points: 1, lines: 1 } })
    expect(await rowCount(team.t, 'markers')).toBe(0)
    expect((await layers()).map((l) => l.name).sort()).toEqual(['外业', '点位'].sort())
  })

  it('checks the group room against every kind of the file before writing any', async () => {
    await setMarkerLimit(team, 9)
    const res = await importBytes(pointLayer, 'geojson', bytes('mixed-qgis.geojson'), '外业调查.geojson')
    expect(res).toMatchObject({ errcode: ErrCode.LIMIT_REACHED, errmsg: MAP_MSG.markerLimit(9) })
    expect(await rowCount(team.t, 'markers')).toBe(0)
    expect(await layers()).toHaveLength(2)
  })

  it('refuses the whole import when the caller may import but not make the sibling layer', async () => {
    await grant(team, pointLayer, team.member, [PERM.LAYER_IMPORT, PERM.MARKER_ADD])
    const res = await importBytes(pointLayer, 'geojson', bytes('mixed-qgis.geojson'), '外业调查.geojson', team.member)
    expect(res.errcode).toBe(ErrCode.FORBIDDEN)
    expect(await rowCount(team.t, 'markers')).toBe(0)
    // The same member imports a file of the layer's own kind.
    const csv = Buffer.from('名称,经度,纬度\n泵站,116.4,39.9')
    expect(expectOk(await importBytes(pointLayer, 'csv', csv, '泵站.csv', team.member)).imported).toBe(1)
  })

  it('tells the clients of every marker and note written', async () => {
    const { seq } = expectOk(await team.t.call('/api/sync/changes', { since: 0 }, team.owner))
    const res = expectOk(await importBytes(pointLayer, 'kml', bytes('mymaps.kml'), 'mymaps.kml'))
    const changes: SyncChange[] = expectOk(await team.t.call('/api/sync/changes', { since: seq, limit: 500 }, team.owner)).changes
    const markerIds = changes.filter((c) => c.kind === 'marker').map((c) => c.id)
    expect(markerIds).toHaveLength(res.imported)
    expect(changes.filter((c) => c.kind === 'note')).toHaveLength(res.notes)
    expect(changes.filter((c) => c.kind === 'layer').map((c) => c.id)).toEqual(expect.arrayContaining(res.layers.filter((l: any) => l.created).map((l: any) => l.id)))
  })
})

describe('descriptions', () => {
  it('go into the layer field named description when there is one', async () => {
    const field = expectOk(await team.t.call('/api/layer/field/save', { layer_id: pointLayer, name: 'description', kind: 'text' }, team.owner))
    const res = expectOk(await importBytes(pointLayer, 'kml', bytes('mymaps.kml'), 'mymaps.kml'))
    // Only the pipe line's description, in the new line layer that has no such field, is a note.
    expect(res.notes).toBe(1)
    const [gate] = await markersOf(pointLayer)
    expect(gate).toMatchObject({ name: '东门岗亭', fields: { [field.id]: '值班电话 010-12345678<br>夜间锁门' } })
    expect(await notesOf(gate.id)).toEqual([])
  })

  it('become the marker note when the layer has no such field, in the same import', async () => {
    const res = expectOk(await importBytes(pointLayer, 'kml', bytes('mymaps.kml'), 'mymaps.kml'))
    // 东门岗亭 in the chosen layer; the MultiGeometry's point and line both carry theirs.
    expect(res.notes).toBe(3)
    const [gate] = await markersOf(pointLayer)
    expect((await notesOf(gate.id)).map((n: any) => [n.content, n.user_id])).toEqual([['值班电话 010-12345678<br>夜间锁门', team.owner.userid]])
    const lineLayer = res.layers.find((l: any) => l.type === 2)
    const [track, pipe] = await markersOf(lineLayer.id)
    expect(track.name).toBe('车辆轨迹')
    expect(await notesOf(track.id)).toEqual([])
    expect((await notesOf(pipe.id)).map((n: any) => n.content)).toEqual(['从取水点沿管线到泵房'])
  })

  it('too long for a note refuse their row and say why', async () => {
    const kml = `<kml><Document><Placemark><name>长</name><description>${'字'.repeat(2001)}</description><Point><coordinates>116.4,39.9</coordinates></Point></Placemark></Document></kml>`
    const res = expectOk(await importBytes(pointLayer, 'kml', Buffer.from(kml), '长.kml'))
    expect(res).toMatchObject({ imported: 0, errors: [{ row: 1, message: IMPORT_MSG.descriptionTooLong(2000) }] })
    expect(await rowCount(team.t, 'notes')).toBe(0)
  })
})

describe('encodings and KMZ', () => {
  it('imports a GBK CSV saved by Excel with Chinese headers', async () => {
    const res = expectOk(await importBytes(pointLayer, 'csv', bytes('gbk-excel.csv'), '车站.csv', team.owner, { crs: 'gcj02' }))
    expect(res).toMatchObject({ imported: 2, errors: [] })
    expect((await markersOf(pointLayer)).map((m: any) => [m.name, m.points])).toEqual([
      ['北京站', '116.427,39.903'],
      ['天津站', '117.21,39.136'],
    ])
  })

  it('imports UTF-16 text files and UTF-8 with BOM', async () => {
    expect(expectOk(await importBytes(pointLayer, 'csv', bytes('utf16le-bom.txt'), '上海.txt')).imported).toBe(1)
    expect(expectOk(await importBytes(pointLayer, 'csv', bytes('utf16be.csv'), '广州.csv')).imported).toBe(1)
    expect(expectOk(await importBytes(pointLayer, 'csv', bytes('utf8-bom.csv'), '深圳.csv')).imported).toBe(1)
    expect((await markersOf(pointLayer)).map((m: any) => m.name)).toEqual(['上海站', '广州站', '深圳站'])
  })

  it('imports a GBK file large enough to be parsed off the main thread', async () => {
    const lines = ['名称,经度,纬度', ...Array.from({ length: 9000 }, (_, i) => `测站${i + 1},${116 + (i % 90) / 100},${39 + Math.floor(i / 90) / 100}`)]
    const file = iconv.encode(lines.join('\r\n'), 'gbk')
    // Its base64 is past the 256 KB body that the main thread parses itself.
    expect(file.toString('base64').length).toBeGreaterThan(256 * 1024)
    await setMarkerLimit(team, 20_000)
    const res = expectOk(await importBytes(pointLayer, 'csv', file, '测站.csv'))
    expect(res.imported).toBe(9000)
    expect(await rowCount(team.t, 'markers')).toBe(9000)
    expect((await markersOf(pointLayer)).slice(0, 2).map((m: any) => m.name)).toEqual(['测站1', '测站2'])
  }, 60_000)

  it('imports the KML inside a KMZ into layers of its kinds', async () => {
    const res = expectOk(await importBytes(pointLayer, 'kmz', bytes('sample.kmz'), '杭州.kmz'))
    expect(res).toMatchObject({
      imported: 2,
      notes: 1,
      summary: { points: 1, lines: 1 },
      layers: [
        { id: pointLayer, imported: 1 },
        { name: '杭州-线', imported: 1 },
      ],
    })
  })

  it('imports a GPX track log: waypoints into the point layer, segments and routes into a new line layer', async () => {
    const res = expectOk(await importBytes(pointLayer, 'gpx', bytes('track-2bulu.gpx'), '香山巡线.gpx'))
    expect(res).toMatchObject({
      imported: 5,
      summary: { points: 2, lines: 3 },
      layers: [
        { id: pointLayer, imported: 2 },
        { name: '香山巡线-线', imported: 3 },
      ],
    })
    expect((await markersOf(pointLayer)).map((m: any) => m.name)).toEqual(['一号检查井', '二号检查井'])
  }, 60_000)

  it('imports the first sheet of an Excel workbook, and refuses one sent as text or saved as Excel 97-2003', async () => {
    const res = expectOk(await importBytes(pointLayer, 'xlsx', bytes('points-excel.xlsx'), '阀门.xlsx'))
    expect(res).toMatchObject({ imported: 3, layers: [{ id: pointLayer, imported: 3 }] })
    expect((await markersOf(pointLayer)).map((m: any) => m.name)).toEqual(['一号阀门井', '二号消火栓', '三号水表'])
    expect(await team.t.call('/api/marker/import', { layer_id: pointLayer, format: 'xlsx', content: 'PK' }, team.owner)).toMatchObject({
      errcode: ErrCode.VALIDATION,
      errmsg: MAP_MSG.importUnreadable,
    })
    const ole = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0])
    expect(await importBytes(pointLayer, 'xlsx', ole, '旧.xls')).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: IMPORT_MSG.xlsOld })
    expect(await rowCount(team.t, 'markers')).toBe(3)
  }, 60_000)

  it('imports a zipped Shapefile in a projected CRS: points here, its areas into a new area layer', async () => {
    const res = expectOk(await importBytes(pointLayer, 'shp', bytes('wuhan-cgcs2000.zip'), '武汉管网.zip'))
    expect(res).toMatchObject({
      imported: 3,
      summary: { points: 2, areas: 1 },
      layers: [
        { id: pointLayer, imported: 2 },
        { name: '武汉管网-面', imported: 1 },
      ],
    })
    // WGS-84 from the .prj, stored as GCJ-02: a few hundred metres east and south of the file's place.
    const [first] = await markersOf(pointLayer)
    const [lng, lat] = first.points.split(',').map(Number)
    expect(lng).toBeCloseTo(114.2985 + 0.0054, 2)
    expect(lat).toBeCloseTo(30.5928 - 0.0025, 2)
  }, 60_000)

  it('refuses a KMZ sent as text, a damaged one, and bytes past the size limit', async () => {
    expect(await team.t.call('/api/marker/import', { layer_id: pointLayer, format: 'kmz', content: 'PK' }, team.owner)).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: MAP_MSG.importUnreadable })
    expect(await importBytes(pointLayer, 'kmz', Buffer.from('not a zip'), 'x.kmz')).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: MAP_MSG.importUnreadable })
    const big = Buffer.alloc(IMPORT_MAX_BYTES + 3, 0x20)
    expect((await importBytes(pointLayer, 'csv', big, 'big.csv')).errcode).toBe(ErrCode.VALIDATION)
  }, 60_000)
})

describe('export to KMZ, GPX and Excel', () => {
  it('answers KMZ and Excel as base64 bytes and GPX as text, each importing back into another layer', async () => {
    expectOk(await importBytes(pointLayer, 'gpx', bytes('track-2bulu.gpx'), '香山.gpx'))
    const other = await makeLayer(team.t, team.owner, '副本', 1, folder)
    for (const format of ['kmz', 'gpx', 'xlsx'] as const) {
      const file = expectOk(await team.t.call('/api/marker/export', { layer_id: pointLayer, format }, team.owner))
      expect(file.filename).toBe(`点位.${format}`)
      expect(file.encoding).toBe(format === 'gpx' ? undefined : 'base64')
      const content = file.encoding ? file.content : Buffer.from(file.content).toString('base64')
      const res = expectOk(await team.t.call('/api/marker/import', { layer_id: other, format, content, encoding: 'base64', file_name: file.filename }, team.owner))
      expect(res.imported).toBe(2)
    }
    expect((await markersOf(other)).map((m: any) => m.name)).toEqual(['一号检查井', '二号检查井', '一号检查井', '二号检查井', '一号检查井', '二号检查井'])
  }, 60_000)
})

describe('polygon holes', () => {
  it('imports an area with a hole into a new area layer, stores the hole and exports it back as an inner ring', async () => {
    const outer = [
      [116.38, 39.88],
      [116.42, 39.88],
      [116.42, 39.92],
      [116.38, 39.92],
      [116.38, 39.88],
    ]
    const hole = [
      [116.395, 39.895],
      [116.405, 39.895],
      [116.405, 39.905],
      [116.395, 39.895],
    ]
    const file = JSON.stringify({ type: 'FeatureCollection', features: [{ type: 'Feature', properties: { name: '试验田' }, geometry: { type: 'Polygon', coordinates: [outer, hole] } }] })
    const res = expectOk(await importBytes(pointLayer, 'geojson', Buffer.from(file), '地块.geojson', team.owner, { crs: 'gcj02' }))
    const areaLayer = res.layers.find((l: { name: string }) => l.name === '地块-面').id
    const [m] = await markersOf(areaLayer)
    expect(m.points).toBe('116.38,39.88|116.42,39.88|116.42,39.92|116.38,39.92#116.395,39.895|116.405,39.895|116.405,39.905')
    const exported = expectOk(await team.t.call('/api/marker/export', { layer_id: areaLayer, format: 'geojson', crs: 'gcj02' }, team.owner))
    expect(JSON.parse(exported.content).features[0].geometry.coordinates).toEqual([outer, hole])
    // A hole outside its area is refused like any bad geometry.
    const bad = JSON.stringify({ type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: [outer, hole.map(([x, y]) => [x + 1, y])] } })
    expect(expectOk(await importBytes(areaLayer, 'geojson', Buffer.from(bad), '坏.geojson', team.owner, { crs: 'gcj02' })).errors).toEqual([{ row: 1, message: MAP_MSG.holeOutside(1) }])
  }, 60_000)
})

describe('placemarks without geometry', () => {
  it('say so, and empty coordinates keep their own message', async () => {
    const res = expectOk(await importBytes(pointLayer, 'kml', bytes('no-geometry.kml'), 'no-geometry.kml'))
    expect(res).toMatchObject({
      imported: 0,
      errors: [
        { row: 2, message: '该地标没有几何数据' },
        { row: 3, message: MAP_IO_MSG.importGeometryMissing },
      ],
      summary: { points: 1, no_geometry: 1 },
    })
  })
})
