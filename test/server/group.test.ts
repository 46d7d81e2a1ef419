/** /api/group/*: the own group with its trial, joining, info and renaming. */
import { ErrCode } from '../../types/api'
import { GROUP_NAME_MAX, TRIAL_DAYS } from '../../src/domain/constants'
import { MSG } from '../../src/domain/messages'
import { DAY_MS, makeTestApp, type Auth, type TestApp } from './helpers'

let t: TestApp
beforeEach(async () => {
  t = await makeTestApp()
})
afterEach(() => t.close())

/** Puts a user into a group directly (invites arrive with the teams issue) and selects it. */
async function addMember(groupId: number, member: Auth) {
  await t.db.kysely
    .insertInto('joins')
    .values({ group_id: groupId, user_id: member.userid as number, department_id: 0, is_manager: 0, created_at: t.clock.now().toISOString() })
    .execute()
  await t.db.kysely
    .updateTable('users')
    .set({ select_groupid: groupId })
    .where('id', '=', member.userid as number)
    .execute()
}

describe('/api/group/create', () => {
  it('should give a new user a 7-day trial group with exactly 300 markers, 5 collaborators and 307200 KB', async () => {
    const { auth, data } = await t.login()
    expect(data.user.select_groupid).toBe(0)
    const createdAt = t.clock.now()
    const res = await t.call('/api/group/create', {}, auth)
    expect(res).toMatchObject({ status: 200, errcode: 0 })
    const vipExp = new Date(createdAt.getTime() + TRIAL_DAYS * DAY_MS).toISOString()
    expect(res.data).toEqual({
      is_admin: true,
      admin_vip_expired: false,
      user: expect.objectContaining({
        id: auth.userid,
        token: auth.token,
        level: 1,
        select_groupid: expect.any(Number),
        select_groupname: '我的地图',
        is_manager: true,
        vip_exp: vipExp,
        group_vip: { group_vip_exp: vipExp, level: 1, nickname: '', phone: '13800138000', marker_limit: 300, join_limit: 5, file_size_limit: 307200 },
      }),
    })
    expect(res.data.user.select_groupid).toBeGreaterThan(0)
    expect(await t.count('groups')).toBe(1)
    expect(await t.count('joins')).toBe(1)
  })

  it('should name the group after the nickname, or take the given name', async () => {
    const a = await t.login('13800138000')
    await t.call('/api/user/init', { nickname: '小王' }, a.auth)
    expect((await t.call('/api/group/create', {}, a.auth)).data.user.select_groupname).toBe('小王的地图')
    const b = await t.login('13900139000')
    expect((await t.call('/api/group/create', { name: ' 勘察一队 ' }, b.auth)).data.user.select_groupname).toBe('勘察一队')
  })

  it('should give the map made before the nickname (the guide order) the nickname, but keep a name the user chose', async () => {
    const a = await t.login('13800138000')
    expect((await t.call('/api/group/create', {}, a.auth)).data.user.select_groupname).toBe('我的地图')
    expect((await t.call('/api/user/init', { nickname: '钱会员' }, a.auth)).data.select_groupname).toBe('钱会员的地图')
    const b = await t.login('13900139000')
    await t.call('/api/group/create', { name: '勘察一队' }, b.auth)
    expect((await t.call('/api/user/init', { nickname: '小李' }, b.auth)).data.select_groupname).toBe('勘察一队')
  })

  it('should be idempotent: a second call selects the group the caller already owns', async () => {
    const { auth } = await t.login()
    const first = await t.call('/api/group/create', {}, auth)
    t.clock.advance(DAY_MS)
    const second = await t.call('/api/group/create', { name: '另一个' }, auth)
    expect(second.data).toEqual(first.data)
    expect(await t.count('groups')).toBe(1)
    expect(await t.count('joins')).toBe(1)
  })

  it('should select the own group again for a user who had selected another one', async () => {
    const owner = await t.login('13800138000')
    const other = await t.login('13900139000')
    const ownGroup = (await t.call('/api/group/create', {}, other.auth)).data.user.select_groupid
    const ownerGroup = (await t.call('/api/group/create', {}, owner.auth)).data.user.select_groupid
    await addMember(ownerGroup, other.auth)
    expect((await t.call('/api/user/getinfo', {}, other.auth)).data.user.select_groupid).toBe(ownerGroup)
    expect((await t.call('/api/group/create', {}, other.auth)).data.user.select_groupid).toBe(ownGroup)
  })

  it.each([
    ['blank', '  ', MSG.groupNameRequired],
    ['too long', '图'.repeat(GROUP_NAME_MAX + 1), MSG.groupNameTooLong(GROUP_NAME_MAX)],
  ])('should reject a name that is %s and create nothing', async (_what, name, message) => {
    const { auth } = await t.login()
    expect(await t.call('/api/group/create', { name }, auth)).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: message })
    expect(await t.count('groups')).toBe(0)
    expect((await t.call('/api/user/getinfo', {}, auth)).data.user.select_groupid).toBe(0)
  })
})

describe('/api/group/join', () => {
  it('should require an invite code', async () => {
    const { auth } = await t.login()
    expect(await t.call('/api/group/join', {}, auth)).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: MSG.inviteCodeRequired })
    expect(await t.call('/api/group/join', { code: '  ' }, auth)).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: MSG.inviteCodeRequired })
  })

  it('should answer an unknown invite code with NOT_FOUND and join nothing', async () => {
    const { auth } = await t.login()
    expect(await t.call('/api/group/join', { code: 'ABC123' }, auth)).toMatchObject({ status: 200, errcode: ErrCode.NOT_FOUND, errmsg: MSG.inviteCodeInvalid })
    expect(await t.count('joins')).toBe(0)
  })
})

describe('/api/group/info', () => {
  it('should say that a user without a group has to create or join one', async () => {
    const { auth } = await t.login()
    expect(await t.call('/api/group/info', {}, auth)).toMatchObject({ status: 200, errcode: ErrCode.NOT_FOUND, errmsg: MSG.noGroup })
  })

  it('should describe the selected group to its administrator', async () => {
    const { auth } = await t.login()
    const created = await t.call('/api/group/create', { name: '勘察一队' }, auth)
    const res = await t.call('/api/group/info', {}, auth)
    expect(res.data).toEqual({
      id: created.data.user.select_groupid,
      name: '勘察一队',
      owner_id: auth.userid,
      level: 1,
      vip_exp: created.data.user.vip_exp,
      marker_limit: 300,
      join_limit: 5,
      file_size_limit: 307200,
      member_count: 1,
      is_admin: true,
    })
  })

  it('should show a member the group with is_admin false, and the owner in group_vip', async () => {
    const owner = await t.login('13800138000')
    await t.call('/api/user/init', { nickname: '老板' }, owner.auth)
    const groupId = (await t.call('/api/group/create', {}, owner.auth)).data.user.select_groupid
    const member = await t.login('13900139000')
    await addMember(groupId, member.auth)
    expect((await t.call('/api/group/info', {}, member.auth)).data).toMatchObject({ id: groupId, member_count: 2, is_admin: false })
    const info = await t.call('/api/user/getinfo', {}, member.auth)
    expect(info.data).toMatchObject({ is_admin: false, user: { select_groupid: groupId, is_manager: false, group_vip: { nickname: '老板', phone: '13800138000', level: 1 } } })
  })

  it('should forbid a group the caller is not a member of', async () => {
    const owner = await t.login('13800138000')
    const groupId = (await t.call('/api/group/create', {}, owner.auth)).data.user.select_groupid
    const stranger = await t.login('13900139000')
    await t.db.kysely
      .updateTable('users')
      .set({ select_groupid: groupId })
      .where('id', '=', stranger.auth.userid as number)
      .execute()
    expect(await t.call('/api/group/info', {}, stranger.auth)).toMatchObject({ errcode: ErrCode.FORBIDDEN, errmsg: MSG.forbidden })
    // getinfo does not present a group the user does not belong to: it moves them to their own map.
    const info = (await t.call('/api/user/getinfo', {}, stranger.auth)).data
    expect(info).toMatchObject({ is_admin: true, user: { is_manager: true, level: 1 } })
    expect(info.user.select_groupid).not.toBe(groupId)
  })
})

describe('/api/group/save/name', () => {
  it('should let the administrator rename the group', async () => {
    const { auth } = await t.login()
    await t.call('/api/group/create', {}, auth)
    const res = await t.call('/api/group/save/name', { name: ' 新名字 ' }, auth)
    expect(res.data).toMatchObject({ name: '新名字', is_admin: true, member_count: 1 })
    expect((await t.call('/api/user/getinfo', {}, auth)).data.user.select_groupname).toBe('新名字')
  })

  it('should forbid a member who is not the administrator', async () => {
    const owner = await t.login('13800138000')
    const groupId = (await t.call('/api/group/create', { name: '原名' }, owner.auth)).data.user.select_groupid
    const member = await t.login('13900139000')
    await addMember(groupId, member.auth)
    expect(await t.call('/api/group/save/name', { name: '改名' }, member.auth)).toMatchObject({ errcode: ErrCode.FORBIDDEN, errmsg: MSG.forbidden })
    expect((await t.call('/api/group/info', {}, owner.auth)).data.name).toBe('原名')
  })

  it('should validate the name and change nothing', async () => {
    const { auth } = await t.login()
    await t.call('/api/group/create', { name: '原名' }, auth)
    expect(await t.call('/api/group/save/name', { name: '' }, auth)).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: MSG.groupNameRequired })
    expect((await t.call('/api/group/info', {}, auth)).data.name).toBe('原名')
  })

  it('should say so when there is no group to rename', async () => {
    const { auth } = await t.login()
    expect(await t.call('/api/group/save/name', { name: '名字' }, auth)).toMatchObject({ errcode: ErrCode.NOT_FOUND, errmsg: MSG.noGroup })
  })
})
