/** Members of a team: joining by invite code under join_limit, pre-registration, removing, quitting, managers, switching groups. */
import { ErrCode } from '../../types/api'
import { MSG, TEAM_MSG } from '../../src/domain/messages'
import { PERM } from '../../src/domain/permissions'
import { makeWorld, ok, type TeamWorld } from './teams-fixture'

let w: TeamWorld
beforeEach(async () => {
  w = await makeWorld()
})
afterEach(() => w.close())

const joins = async (auth = w.owner) => ok(await w.call('/api/group/get/joins', {}, auth))
const inviteCode = async () => ok(await w.call('/api/group/invite/code', {}, w.owner)).code as string
const rows = (table: 'layer_auth' | 'role_users' | 'department_managers' | 'pre_registrations' | 'joins') => w.t.db.kysely.selectFrom(table).selectAll().execute()

describe('joining by invite code', () => {
  it('should join the group, select it and answer the login result of a plain member', async () => {
    const member = await w.join('13900000001', '小李')
    const info = ok(await w.call('/api/user/getinfo', {}, member))
    expect(info).toMatchObject({
      is_admin: false,
      user: { select_groupid: w.groupId, select_groupname: '勘察队', is_manager: false, department_manager: false, modules: [{ id: PERM.MODULE_MAP, name: '地图' }] },
    })
    expect((await joins()).list.map((m: any) => m.user.nickname)).toEqual(['队长', '小李'])
  })

  it('should keep one code until it is reset, and then refuse the old one', async () => {
    const code = await inviteCode()
    expect(code).toMatch(/^[A-Z2-9]{8}$/)
    expect(await inviteCode()).toBe(code)
    const fresh = ok(await w.call('/api/group/invite/code', { reset: true }, w.owner)).code
    expect(fresh).not.toBe(code)
    const { auth } = await w.t.login('13900000001')
    expect(await w.call('/api/group/join', { code }, auth)).toMatchObject({ errcode: ErrCode.NOT_FOUND, errmsg: MSG.inviteCodeInvalid })
    expect(ok(await w.call('/api/group/join', { code: fresh.toLowerCase() }, auth)).user.select_groupid).toBe(w.groupId)
  })

  it('should read the code out of an invite link', async () => {
    const code = await inviteCode()
    const { auth } = await w.t.login('13900000001')
    expect(ok(await w.call('/api/group/join', { code: `https://map.example.com/#/group?code=${code}` }, auth)).user.select_groupid).toBe(w.groupId)
  })

  it('should only select the group for someone who is already a member, counting nobody twice', async () => {
    const member = await w.join('13900000001', '小李')
    ok(await w.call('/api/group/create', {}, member))
    ok(await w.call('/api/group/join', { code: await inviteCode() }, member))
    expect((await joins()).count).toBe(1)
    expect(ok(await w.call('/api/user/getinfo', {}, member)).user.select_groupid).toBe(w.groupId)
  })

  it('should describe where a code leads, to anyone, before joining', async () => {
    const code = await inviteCode()
    expect(ok(await w.t.call('/api/group/invite/info', { code }))).toEqual({ group_id: w.groupId, group_name: '勘察队', owner_nickname: '队长', member_count: 1, collaborator_count: 0, join_limit: 5 })
    expect(await w.t.call('/api/group/invite/info', { code: 'ZZZZZZZZ' })).toMatchObject({ errcode: ErrCode.NOT_FOUND, errmsg: MSG.inviteCodeInvalid })
  })

  it('should let only managers see or reset the invite code', async () => {
    const member = await w.join('13900000001', '小李')
    expect(await w.call('/api/group/invite/code', {}, member)).toMatchObject({ errcode: ErrCode.FORBIDDEN, errmsg: MSG.forbidden })
    await w.makeManager(member)
    expect(ok(await w.call('/api/group/invite/code', {}, member)).code).toBe(await inviteCode())
  })
})

describe('the join limit (trial: 5 collaborators, the administrator not counted)', () => {
  it('should let five collaborators join a trial group by code and refuse the sixth with the limit in the message', async () => {
    for (let i = 1; i <= 5; i++) await w.join(`1390000000${i}`, `成员${i}`)
    expect(await joins()).toMatchObject({ count: 5, join_limit: 5 })
    expect((await joins()).list).toHaveLength(6)
    const code = await inviteCode()
    const { auth } = await w.t.login('13900000006')
    expect(await w.call('/api/group/join', { code }, auth)).toMatchObject({ errcode: ErrCode.LIMIT_REACHED, errmsg: TEAM_MSG.joinLimit(5) })
    expect(TEAM_MSG.joinLimit(5)).toContain('协作成员已达上限（5人')
    expect((await joins()).count).toBe(5)
    expect(ok(await w.t.call('/api/group/invite/info', { code }))).toMatchObject({ member_count: 6, collaborator_count: 5, join_limit: 5 })
  })

  it('should pre-register five collaborators by phone into a trial group and refuse the sixth', async () => {
    for (let i = 1; i <= 5; i++) {
      expect(ok(await w.call('/api/user/pre/register', { nickname: `待加入${i}`, phone: `1360000000${i}`, department_id: 0 }, w.owner))).toEqual({ joined: false })
    }
    expect(await w.call('/api/user/pre/register', { nickname: '多一个', phone: '13600000006', department_id: 0 }, w.owner)).toMatchObject({
      errcode: ErrCode.LIMIT_REACHED,
      errmsg: TEAM_MSG.joinLimit(5),
    })
    expect(await joins()).toMatchObject({ count: 5, join_limit: 5 })
    expect((await rows('pre_registrations')).length).toBe(5)
  })

  it('should invite five existing users by phone into a trial group, counting each place while it waits, and refuse the sixth', async () => {
    const people = []
    for (let i = 1; i <= 6; i++) people.push((await w.t.login(`1390000000${i}`)).auth)
    for (let i = 1; i <= 5; i++) {
      expect(ok(await w.call('/api/user/pre/register', { nickname: `成员${i}`, phone: `1390000000${i}`, department_id: 0 }, w.owner))).toEqual({ joined: false })
    }
    expect(await w.call('/api/user/pre/register', { nickname: '成员6', phone: '13900000006', department_id: 0 }, w.owner)).toMatchObject({
      errcode: ErrCode.LIMIT_REACHED,
      errmsg: TEAM_MSG.joinLimit(5),
    })
    expect(await joins()).toMatchObject({ count: 5, list: [expect.anything()] })
    for (const person of people.slice(0, 5)) {
      const [invitation] = ok(await w.call('/api/user/invite/getlist', {}, person)).list
      ok(await w.call('/api/user/invite/accept', { id: invitation.id }, person))
    }
    expect(await joins()).toMatchObject({ count: 5, pending: [] })
    expect((await joins()).list).toHaveLength(6)
  })

  it('should count pending pre-registrations against the limit for joining by code and for pre-registering', async () => {
    await w.join('13900000001', '成员1')
    await w.join('13900000002', '成员2')
    expect(ok(await w.call('/api/user/pre/register', { nickname: '待加入', phone: '13600000001', department_id: 0 }, w.owner))).toEqual({ joined: false })
    expect((await joins()).count).toBe(3)
    expect(ok(await w.call('/api/user/pre/register', { nickname: '待加入2', phone: '13600000002', department_id: 0 }, w.owner))).toEqual({ joined: false })
    expect(ok(await w.call('/api/user/pre/register', { nickname: '待加入3', phone: '13600000003', department_id: 0 }, w.owner))).toEqual({ joined: false })
    expect(await w.call('/api/user/pre/register', { nickname: '多一个', phone: '13600000004', department_id: 0 }, w.owner)).toMatchObject({
      errcode: ErrCode.LIMIT_REACHED,
      errmsg: TEAM_MSG.joinLimit(5),
    })
    const { auth } = await w.t.login('13900000009')
    expect(await w.call('/api/group/join', { code: await inviteCode() }, auth)).toMatchObject({ errcode: ErrCode.LIMIT_REACHED })
    expect((await rows('pre_registrations')).length).toBe(3)
  })

  it('should refuse pre-registering an existing user into a full group', async () => {
    await w.setJoinLimit(2)
    await w.join('13900000001', '成员1')
    await w.join('13900000002', '成员2')
    await w.t.login('13900000003')
    expect(await w.call('/api/user/pre/register', { nickname: '老用户', phone: '13900000003', department_id: 0 }, w.owner)).toMatchObject({
      errcode: ErrCode.LIMIT_REACHED,
      errmsg: TEAM_MSG.joinLimit(2),
    })
  })

  it('should take an invited person in on their counted place, even when the group is full, once they accept', async () => {
    await w.setJoinLimit(1)
    const dept = await w.department('外勤')
    ok(await w.call('/api/user/pre/register', { nickname: '待加入', phone: '13600000001', department_id: dept }, w.owner))
    const { auth, data } = await w.t.login('13600000001')
    // Signing in alone joins nobody.
    expect(data.user.select_groupid).toBe(0)
    const [invitation] = ok(await w.call('/api/user/invite/getlist', {}, auth)).list
    expect(ok(await w.call('/api/user/invite/accept', { id: invitation.id }, auth)).user.select_groupid).toBe(w.groupId)
    expect((await joins()).list.find((m: any) => m.user.id === auth.userid)).toMatchObject({ department_id: dept })
    // A code join of a member only selects.
    expect(ok(await w.call('/api/group/join', { code: await inviteCode() }, auth)).user.select_groupid).toBe(w.groupId)
  })

  it('should follow a raised limit', async () => {
    await w.setJoinLimit(50)
    for (let i = 1; i <= 6; i++) await w.join(`1390000000${i}`, `成员${i}`)
    expect((await joins()).count).toBe(6)
  })
})

describe('/api/group/get/joins', () => {
  it('should list the administrator first with every member’s standing, then pending people', async () => {
    const dept = await w.department('外勤')
    const a = await w.join('13900000001', '小李')
    await w.place(a, dept)
    await w.makeManager(a)
    ok(await w.call('/api/department/setting/manager', { department_id: dept, userids: [a.userid] }, w.owner))
    const role = ok(await w.call('/api/role/save', { name: '测绘员' }, w.owner)).id
    ok(await w.call('/api/role/save/join', { role_id: role, user_ids: [a.userid] }, w.owner))
    ok(await w.call('/api/user/pre/register', { nickname: '待加入', phone: '13600000001', department_id: dept }, w.owner))
    const data = await joins()
    expect(data).toEqual({
      list: [
        {
          join_id: w.owner.joinId,
          user: { id: w.owner.userid, nickname: '队长', avatar: '', phone: '13800000000' },
          department_id: 0,
          is_admin: true,
          is_manager: true,
          managed_department_ids: [],
          role_ids: [],
          created_at: expect.any(String),
        },
        {
          join_id: a.joinId,
          user: { id: a.userid, nickname: '小李', avatar: '', phone: '13900000001' },
          department_id: dept,
          is_admin: false,
          is_manager: true,
          managed_department_ids: [dept],
          role_ids: [role],
          created_at: expect.any(String),
        },
      ],
      pending: [{ id: expect.any(Number), nickname: '待加入', phone: '13600000001', department_id: dept, created_at: expect.any(String) }],
      count: 2,
      join_limit: 5,
    })
  })

  it('should show a plain member the team with phones masked and without pending people', async () => {
    const a = await w.join('13900000001', '小李')
    ok(await w.call('/api/user/pre/register', { nickname: '待加入', phone: '13600000001', department_id: 0 }, w.owner))
    const data = await joins(a)
    expect(data.list.map((m: any) => m.user.phone)).toEqual(['138****0000', '139****0001'])
    expect(data).toMatchObject({ pending: [], count: 2 })
  })
})

describe('removing a member', () => {
  it('should end their access to the group at once and take their grants, roles and department management', async () => {
    const dept = await w.department('外勤')
    const layer = await w.layer('水井')
    const marker = await w.marker(layer, '井1')
    const member = await w.join('13900000001', '小李')
    await w.grant(layer, { user_id: member.userid }, [PERM.MARKER_ADD])
    ok(await w.call('/api/department/setting/manager', { department_id: dept, userids: [member.userid] }, w.owner))
    const role = ok(await w.call('/api/role/save', { name: '测绘员' }, w.owner)).id
    ok(await w.call('/api/role/save/join', { role_id: role, user_ids: [member.userid] }, w.owner))
    expect(ok(await w.call('/api/marker/getbyid', { ids: [marker] }, member))).toHaveLength(1)

    expect(ok(await w.call('/api/group/remove/join', { join_id: member.joinId }, w.owner))).toBeNull()

    for (const [path, body] of [
      ['/api/layer/getlist', {}],
      ['/api/marker/getlist', { layer_ids: [layer], pageindex: 1, pagesize: 10 }],
      ['/api/marker/getbyid', { ids: [marker] }],
      ['/api/group/get/joins', {}],
      ['/api/department/getlist', {}],
    ] as const) {
      expect(await w.call(path, body, member)).toMatchObject({ errcode: ErrCode.FORBIDDEN, errmsg: MSG.forbidden })
    }
    expect((await rows('layer_auth')).filter((r) => r.user_id === member.userid)).toEqual([])
    expect((await rows('role_users')).filter((r) => r.user_id === member.userid)).toEqual([])
    expect((await rows('department_managers')).filter((r) => r.user_id === member.userid)).toEqual([])
    expect((await joins()).list.map((m: any) => m.user.id)).toEqual([w.owner.userid])
  })

  it('should move the removed member to their own map on their next getinfo, creating it when they have none', async () => {
    const member = await w.join('13900000001', '小李')
    ok(await w.call('/api/group/remove/join', { join_id: member.joinId }, w.owner))
    const info = ok(await w.call('/api/user/getinfo', {}, member))
    expect(info).toMatchObject({ is_admin: true, user: { select_groupname: '小李的地图', is_manager: true, level: 1 } })
    expect(info.user.select_groupid).not.toBe(w.groupId)
    expect(ok(await w.call('/api/layer/getlist', {}, member))).toEqual([])
  })

  it('should let only the administrator remove a manager, and nobody the administrator', async () => {
    const manager = await w.join('13900000001', '经理')
    const other = await w.join('13900000002', '另一个经理')
    await w.makeManager(manager)
    await w.makeManager(other)
    expect(await w.call('/api/group/remove/join', { join_id: other.joinId }, manager)).toMatchObject({ errcode: ErrCode.FORBIDDEN, errmsg: MSG.forbidden })
    expect(await w.call('/api/group/remove/join', { join_id: w.owner.joinId }, manager)).toMatchObject({ errcode: ErrCode.FORBIDDEN, errmsg: TEAM_MSG.cannotRemoveAdmin })
    expect(await w.call('/api/group/remove/join', { join_id: w.owner.joinId }, w.owner)).toMatchObject({ errcode: ErrCode.FORBIDDEN, errmsg: TEAM_MSG.cannotRemoveAdmin })
    expect(await w.call('/api/group/remove/join', { join_id: manager.joinId }, manager)).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: TEAM_MSG.cannotRemoveSelf })
    ok(await w.call('/api/group/remove/join', { join_id: other.joinId }, w.owner))
    expect((await joins()).count).toBe(1)
  })

  it('should let a manager remove a plain member, but not a plain member anyone', async () => {
    const manager = await w.join('13900000001', '经理')
    const a = await w.join('13900000002', '甲')
    const b = await w.join('13900000003', '乙')
    await w.makeManager(manager)
    expect(await w.call('/api/group/remove/join', { join_id: b.joinId }, a)).toMatchObject({ errcode: ErrCode.FORBIDDEN, errmsg: MSG.forbidden })
    ok(await w.call('/api/group/remove/join', { join_id: b.joinId }, manager))
    expect(await w.call('/api/group/remove/join', { join_id: b.joinId }, manager)).toMatchObject({ errcode: ErrCode.NOT_FOUND, errmsg: TEAM_MSG.memberNotFound })
  })

  it('should not reach a member of another group by join id', async () => {
    const stranger = await w.stranger('13700000001', '外人')
    const theirJoin = (await w.t.db.kysely.selectFrom('joins').select('id').where('user_id', '=', stranger.userid).executeTakeFirstOrThrow()).id
    expect(await w.call('/api/group/remove/join', { join_id: theirJoin }, w.owner)).toMatchObject({ errcode: ErrCode.NOT_FOUND })
  })
})

describe('quitting', () => {
  it('should refuse the administrator with a clear message', async () => {
    expect(await w.call('/api/group/quit', {}, w.owner)).toMatchObject({ errcode: ErrCode.FORBIDDEN, errmsg: TEAM_MSG.adminCannotQuit })
    expect((await joins()).count).toBe(0)
  })

  it('should switch a member who quits to their own map, keeping what it holds', async () => {
    const member = await w.stranger('13900000001', '小李')
    const ownGroup = ok(await w.call('/api/user/getinfo', {}, member)).user.select_groupid
    const ownLayer = await w.layer('我的图层', 1, 0, member)
    ok(await w.call('/api/group/join', { code: await inviteCode() }, member))
    const shared = await w.layer('团队图层')
    await w.grant(shared, { user_id: member.userid }, [PERM.LAYER_DATA_LIST])

    const res = ok(await w.call('/api/group/quit', {}, member))
    expect(res).toMatchObject({ is_admin: true, user: { select_groupid: ownGroup, is_manager: true } })
    expect(ok(await w.call('/api/layer/getlist', {}, member)).map((l: any) => l.id)).toEqual([ownLayer])
    expect((await joins()).count).toBe(0)
    expect((await rows('layer_auth')).filter((r) => r.user_id === member.userid)).toEqual([])
  })

  it('should create a trial map for a member who quits without one', async () => {
    const member = await w.join('13900000001', '小李')
    const res = ok(await w.call('/api/group/quit', {}, member))
    expect(res).toMatchObject({ is_admin: true, user: { select_groupname: '小李的地图', level: 1, group_vip: { join_limit: 5, marker_limit: 300 } } })
    expect(await w.call('/api/layer/getlist', {}, member)).toMatchObject({ errcode: 0, data: [] })
  })
})

describe('managers', () => {
  it('should let the administrator make a member a manager and take it back', async () => {
    const member = await w.join('13900000001', '小李')
    const made = ok(await w.call('/api/group/join/setting/manager', { join_id: member.joinId, is_manager: true }, w.owner))
    expect(made).toMatchObject({ join_id: member.joinId, is_manager: true, is_admin: false })
    expect(ok(await w.call('/api/user/getinfo', {}, member)).user.is_manager).toBe(true)
    expect(ok(await w.call('/api/group/join/setting/manager', { join_id: member.joinId, is_manager: false }, w.owner)).is_manager).toBe(false)
    expect(ok(await w.call('/api/user/getinfo', {}, member)).user.is_manager).toBe(false)
  })

  it('should refuse anyone but the administrator, and leave the administrator a manager', async () => {
    const manager = await w.join('13900000001', '经理')
    const member = await w.join('13900000002', '小李')
    await w.makeManager(manager)
    expect(await w.call('/api/group/join/setting/manager', { join_id: member.joinId, is_manager: true }, manager)).toMatchObject({ errcode: ErrCode.FORBIDDEN })
    expect(await w.call('/api/group/join/setting/manager', { join_id: w.owner.joinId, is_manager: false }, w.owner)).toMatchObject({
      errcode: ErrCode.VALIDATION,
      errmsg: TEAM_MSG.adminIsAlwaysManager,
    })
  })

  it('should let managers (not members) put a member into a department of the group', async () => {
    const dept = await w.department('外勤')
    const manager = await w.join('13900000001', '经理')
    const member = await w.join('13900000002', '小李')
    await w.makeManager(manager)
    expect(ok(await w.call('/api/group/setting/join', { join_id: member.joinId, department_id: dept }, manager))).toMatchObject({ department_id: dept })
    expect(await w.call('/api/group/setting/join', { join_id: member.joinId, department_id: 0 }, member)).toMatchObject({ errcode: ErrCode.FORBIDDEN })
    expect(await w.call('/api/group/setting/join', { join_id: member.joinId, department_id: 999_999 }, manager)).toMatchObject({ errcode: ErrCode.NOT_FOUND, errmsg: TEAM_MSG.departmentNotFound })
    expect(ok(await w.call('/api/group/setting/join', { join_id: member.joinId, department_id: 0 }, manager)).department_id).toBe(0)
  })
})

describe('several groups', () => {
  it('should list the caller’s groups and switch between them', async () => {
    const member = await w.stranger('13900000001', '小李')
    const own = ok(await w.call('/api/user/getinfo', {}, member)).user.select_groupid
    ok(await w.call('/api/group/join', { code: await inviteCode() }, member))
    expect(ok(await w.call('/api/group/getlist', {}, member))).toEqual([
      { id: own, name: '小李的地图', is_admin: true, member_count: 1, selected: false },
      { id: w.groupId, name: '勘察队', is_admin: false, member_count: 2, selected: true },
    ])
    expect(ok(await w.call('/api/group/select', { group_id: own }, member))).toMatchObject({ is_admin: true, user: { select_groupid: own } })
    expect(ok(await w.call('/api/group/getlist', {}, member)).map((g: any) => g.selected)).toEqual([true, false])
  })

  it('should refuse selecting a group the caller does not belong to', async () => {
    const stranger = await w.stranger('13700000001', '外人')
    expect(await w.call('/api/group/select', { group_id: w.groupId }, stranger)).toMatchObject({ errcode: ErrCode.FORBIDDEN, errmsg: TEAM_MSG.notMemberOfGroup })
  })
})

describe('pre-registration by phone', () => {
  it('should not join an existing user: they join, in the department, only by accepting', async () => {
    const dept = await w.department('外勤')
    const { auth } = await w.t.login('13900000001')
    expect(ok(await w.call('/api/user/pre/register', { nickname: '小李', phone: '13900000001', department_id: dept }, w.owner))).toEqual({ joined: false })
    expect(ok(await w.call('/api/user/getinfo', {}, auth)).user).toMatchObject({ nickname: '', select_groupid: 0 })
    expect((await joins()).list.find((m: any) => m.user.id === auth.userid)).toBeUndefined()
    const [invitation] = ok(await w.call('/api/user/invite/getlist', {}, auth)).list
    const info = ok(await w.call('/api/user/invite/accept', { id: invitation.id }, auth))
    expect(info.user).toMatchObject({ nickname: '小李', select_groupid: w.groupId })
    expect((await joins()).list.find((m: any) => m.user.id === auth.userid)).toMatchObject({ department_id: dept })
    expect(await w.call('/api/user/pre/register', { nickname: '小李', phone: '13900000001', department_id: 0 }, w.owner)).toMatchObject({ errcode: ErrCode.CONFLICT, errmsg: TEAM_MSG.alreadyMember })
  })

  it('should leave an existing user’s own name and selected map alone', async () => {
    const user = await w.stranger('13900000001', '自己的名字')
    const own = ok(await w.call('/api/user/getinfo', {}, user)).user.select_groupid
    ok(await w.call('/api/user/pre/register', { nickname: '别名', phone: '13900000001', department_id: 0 }, w.owner))
    expect(ok(await w.call('/api/user/getinfo', {}, user)).user).toMatchObject({ nickname: '自己的名字', select_groupid: own })
  })

  it('should create the user at first sign-in in no group, with every team’s invitation waiting for their answer', async () => {
    const dept = await w.department('外勤')
    const second = await w.stranger('13700000001', '另一个队长')
    const secondGroup = ok(await w.call('/api/user/getinfo', {}, second)).user.select_groupid
    ok(await w.call('/api/user/pre/register', { nickname: '新人', phone: '13600000001', department_id: dept }, w.owner))
    ok(await w.call('/api/user/pre/register', { nickname: '新同事', phone: '13600000001', department_id: 0 }, second))
    expect((await joins()).pending).toHaveLength(1)

    const { data, auth } = await w.t.login('13600000001')
    expect(data).toMatchObject({ is_admin: false, user: { nickname: '', select_groupid: 0 } })
    expect(ok(await w.call('/api/group/getlist', {}, auth))).toEqual([])
    const invitations = ok(await w.call('/api/user/invite/getlist', {}, auth)).list
    expect(invitations.map((i: any) => i.group_id)).toEqual([w.groupId, secondGroup])
    expect((await rows('pre_registrations')).length).toBe(2)
    expect((await joins()).count).toBe(1)
  })

  it('should update a phone already pending instead of counting it twice, and let managers withdraw it', async () => {
    ok(await w.call('/api/user/pre/register', { nickname: '待加入', phone: '13600000001', department_id: 0 }, w.owner))
    const dept = await w.department('外勤')
    ok(await w.call('/api/user/pre/register', { nickname: '改名了', phone: '13600000001', department_id: dept }, w.owner))
    const { pending, count } = await joins()
    expect(pending).toEqual([expect.objectContaining({ nickname: '改名了', department_id: dept })])
    expect(count).toBe(1)
    const member = await w.join('13900000001', '小李')
    expect(await w.call('/api/user/pre/delete', { id: pending[0].id }, member)).toMatchObject({ errcode: ErrCode.FORBIDDEN })
    expect(ok(await w.call('/api/user/pre/delete', { id: pending[0].id }, w.owner))).toBeNull()
    expect(await w.call('/api/user/pre/delete', { id: pending[0].id }, w.owner)).toMatchObject({ errcode: ErrCode.NOT_FOUND, errmsg: TEAM_MSG.pendingNotFound })
    // Withdrawn: signing in makes an ordinary new user.
    const { data } = await w.t.login('13600000001')
    expect(data.user).toMatchObject({ nickname: '', select_groupid: 0 })
  })

  it.each([
    ['no phone', { nickname: '小李', department_id: 0 }, MSG.phoneRequired],
    ['a phone that is not a mainland mobile', { nickname: '小李', phone: '12345678901', department_id: 0 }, MSG.phoneInvalid],
    ['no name', { phone: '13600000001', department_id: 0 }, TEAM_MSG.memberNameRequired],
    ['a blank name', { nickname: '  ', phone: '13600000001', department_id: 0 }, TEAM_MSG.memberNameRequired],
  ])('should refuse %s and write nothing', async (_what, body, message) => {
    expect(await w.call('/api/user/pre/register', body, w.owner)).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: message })
    expect(await rows('pre_registrations')).toEqual([])
  })

  it('should refuse a department of another group', async () => {
    const stranger = await w.stranger('13700000001', '外人')
    const theirs = ok(await w.call('/api/department/save', { name: '别人的部门' }, stranger)).id
    expect(await w.call('/api/user/pre/register', { nickname: '小李', phone: '13600000001', department_id: theirs }, w.owner)).toMatchObject({
      errcode: ErrCode.NOT_FOUND,
      errmsg: TEAM_MSG.departmentNotFound,
    })
  })

  it('should be for managers only', async () => {
    const member = await w.join('13900000001', '小李')
    expect(await w.call('/api/user/pre/register', { nickname: '小王', phone: '13600000001', department_id: 0 }, member)).toMatchObject({ errcode: ErrCode.FORBIDDEN, errmsg: MSG.forbidden })
  })
})

describe('account deletion', () => {
  it('should take the owner’s team rows with the group and the user’s rows in other teams', async () => {
    const dept = await w.department('外勤')
    const member = await w.join('13900000001', '小李')
    const layer = await w.layer('水井')
    await w.grant(layer, { user_id: member.userid }, [PERM.MARKER_ADD])
    await w.grant(layer, { department_id: dept }, [PERM.MARKER_ADD])
    ok(await w.call('/api/department/setting/manager', { department_id: dept, userids: [member.userid] }, w.owner))
    const role = ok(await w.call('/api/role/save', { name: '测绘员' }, w.owner)).id
    ok(await w.call('/api/role/save/join', { role_id: role, user_ids: [member.userid] }, w.owner))
    ok(await w.call('/api/role/save/module', { role_id: role, module_ids: [PERM.LAYER_ADD] }, w.owner))
    ok(await w.call('/api/user/pre/register', { nickname: '待加入', phone: '13600000001', department_id: 0 }, w.owner))

    ok(await w.call('/api/user/logoff', {}, member))
    expect(await rows('layer_auth')).toEqual([])
    expect(await rows('role_users')).toEqual([])
    expect(await rows('department_managers')).toEqual([])

    ok(await w.call('/api/user/logoff', {}, w.owner))
    const k = w.t.db.kysely
    for (const table of ['departments', 'department_layer_auth', 'roles', 'role_modules', 'pre_registrations'] as const) {
      expect({ table, rows: await k.selectFrom(table).selectAll().execute() }).toEqual({ table, rows: [] })
    }
  })
})
