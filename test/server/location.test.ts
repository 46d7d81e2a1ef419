/** /api/user/location/save and getbygroupid (SPEC 7): members see each other's last positions, and only theirs. */
import { MAP_ENGINE_MSG } from '../../src/domain/messages'
import { ErrCode } from '../../types/api'
import { expectOk, makeTeam, type Team } from './mapdata-fixture'

let team: Team

beforeEach(async () => {
  team = await makeTeam()
})

afterEach(async () => {
  await team.t.close()
})

describe('member locations', () => {
  it('should keep the last position each member reported and list the group, newest first', async () => {
    const { t, owner, member } = team
    expectOk(await t.call('/api/user/location/save', { lng: 116.39, lat: 39.9, addr: '天安门' }, owner))
    t.clock.advance(60_000)
    expectOk(await t.call('/api/user/location/save', { lng: 116.4, lat: 39.91 }, member))
    t.clock.advance(60_000)
    expectOk(await t.call('/api/user/location/save', { lng: 116.41, lat: 39.92, addr: '王府井' }, owner))
    const list = expectOk(await t.call('/api/user/location/getbygroupid', {}, member))
    expect(list).toEqual([
      { user: { id: owner.userid, nickname: '队长', avatar: '' }, time: t.clock.now().toISOString(), lng: 116.41, lat: 39.92, addr: '王府井' },
      { user: { id: member.userid, nickname: '队员', avatar: '' }, time: new Date(t.clock.now().getTime() - 60_000).toISOString(), lng: 116.4, lat: 39.91, addr: '' },
    ])
  })

  it("should not show another group's members", async () => {
    const { t, owner, outsider } = team
    expectOk(await t.call('/api/user/location/save', { lng: 116.39, lat: 39.9 }, outsider))
    expectOk(await t.call('/api/user/location/save', { lng: 116.4, lat: 39.9 }, owner))
    const mine = expectOk(await t.call('/api/user/location/getbygroupid', {}, owner))
    expect(mine.map((l: { user: { id: number } }) => l.user.id)).toEqual([owner.userid])
    const theirs = expectOk(await t.call('/api/user/location/getbygroupid', {}, outsider))
    expect(theirs.map((l: { user: { id: number } }) => l.user.id)).toEqual([outsider.userid])
  })

  it('should refuse coordinates out of range or missing, writing nothing', async () => {
    const { t, owner } = team
    for (const bad of [{ lng: 200, lat: 39 }, { lng: 116, lat: -91 }, { lng: '116', lat: 39 }, { lat: 39 }]) {
      expect(await t.call('/api/user/location/save', bad, owner)).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: MAP_ENGINE_MSG.locationInvalid })
    }
    expect(expectOk(await t.call('/api/user/location/getbygroupid', {}, owner))).toEqual([])
  })

  it('should require a session', async () => {
    expect((await team.t.call('/api/user/location/save', { lng: 116, lat: 39 })).status).toBe(401)
    expect((await team.t.call('/api/user/location/getbygroupid', {})).status).toBe(401)
  })
})
