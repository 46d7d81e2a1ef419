/**
 * A marker save reads its points once on the server (src/domain/points.ts readGeometry): what is
 * checked, stored and indexed comes from that one read, and nothing else in the save parses them.
 */
import { MAP_MSG } from '../../src/domain/messages'
import * as points from '../../src/domain/points'
import { expectOk, makeLayer, makeTeam, type Team } from './mapdata-fixture'

// Spies on the module's own exports: the stores and services call them through it.
const spies = {
  readGeometry: jest.spyOn(points, 'readGeometry'),
  parsePoints: jest.spyOn(points, 'parsePoints'),
  checkGeometry: jest.spyOn(points, 'checkGeometry'),
}

const reads = () => ({ readGeometry: spies.readGeometry.mock.calls.length, parsePoints: spies.parsePoints.mock.calls.length, checkGeometry: spies.checkGeometry.mock.calls.length })

let team: Team
beforeEach(async () => {
  team = await makeTeam()
})
afterEach(() => team.t.close())

describe('a marker save on the server', () => {
  it('reads the points once for a create and once for an update, with holes and bounds from that read', async () => {
    const { t, owner } = team
    const layer = await makeLayer(t, owner, '片区', 3)
    jest.clearAllMocks()
    const created = expectOk(
      await t.call('/api/marker/save', { layer_id: layer, name: '地块', type: 3, points: '116.0,39.0|116.4,39.0|116.4,39.4|116.0,39.4#116.1,39.1|116.2,39.1|116.2,39.2' }, owner),
    )
    expect(reads()).toEqual({ readGeometry: 1, parsePoints: 0, checkGeometry: 0 })
    expect(created.points).toBe('116,39|116.4,39|116.4,39.4|116,39.4#116.1,39.1|116.2,39.1|116.2,39.2')
    const inBox = expectOk(await t.call('/api/marker/search', { bbox: [116.3, 39.01, 116.35, 39.02], pageindex: 1, pagesize: 10 }, owner))
    expect(inBox.list.map((m: { id: number }) => m.id)).toEqual([created.id])

    jest.clearAllMocks()
    expectOk(await t.call('/api/marker/save', { id: created.id, layer_id: layer, name: '地块', type: 3, points: '116.0,39.0|116.5,39.0|116.5,39.5', rev: created.rev }, owner))
    expect(reads()).toEqual({ readGeometry: 1, parsePoints: 0, checkGeometry: 0 })
  })

  it('refuses bad points with the SPEC message from that one read', async () => {
    const { t, owner } = team
    const layer = await makeLayer(t, owner, '水井', 1)
    jest.clearAllMocks()
    const res = await t.call('/api/marker/save', { layer_id: layer, name: '井', type: 0, points: '116.1,39.9|abc' }, owner)
    expect(res.errmsg).toBe(MAP_MSG.vertexInvalid(2))
    expect(reads()).toEqual({ readGeometry: 1, parsePoints: 0, checkGeometry: 0 })
  })
})
