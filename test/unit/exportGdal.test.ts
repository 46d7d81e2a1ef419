/**
 * Every export format read back by GDAL (Debian's gdal-bin, which `.ci/run` installs): an
 * independent reader, the one QGIS and most GIS tools use, must see the same features, kinds and
 * names as we wrote, in WGS-84.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { EXPORT_FORMATS, type ExportMarker } from '../../src/domain/formats'
import { exportFile } from '../../src/domain/formats/exportFile'

const markers: ExportMarker[] = [
  { name: '泵站', type: 0, points: '116.397428,39.90923', radius: 0, fields: { description: '东门', 口径: 300 } },
  { name: '阀门井', type: 0, points: '116.40,39.91', radius: 0, fields: { 口径: 150 } },
  { name: '巡线', type: 1, points: '116.39,39.9|116.4,39.91', radius: 0, fields: {} },
  { name: '片区', type: 3, points: '116.39,39.9|116.4,39.9|116.4,39.91#116.396,39.902|116.398,39.902|116.398,39.905', radius: 0, fields: { description: '一号片区' } },
]
const points = markers.filter((m) => m.type === 0)

let dir: string
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'gdal-'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** ogrinfo's full listing of a file (GDAL reads KMZ through /vsizip/, GPX, XLSX and CSV with open options). */
function ogrinfo(file: string, ...options: string[]): string {
  return execFileSync('ogrinfo', ['-ro', '-al', ...options, file], { encoding: 'utf8' })
}

async function written(format: (typeof EXPORT_FORMATS)[number], list: ExportMarker[]): Promise<string> {
  const file = await exportFile(format, '点位', list, { fieldNames: ['description', '口径'], title: '点位' })
  const path = join(dir, file.filename.replace('点位', format))
  writeFileSync(path, Buffer.from(file.content, file.encoding === 'base64' ? 'base64' : 'utf8'))
  return path
}

const count = (listing: string, pattern: RegExp) => listing.split('\n').filter((line) => pattern.test(line)).length

describe('exports read by GDAL', () => {
  it('GeoJSON, KML and KMZ: four features, a point, a line and a polygon named as written', async () => {
    for (const format of ['geojson', 'kml', 'kmz'] as const) {
      const listing = ogrinfo(await written(format, markers))
      expect([format, count(listing, /^OGRFeature/)]).toEqual([format, 4])
      expect(count(listing, /^\s+POINT /)).toBe(2)
      expect(count(listing, /^\s+LINESTRING /)).toBe(1)
      expect(count(listing, /^\s+POLYGON /)).toBe(1)
      // The area's hole is an inner ring: POLYGON ((outer),(inner)).
      expect(listing).toMatch(/POLYGON \(\([^)]*\),\([^)]*\)\)/)
      for (const m of markers) expect(listing).toContain(m.name)
      // WGS-84 in the file: the GCJ-02 116.397428,39.90923 is about 116.3912,39.9078.
      expect(listing).toMatch(/POINT \(116\.391\d* 39\.907\d*/)
    }
  })

  it('GPX: waypoints, and a track each for the line and the area', async () => {
    const path = await written('gpx', markers)
    expect(count(execFileSync('ogrinfo', ['-ro', path, 'waypoints', '-al'], { encoding: 'utf8' }), /^OGRFeature/)).toBe(2)
    const tracks = execFileSync('ogrinfo', ['-ro', path, 'tracks', '-al'], { encoding: 'utf8' })
    expect(count(tracks, /^OGRFeature/)).toBe(2)
    expect(tracks).toContain('巡线')
    expect(tracks).toContain('片区')
  })

  it('CSV and Excel: the point list with its columns, read as points from lng/lat', async () => {
    for (const format of ['csv', 'xlsx'] as const) {
      const path = await written(format, points)
      const listing = format === 'csv' ? ogrinfo(path, '-oo', 'X_POSSIBLE_NAMES=lng', '-oo', 'Y_POSSIBLE_NAMES=lat') : ogrinfo(path, '-oo', 'HEADERS=FORCE')
      expect([format, count(listing, /^OGRFeature/)]).toEqual([format, 2])
      expect(listing).toMatch(/口径 \([A-Za-z0-9]+\) = 300/)
      expect(listing).toContain('泵站')
      if (format === 'csv') expect(count(listing, /^\s+POINT /)).toBe(2)
    }
  })
})
