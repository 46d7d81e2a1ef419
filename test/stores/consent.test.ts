/**
 * ConsentStore and the sharing choice of LocationStore: a team's invitation is asked about once per
 * sign-in, 加入 joins and opens the team's map, 拒绝 removes it, 稍后再说 waits; the devices list
 * and 退出其他设备; a position that is not shared is never reported.
 */
import { INVITE_MSG, LOCATION_SHARE_MSG, DEVICES_MSG } from '../../src/domain/consentMessages'
import type { Invitation } from '../../types/invitations'
import { buildLogin, makeRoot, ok } from '../support/fakes'

const INVITATION: Invitation = { id: 5, group_id: 42, group_name: '勘察队', inviter_nickname: '队长', created_at: '2025-06-01T02:00:00.000Z' }

async function signedIn(handlers: Record<string, (body: any) => any> = {}) {
  const made = makeRoot({
    '/api/user/login': () => ok(buildLogin({ select_groupid: 0, select_groupname: '' })),
    '/api/user/invite/getlist': () => ok({ list: [INVITATION] }),
    ...handlers,
  })
  expect(await made.root.session.login('13800138000', '123456')).toBe(true)
  made.root.groupRefresh.stop()
  return made
}

describe('ConsentStore invitations', () => {
  it('reads the invitations once per sign-in and asks about the first', async () => {
    const { root, calls } = await signedIn()
    await root.consent.loadInvitations()
    await root.consent.loadInvitations()
    expect(calls.filter((c) => c.path === '/api/user/invite/getlist')).toHaveLength(1)
    expect(root.consent.asking).toEqual(INVITATION)
  })

  it('joins with 加入: the session takes the team, the team map opens', async () => {
    const { root, calls, navigations } = await signedIn({ '/api/user/invite/accept': () => ok(buildLogin({ select_groupid: 42, select_groupname: '勘察队', is_manager: false })) })
    await root.consent.loadInvitations()
    expect(await root.consent.accept(INVITATION)).toBe(true)
    expect(calls.find((c) => c.path === '/api/user/invite/accept')?.body).toMatchObject({ id: 5 })
    expect(root.session.user?.select_groupid).toBe(42)
    expect(root.app.notices.at(-1)?.text).toBe(INVITE_MSG.accepted('勘察队'))
    expect(navigations.at(-1)).toEqual({ path: '/map', mode: 'relaunch' })
    expect(root.consent.asking).toBeNull()
  })

  it('removes it with 拒绝, and 稍后再说 stops asking until the next sign-in while keeping the list', async () => {
    const { root } = await signedIn({ '/api/user/invite/decline': () => ok(null) })
    await root.consent.loadInvitations()
    root.consent.later()
    expect(root.consent.asking).toBeNull()
    expect(root.consent.invitations).toEqual([INVITATION])
    expect(await root.consent.decline(INVITATION)).toBe(true)
    expect(root.consent.invitations).toEqual([])
    expect(root.app.notices.at(-1)?.text).toBe(INVITE_MSG.declined)
  })

  it('forgets the previous person’s invitations at sign-out', async () => {
    const { root } = await signedIn({ '/api/user/logout': () => ok(null) })
    await root.consent.loadInvitations()
    await root.session.logout()
    expect(root.consent.invitations).toEqual([])
    expect(root.consent.invitationsLoaded).toBe(false)
  })
})

describe('ConsentStore devices', () => {
  it('lists the signed-in devices and signs the others out, then reads the list again', async () => {
    let list = [
      { id: 2, device: 'app_h5', os: 'android', created_at: '', last_seen_at: '', current: true },
      { id: 1, device: 'app_weapp', os: 'ios', created_at: '', last_seen_at: '', current: false },
    ]
    const { root } = await signedIn({
      '/api/user/session/getlist': () => ok({ list }),
      '/api/user/session/revoke/others': () => {
        list = list.filter((d) => d.current)
        return ok({ revoked: 1 })
      },
    })
    await root.consent.loadDevices()
    expect(root.consent.devices.map((d) => d.id)).toEqual([2, 1])
    expect(await root.consent.signOutOthers()).toBe(true)
    expect(root.app.notices.at(-1)?.text).toBe(DEVICES_MSG.done(1))
    expect(root.consent.devices.map((d) => d.id)).toEqual([2])
  })
})

describe('LocationStore sharing', () => {
  it('reads the choice, and a switch that the server refuses goes back', async () => {
    let refuse = false
    const { root } = await signedIn({
      '/api/user/location/setting/get': () => ok({ share: true }),
      '/api/user/location/setting': (body) => (refuse ? { status: 500, data: 'x' } : ok({ share: body.share })),
    })
    await root.tracker.loadSharing()
    expect(root.tracker.sharing).toBe(true)
    expect(await root.tracker.setSharing(false)).toBe(true)
    expect(root.tracker.sharing).toBe(false)
    expect(root.app.notices.at(-1)?.text).toBe(LOCATION_SHARE_MSG.turnedOff)
    refuse = true
    expect(await root.tracker.setSharing(true)).toBe(false)
    expect(root.tracker.sharing).toBe(false)
  })
})

describe('LocationStore without sharing', () => {
  beforeEach(() => jest.useFakeTimers())
  afterEach(() => jest.useRealTimers())

  it('keeps the position on the phone: the map moves, nothing is reported, and no 位置共享中', async () => {
    let share = false
    const { root, calls } = await signedIn({
      '/api/user/login': () => ok(buildLogin({ select_groupid: 42, select_groupname: '勘察队' })),
      '/api/user/location/setting/get': () => ok({ share }),
      '/api/user/location/save': () => ok(null),
    })
    root.platform.geo.permissionGranted = async () => true
    root.platform.geo.locate = async () => ({ lng: 116.397, lat: 39.909, accuracy: 10 })
    root.platform.geo.reverseGeocode = async () => '北京'
    await root.tracker.loadSharing()
    await root.tracker.resume()
    await jest.advanceTimersByTimeAsync(30_000)
    expect(root.app.self_location?.lng).toBeCloseTo(116.397)
    expect(calls.filter((c) => c.path === '/api/user/location/save')).toEqual([])
    expect(root.tracker.sharedWithTeam).toBe(false)
    // Shared again: the line shows and the 10th poll reports.
    share = true
    await root.tracker.loadSharing()
    expect(root.tracker.sharedWithTeam).toBe(true)
    await jest.advanceTimersByTimeAsync(20_000)
    expect(calls.filter((c) => c.path === '/api/user/location/save').length).toBeGreaterThan(0)
    root.tracker.stop()
  })
})
