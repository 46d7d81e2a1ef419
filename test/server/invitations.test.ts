/**
 * Nobody joins a team without their own yes (pre/register is an invitation the invited person
 * answers), and the public calls that tell about people or cost money are limited per client
 * address and per target: /api/user/exist/phone, /api/group/invite/info, /api/system/send/code.
 */
import { ErrCode } from '../../types/api'
import { INVITE_MSG, RATE_MSG } from '../../src/domain/consentMessages'
import { buildApp } from '../../server/src/app'
import { makeWorld, ok, type TeamWorld } from './teams-fixture'

let w: TeamWorld
beforeEach(async () => {
  w = await makeWorld()
})
afterEach(() => w.close())

const invite = (phone: string, nickname = '小李', department_id = 0) => w.call('/api/user/pre/register', { nickname, phone, department_id }, w.owner)
const invitations = async (auth: { userid: number | string; token: string }) => ok(await w.call('/api/user/invite/getlist', {}, auth)).list

/** A public call from a given client address. */
async function from(ip: string, path: string, fields: object, app = w.t.app) {
  const res = await app.inject({ method: 'POST', url: path, remoteAddress: ip, payload: { ...fields, header: { userid: '', token: '' } } })
  const body = res.json()
  return { errcode: body.header.errcode as number, errmsg: body.header.errmsg as string, data: body.data }
}

describe('an invitation waits for the invited person’s yes', () => {
  it('does not let a team read a registered person’s position or phone before they accept', async () => {
    const person = await w.stranger('13900000001', '小李')
    ok(await w.call('/api/user/location/save', { lng: 116.4, lat: 39.9 }, person))
    expect(ok(await invite('13900000001'))).toEqual({ joined: false })
    expect(ok(await w.call('/api/user/location/getbygroupid', {}, w.owner))).toEqual([])
    const team = ok(await w.call('/api/group/get/joins', {}, w.owner))
    expect(team.list.map((m: any) => m.user.phone)).toEqual(['13800000000'])
  })

  it('shows the invited person the team’s name and who invited them; accepting joins and selects the team', async () => {
    const person = await w.stranger('13900000001', '小李')
    ok(await invite('13900000001'))
    const [invitation] = await invitations(person)
    expect(invitation).toEqual({ id: expect.any(Number), group_id: w.groupId, group_name: '勘察队', inviter_nickname: '队长', created_at: expect.any(String) })
    const joined = ok(await w.call('/api/user/invite/accept', { id: invitation.id }, person))
    expect(joined.user).toMatchObject({ select_groupid: w.groupId, select_groupname: '勘察队', nickname: '小李' })
    expect(await invitations(person)).toEqual([])
  })

  it('declining removes the invitation and its counted place, and joins nothing', async () => {
    const person = await w.stranger('13900000001', '小李')
    const own = ok(await w.call('/api/user/getinfo', {}, person)).user.select_groupid
    ok(await invite('13900000001'))
    const [invitation] = await invitations(person)
    expect(ok(await w.call('/api/user/invite/decline', { id: invitation.id }, person))).toBeNull()
    expect(ok(await w.call('/api/user/getinfo', {}, person)).user.select_groupid).toBe(own)
    expect(ok(await w.call('/api/group/get/joins', {}, w.owner))).toMatchObject({ count: 0, pending: [] })
    expect(await w.call('/api/user/invite/accept', { id: invitation.id }, person)).toMatchObject({ errcode: ErrCode.NOT_FOUND, errmsg: INVITE_MSG.notFound })
  })

  it('asks an unregistered phone once it signs up, and nobody else can answer for it', async () => {
    ok(await invite('13600000001', '新人'))
    const other = await w.stranger('13900000002', '别人')
    const { auth, data } = await w.t.login('13600000001')
    expect(data.user.select_groupid).toBe(0)
    const [invitation] = await invitations(auth)
    expect(invitation).toMatchObject({ group_name: '勘察队', inviter_nickname: '队长' })
    expect(await invitations(other)).toEqual([])
    expect(await w.call('/api/user/invite/accept', { id: invitation.id }, other)).toMatchObject({ errcode: ErrCode.NOT_FOUND })
    expect(await w.call('/api/user/invite/decline', { id: invitation.id }, other)).toMatchObject({ errcode: ErrCode.NOT_FOUND })
    expect(ok(await w.call('/api/user/invite/accept', { id: invitation.id }, auth)).user).toMatchObject({ nickname: '新人', select_groupid: w.groupId })
  })

  it('answers the inviter the same for a registered and an unregistered phone', async () => {
    await w.stranger('13900000001', '小李')
    const registered = await invite('13900000001')
    const unregistered = await invite('13600000001')
    expect(registered.raw).toBe(unregistered.raw)
  })
})

describe('/api/user/exist/phone is limited per client address and per phone', () => {
  it('refuses a client address after 20 lookups in 10 minutes, while another address goes on', async () => {
    for (let i = 0; i < 20; i++) expect((await from('203.0.113.1', '/api/user/exist/phone', { phone: `1360000${String(i).padStart(4, '0')}` })).errcode).toBe(0)
    expect(await from('203.0.113.1', '/api/user/exist/phone', { phone: '13700000000' })).toMatchObject({ errcode: ErrCode.RATE_LIMITED, errmsg: RATE_MSG.phoneLookup, data: null })
    expect(await from('203.0.113.2', '/api/user/exist/phone', { phone: '13700000000' })).toMatchObject({ errcode: 0, data: { exist: false } })
    w.t.clock.advance(10 * 60_000)
    expect((await from('203.0.113.1', '/api/user/exist/phone', { phone: '13700000000' })).errcode).toBe(0)
  })

  it('refuses asking about one phone more than 10 times in 10 minutes, from however many addresses', async () => {
    for (let i = 1; i <= 10; i++) expect((await from(`198.51.100.${i}`, '/api/user/exist/phone', { phone: '13800000000' })).data).toEqual({ exist: true })
    expect(await from('198.51.100.99', '/api/user/exist/phone', { phone: '13800000000' })).toMatchObject({ errcode: ErrCode.RATE_LIMITED, data: null })
  })
})

describe('invite codes', () => {
  it('limits /api/group/invite/info to 20 per client address in 10 minutes', async () => {
    const { code } = ok(await w.call('/api/group/invite/code', {}, w.owner))
    for (let i = 0; i < 19; i++) expect((await from('203.0.113.1', '/api/group/invite/info', { code: `ZZZZZZ${i}` })).errcode).toBe(ErrCode.NOT_FOUND)
    expect((await from('203.0.113.1', '/api/group/invite/info', { code })).data).toMatchObject({ group_name: '勘察队' })
    expect(await from('203.0.113.1', '/api/group/invite/info', { code })).toMatchObject({ errcode: ErrCode.RATE_LIMITED, errmsg: RATE_MSG.inviteInfo, data: null })
    expect((await from('203.0.113.2', '/api/group/invite/info', { code })).errcode).toBe(0)
  })

  it('limits joining by code to 20 tries per user in 10 minutes', async () => {
    const person = await w.stranger('13900000001', '小李')
    for (let i = 0; i < 20; i++) expect((await w.call('/api/group/join', { code: `ZZZZZZ${i}` }, person)).errcode).toBe(ErrCode.NOT_FOUND)
    const { code } = ok(await w.call('/api/group/invite/code', {}, w.owner))
    expect(await w.call('/api/group/join', { code }, person)).toMatchObject({ errcode: ErrCode.RATE_LIMITED })
  })

  it('lets the administrator reset the code: the old one then leads nowhere', async () => {
    const { code } = ok(await w.call('/api/group/invite/code', {}, w.owner))
    const fresh = ok(await w.call('/api/group/invite/code', { reset: true }, w.owner)).code
    expect(fresh).not.toBe(code)
    expect((await from('203.0.113.3', '/api/group/invite/info', { code })).errcode).toBe(ErrCode.NOT_FOUND)
    expect((await from('203.0.113.3', '/api/group/invite/info', { code: fresh })).data).toMatchObject({ group_id: w.groupId })
  })
})

describe('/api/system/send/code hourly caps beside the per-phone limits', () => {
  it('refuses a client address beyond its hourly cap, and every address beyond the server’s', async () => {
    const app = buildApp({ db: w.t.db, clock: w.t.clock, sms: w.t.sms, codeCooldownS: 1, codeCaps: { perAddressPerHour: 3, allPerHour: 6 } })
    try {
      // The administrator's sign-in of the world already took one code of the server's six this hour.
      const send = (ip: string, phone: string) => from(ip, '/api/system/send/code', { phone }, app)
      for (let i = 1; i <= 3; i++) expect((await send('203.0.113.1', `1360000000${i}`)).errcode).toBe(0)
      expect(await send('203.0.113.1', '13600000004')).toMatchObject({ errcode: ErrCode.RATE_LIMITED, errmsg: RATE_MSG.codeAddressCap, data: null })
      expect((await send('203.0.113.2', '13600000005')).errcode).toBe(0)
      expect((await send('203.0.113.3', '13600000006')).errcode).toBe(0)
      expect(await send('203.0.113.4', '13600000007')).toMatchObject({ errcode: ErrCode.RATE_LIMITED, errmsg: RATE_MSG.codeGlobalCap })
      const sent = w.t.sms.sent.filter((s) => s.phone.startsWith('136')).length
      expect(sent).toBe(5)
      w.t.clock.advance(3600_000)
      expect((await send('203.0.113.1', '13600000004')).errcode).toBe(0)
    } finally {
      await app.close()
    }
  })
})
