/**
 * Large imports: a file is refused as soon as it is known to hold more rows than the group has
 * room for or than one import takes, and reading it never holds up other clients' calls.
 */
import { ErrCode } from '../../types/api'
import { IMPORT_MAX_ROWS } from '../../src/domain/constants'
import { IMPORT_MAX_BYTES } from '../../src/domain/formats'
import { MAP_IO_MSG, MAP_MSG, MSG } from '../../src/domain/messages'
import { formatStorage } from '../../src/domain/tiers'
import { expectOk, makeLayer, makeTeam, rowCount, setMarkerLimit, type Team } from './mapdata-fixture'

jest.setTimeout(120_000)

let team: Team
let layer: number
beforeEach(async () => {
  team = await makeTeam()
  layer = await makeLayer(team.t, team.owner, '网点')
})
afterEach(() => team.t.close())

const importInto = (format: string, content: string) => team.t.call('/api/marker/import', { layer_id: layer, format, content }, team.owner)

const lng = (i: number) => (116 + (i % 300) / 1000).toFixed(3)
const lat = (i: number) => (39 + Math.floor(i / 300) / 1000).toFixed(3)

/** n points in a file of the format, written as plainly as a GIS tool would. */
function pointsFile(format: string, n: number): string {
  const index = Array.from({ length: n }, (_, i) => i)
  if (format === 'csv') return ['name,lng,lat', ...index.map((i) => `网点${i + 1},${lng(i)},${lat(i)}`)].join('\n')
  if (format === 'kml') {
    const placemarks = index.map((i) => `<Placemark><name>网点${i + 1}</name><Point><coordinates>${lng(i)},${lat(i)}</coordinates></Point></Placemark>`)
    return `<?xml version="1.0" encoding="UTF-8"?>\n<kml xmlns="http://www.opengis.net/kml/2.2"><Document>\n${placemarks.join('\n')}\n</Document></kml>`
  }
  const features = index.map((i) => `{"type":"Feature","properties":{"name":"网点${i + 1}"},"geometry":{"type":"Point","coordinates":[${lng(i)},${lat(i)}]}}`)
  return `{"type":"FeatureCollection","features":[\n${features.join(',\n')}\n]}`
}

it('should answer another client while a large file is being imported', async () => {
  await setMarkerLimit(team, 300)
  // The trial user's file: 105,000 points, 11 MB. Read on the main thread it held every call for seconds.
  const file = pointsFile('geojson', 105_000)
  expect(file.length).toBeGreaterThan(10 * 1024 * 1024)
  const order: string[] = []
  const importing = importInto('geojson', file).then((res) => {
    order.push('import')
    return res
  })
  const config = team.t.call('/api/system/get/config', { no_check_permission: true }).then((res) => {
    order.push('config')
    return res
  })
  const [imported, answered] = await Promise.all([importing, config])
  expect(answered.errcode).toBe(0)
  expect(imported).toMatchObject({ errcode: ErrCode.LIMIT_REACHED, errmsg: MAP_MSG.markerLimit(300) })
  expect(order).toEqual(['config', 'import'])
  expect(await rowCount(team.t, 'markers')).toBe(0)
})

it.each(['geojson', 'kml', 'csv'])('should refuse a %s file of more points than the group has room for, and write nothing', async (format) => {
  await setMarkerLimit(team, 300)
  expect(await importInto(format, pointsFile(format, 301))).toMatchObject({ errcode: ErrCode.LIMIT_REACHED, errmsg: MAP_MSG.markerLimit(300) })
  expect(await rowCount(team.t, 'markers')).toBe(0)
  expect(expectOk(await importInto(format, pointsFile(format, 300))).imported).toBe(300)
})

it.each(['geojson', 'kml', 'csv'])('should refuse a %s file of more rows than one import takes, however much room the group has', async (format) => {
  await setMarkerLimit(team, 10 * IMPORT_MAX_ROWS)
  expect(await importInto(format, pointsFile(format, IMPORT_MAX_ROWS + 1))).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: MAP_IO_MSG.importTooManyRows(IMPORT_MAX_ROWS) })
  expect(await rowCount(team.t, 'markers')).toBe(0)
})

it('should take a file within the size limit even when its JSON-escaped request body is larger', async () => {
  // Line breaks travel as two bytes each: this body is about 1.5 times the file.
  const file = pointsFile('geojson', 1).replace('[\n', '[' + '\n'.repeat((IMPORT_MAX_BYTES * 3) / 4))
  expect(Buffer.byteLength(file)).toBeLessThanOrEqual(IMPORT_MAX_BYTES)
  expect(expectOk(await importInto('geojson', file)).imported).toBe(1)
})

it('should measure the size limit in bytes and say so in Chinese', async () => {
  // Fewer characters than the limit, but 3 bytes each in UTF-8.
  const file = '名'.repeat(IMPORT_MAX_BYTES / 2)
  expect(await importInto('csv', file)).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: MAP_IO_MSG.importTooLarge(formatStorage(IMPORT_MAX_BYTES / 1024)) })
})

it('should refuse a large body that is not JSON as a bad request', async () => {
  const header = JSON.stringify({ userid: team.owner.userid, token: team.owner.token })
  const res = await team.t.app.inject({
    method: 'POST',
    url: '/api/marker/import',
    headers: { 'content-type': 'application/json' },
    payload: `{"header":${header},"content":"${'x'.repeat(1024 * 1024)}`,
  })
  expect(res.statusCode).toBe(400)
  expect(res.json().header).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: MSG.badRequest })
})
