/**
 * A position goes only to the team the member works in now (their selected group), only while they
 * are a member of it, and only while they share it (settings): removed, switched away or left, the
 * team no longer gets it, not even the last one.
 */
import { makeWorld, ok, type Person, type TeamWorld } from './teams-fixture'

let w: TeamWorld
let member: Person
beforeEach(async () => {
  w = await makeWorld()
  member = await w.join('13900000001', '小李')
})
afterEach(() => w.close())

const positions = async (auth = w.owner) => ok(await w.call('/api/user/location/getbygroupid', {}, auth)).map((p: any) => p.user.nickname)
const report = (auth: Person, lng = 116.4, lat = 39.9) => w.call('/api/user/location/save', { lng, lat, addr: '' }, auth)

it('serves a member’s position to the team they work in', async () => {
  ok(await report(member))
  expect(await positions()).toEqual(['小李'])
})

it('stops serving it (not even the last one) once the member switches to another team', async () => {
  ok(await report(member))
  const own = ok(await w.call('/api/group/create', {}, member)).user.select_groupid
  expect(own).not.toBe(w.groupId)
  expect(await positions()).toEqual([])
  // Reported while in their own map: that one is not the team's either, now or after they come back.
  ok(await report(member, 113.3, 23.1))
  ok(await w.call('/api/group/select', { group_id: w.groupId }, member))
  expect(await positions()).toEqual([])
  ok(await report(member))
  expect(await positions()).toEqual(['小李'])
})

it('stops serving it once the member is removed or leaves, and keeps nothing for the team', async () => {
  ok(await report(member))
  ok(await w.call('/api/group/remove/join', { join_id: member.joinId }, w.owner))
  expect(await positions()).toEqual([])
  const again = await w.join('13900000001', '小李')
  expect(await positions()).toEqual([])
  ok(await report(again))
  ok(await w.call('/api/group/quit', {}, again))
  expect(await positions()).toEqual([])
})

it('lets the member turn sharing off in settings: the last position goes at once and no new one is kept', async () => {
  expect(ok(await w.call('/api/user/location/setting/get', {}, member))).toEqual({ share: true })
  ok(await report(member))
  expect(ok(await w.call('/api/user/location/setting', { share: false }, member))).toEqual({ share: false })
  expect(await positions()).toEqual([])
  ok(await report(member))
  expect(await positions()).toEqual([])
  expect(await w.t.db.kysely.selectFrom('user_locations').selectAll().execute()).toEqual([])
  expect(ok(await w.call('/api/user/location/setting/get', {}, member))).toEqual({ share: false })
  ok(await w.call('/api/user/location/setting', { share: true }, member))
  ok(await report(member))
  expect(await positions()).toEqual(['小李'])
})

it('refuses a setting that is not a yes or no, changing nothing', async () => {
  expect((await w.call('/api/user/location/setting', { share: 'no' }, member)).errcode).not.toBe(0)
  expect(ok(await w.call('/api/user/location/setting/get', {}, member))).toEqual({ share: true })
})
