/** Large imports: refused before they are parsed through, and never holding up other clients' calls. */
import { ErrCode } from '../../types/api'
import { MAP_MSG } from '../../src/domain/messages'
import { expectOk, makeLayer, makeTeam, rowCount, setMarkerLimit, type Team } from './mapdata-fixture'

jest.setTimeout(120_000)

let team: Team
let layer: number
beforeEach(async () => {
  team = await makeTeam()
  layer = await makeLayer(team.t, team.owner, '网点')
})
afterEach(() => team.t.close())

const points = (n: number) =>
  JSON.stringify({
    type: 'FeatureCollection',
    features: Array.from({ length: n }, (_, i) => ({ type: 'Feature', properties: { name: `网点${i + 1}` }, geometry: { type: 'Point', coordinates: [116 + (i % 300) / 1000, 39 + Math.floor(i / 300) / 1000] } })),
  })

it('should answer another client while a large file is being imported', async () => {
  await setMarkerLimit(team, 300)
  const file = points(105_000)
  const order: string[] = []
  const importing = team.t.call('/api/marker/import', { layer_id: layer, format: 'geojson', content: file }, team.owner).then((res) => {
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
