/** Departments, roles, modules and layer authorisation of a team. */
import { ErrCode } from '../../types/api'
import { MAP_MSG, MSG, TEAM_MSG } from '../../src/domain/messages'
import { LAYER_PERMISSIONS, PERM } from '../../src/domain/permissions'
import { DEPARTMENT_NAME_MAX, GROUP_CATALOGUE, ROLE_NAME_MAX } from '../../src/domain/teams'
import { makeWorld, ok, type TeamWorld } from './teams-fixture'

let w: TeamWorld
beforeEach(async () => {
  w = await makeWorld()
})
afterEach(() => w.close())

const departments = async (auth = w.owner) => ok(await w.call('/api/department/getlist', {}, auth)) as any[]
const byId = async (id: number) => (await departments()).find((d) => d.id === id)
const setLevel = (level: number) => w.t.db.kysely.updateTable('groups').set({ level }).where('id', '=', w.groupId).execute()
const userInfo = async (auth: any) => ok(await w.call('/api/user/getinfo', {}, auth)).user

describe('departments', () => {
  it('should nest departments three levels deep and list them with managers and layer grants', async () => {
    const top = await w.department('总部')
    const mid = await w.department('华北', top)
    const leaf = await w.department('北京', mid)
    const boss = await w.join('13900000001', '主管')
    ok(await w.call('/api/department/setting/manager', { department_id: mid, userids: [boss.userid] }, w.owner))
    const layer = await w.layer('水井')
    await w.grant(layer, { department_id: leaf }, [PERM.MARKER_ADD, PERM.LAYER_DATA_LIST])
    expect(await departments()).toEqual([
      { id: top, name: '总部', parent_id: 0, sort: 0, managers: [], layer_ids: [], layer_auth: [] },
      { id: mid, name: '华北', parent_id: top, sort: 0, managers: [boss.userid], layer_ids: [], layer_auth: [] },
      { id: leaf, name: '北京', parent_id: mid, sort: 0, managers: [], layer_ids: [layer], layer_auth: [{ layer_id: layer, opts: [PERM.LAYER_DATA_LIST, PERM.MARKER_ADD] }] },
    ])
    // Every member reads the structure.
    expect(await departments(boss)).toHaveLength(3)
  })

  it('should rename, re-sort and move a department, and refuse moving it under itself or anything below it', async () => {
    const a = await w.department('甲')
    const b = await w.department('乙', a)
    const c = await w.department('丙', b)
    const d = await w.department('丁')
    for (const parent_id of [a, b, c]) {
      expect(await w.call('/api/department/save', { id: a, name: '甲', parent_id }, w.owner)).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: TEAM_MSG.departmentCycle })
    }
    expect((await byId(a)).parent_id).toBe(0)
    expect(ok(await w.call('/api/department/save', { id: b, name: '乙改', parent_id: d, sort: 3 }, w.owner))).toMatchObject({ id: b, name: '乙改', parent_id: d, sort: 3 })
    // The moved department takes its children along.
    expect((await byId(c)).parent_id).toBe(b)
    expect(ok(await w.call('/api/department/save', { id: a, name: '甲', parent_id: c }, w.owner)).parent_id).toBe(c)
    expect(ok(await w.call('/api/department/save', { id: b, name: '乙改', parent_id: 0 }, w.owner)).parent_id).toBe(0)
  })

  it('should only put a department under one of the same group', async () => {
    const stranger = await w.stranger('13700000001', '外人')
    const theirs = ok(await w.call('/api/department/save', { name: '别人的' }, stranger)).id
    expect(await w.call('/api/department/save', { name: '新部门', parent_id: theirs }, w.owner)).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: TEAM_MSG.departmentParentNotFound })
    expect(await w.call('/api/department/save', { id: theirs, name: '抢过来' }, w.owner)).toMatchObject({ errcode: ErrCode.NOT_FOUND, errmsg: TEAM_MSG.departmentNotFound })
    expect(await departments()).toEqual([])
  })

  it.each([
    ['missing', {}, TEAM_MSG.departmentNameRequired],
    ['blank', { name: '  ' }, TEAM_MSG.departmentNameRequired],
    ['too long', { name: '部'.repeat(DEPARTMENT_NAME_MAX + 1) }, TEAM_MSG.departmentNameTooLong(DEPARTMENT_NAME_MAX)],
  ])('should refuse a department whose name is %s', async (_what, body, message) => {
    expect(await w.call('/api/department/save', body, w.owner)).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: message })
    expect(await departments()).toEqual([])
  })

  it('should delete a department with its descendants in one go, leaving their members and pending people department-less', async () => {
    const top = await w.department('总部')
    const mid = await w.department('华北', top)
    const leaf = await w.department('北京', mid)
    const keep = await w.department('华南', top)
    const inLeaf = await w.join('13900000001', '北京人')
    const inKeep = await w.join('13900000002', '广州人')
    await w.place(inLeaf, leaf)
    await w.place(inKeep, keep)
    ok(await w.call('/api/department/setting/manager', { department_id: mid, userids: [inLeaf.userid] }, w.owner))
    const layer = await w.layer('水井')
    await w.grant(layer, { department_id: leaf }, [PERM.MARKER_ADD])
    await w.grant(layer, { department_id: keep }, [PERM.MARKER_ADD])
    ok(await w.call('/api/user/pre/register', { nickname: '待加入', phone: '13600000001', department_id: mid }, w.owner))

    expect(ok(await w.call('/api/department/delete', { id: mid }, w.owner))).toBeNull()

    expect((await departments()).map((d) => d.id)).toEqual([top, keep])
    const { list, pending } = ok(await w.call('/api/group/get/joins', {}, w.owner))
    expect(list.find((m: any) => m.user.id === inLeaf.userid)).toMatchObject({ department_id: 0, managed_department_ids: [] })
    expect(list.find((m: any) => m.user.id === inKeep.userid)).toMatchObject({ department_id: keep })
    expect(pending[0].department_id).toBe(0)
    const grants = await w.t.db.kysely.selectFrom('department_layer_auth').select('department_id').execute()
    expect(grants).toEqual([{ department_id: keep }])
    expect(await w.t.db.kysely.selectFrom('department_managers').selectAll().execute()).toEqual([])
    // The member lost what the deleted department gave them.
    expect(ok(await w.call('/api/layer/getlist', {}, inLeaf))).toEqual([])
  })

  it('should set and remove managers among the group’s members only', async () => {
    const dept = await w.department('外勤')
    const a = await w.join('13900000001', '甲')
    const b = await w.join('13900000002', '乙')
    const stranger = await w.stranger('13700000001', '外人')
    expect(await w.call('/api/department/setting/manager', { department_id: dept, userids: [a.userid, stranger.userid] }, w.owner)).toMatchObject({
      errcode: ErrCode.NOT_FOUND,
      errmsg: MAP_MSG.notGroupMember,
    })
    expect(ok(await w.call('/api/department/setting/manager', { department_id: dept, userids: [a.userid, b.userid] }, w.owner)).managers).toEqual([a.userid, b.userid])
    expect(await userInfo(a)).toMatchObject({ department_manager: true, is_manager: false })
    expect(ok(await w.call('/api/department/delete/manager', { department_id: dept, user_id: a.userid }, w.owner)).managers).toEqual([b.userid])
    expect((await userInfo(a)).department_manager).toBe(false)
    expect(ok(await w.call('/api/department/setting/manager', { department_id: dept, userids: [] }, w.owner)).managers).toEqual([])
  })

  it('should let only the administrator and managers change departments', async () => {
    const dept = await w.department('外勤')
    const member = await w.join('13900000001', '小李')
    ok(await w.call('/api/department/setting/manager', { department_id: dept, userids: [member.userid] }, w.owner))
    for (const [path, body] of [
      ['/api/department/save', { name: '新部门' }],
      ['/api/department/save', { id: dept, name: '改名' }],
      ['/api/department/delete', { id: dept }],
      ['/api/department/setting/manager', { department_id: dept, userids: [] }],
      ['/api/department/delete/manager', { department_id: dept, user_id: member.userid }],
    ] as const) {
      expect(await w.call(path, body, member)).toMatchObject({ errcode: ErrCode.FORBIDDEN, errmsg: MSG.forbidden })
    }
    expect(await departments()).toEqual([expect.objectContaining({ id: dept, name: '外勤', managers: [member.userid] })])
  })

  it('should take layer grants of a department away', async () => {
    const dept = await w.department('外勤')
    const a = await w.layer('甲')
    const b = await w.layer('乙')
    await w.grant(a, { department_id: dept }, [PERM.MARKER_ADD])
    await w.grant(b, { department_id: dept }, [PERM.MARKER_EDIT])
    expect(ok(await w.call('/api/department/delete/layer/auth', { department_id: dept, layer_ids: [a] }, w.owner)).layer_ids).toEqual([b])
  })

  it('should leave a deleted layer out of the department until it is restored', async () => {
    const dept = await w.department('外勤')
    const layer = await w.layer('水井')
    await w.grant(layer, { department_id: dept }, [PERM.MARKER_ADD])
    ok(await w.call('/api/layer/delete', { id: layer }, w.owner))
    expect((await byId(dept)).layer_ids).toEqual([])
  })
})

describe('layer authorisation of departments', () => {
  it('should take exactly one of user_id and department_id', async () => {
    const dept = await w.department('外勤')
    const member = await w.join('13900000001', '小李')
    const layer = await w.layer('水井')
    expect(await w.call('/api/layer/save/auth', { layer_id: layer, user_id: member.userid, department_id: dept, opts: [] }, w.owner)).toMatchObject({
      errcode: ErrCode.VALIDATION,
      errmsg: TEAM_MSG.authTargetBoth,
    })
    expect(await w.call('/api/layer/save/auth', { layer_id: layer, opts: [] }, w.owner)).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: TEAM_MSG.authTargetRequired })
    expect(await w.call('/api/layer/save/auth', { layer_id: layer, department_id: 999_999, opts: [PERM.MARKER_ADD] }, w.owner)).toMatchObject({
      errcode: ErrCode.NOT_FOUND,
      errmsg: TEAM_MSG.departmentNotFound,
    })
  })

  it('should give the members of a department and of its sub-departments what it was granted, and take it back with []', async () => {
    const top = await w.department('总部')
    const sub = await w.department('一部', top)
    const member = await w.join('13900000001', '小李')
    await w.place(member, sub)
    const layer = await w.layer('水井')
    await w.grant(layer, { department_id: top }, [PERM.MARKER_ADD])
    await w.grant(layer, { user_id: member.userid }, [PERM.NOTE_ADD])
    expect(ok(await w.call('/api/layer/getlist', {}, member))).toEqual([expect.objectContaining({ id: layer, manager: false, layer_opts: [PERM.MARKER_ADD, PERM.NOTE_ADD] })])
    await w.grant(layer, { department_id: top }, [])
    expect(ok(await w.call('/api/layer/getlist', {}, member))[0].layer_opts).toEqual([PERM.NOTE_ADD])
  })

  it('should show a department manager the layers of their departments and sub-departments as their own (manager flag, every id)', async () => {
    const top = await w.department('总部')
    const sub = await w.department('一部', top)
    const other = await w.department('二部')
    const boss = await w.join('13900000001', '主管')
    ok(await w.call('/api/department/setting/manager', { department_id: top, userids: [boss.userid] }, w.owner))
    const mine = await w.layer('一部的图层')
    const theirs = await w.layer('二部的图层')
    await w.grant(mine, { department_id: sub }, [PERM.LAYER_DATA_LIST])
    await w.grant(theirs, { department_id: other }, [PERM.LAYER_DATA_LIST])
    expect(ok(await w.call('/api/layer/getlist', {}, boss))).toEqual([expect.objectContaining({ id: mine, manager: true, layer_opts: LAYER_PERMISSIONS })])
  })

  it('should keep a department manager’s grants within their authority: their layers, to their departments’ members and departments', async () => {
    const top = await w.department('总部')
    const sub = await w.department('一部', top)
    const other = await w.department('二部')
    const boss = await w.join('13900000001', '主管')
    const inSub = await w.join('13900000002', '一部成员')
    const inOther = await w.join('13900000003', '二部成员')
    await w.place(inSub, sub)
    await w.place(inOther, other)
    ok(await w.call('/api/department/setting/manager', { department_id: top, userids: [boss.userid] }, w.owner))
    const mine = await w.layer('一部的图层')
    const theirs = await w.layer('二部的图层')
    await w.grant(mine, { department_id: sub }, [PERM.LAYER_DATA_LIST])
    await w.grant(theirs, { department_id: other }, [PERM.LAYER_DATA_LIST])
    const grant = (body: object) => w.call('/api/layer/save/auth', { opts: [PERM.MARKER_ADD], ...body }, boss)

    ok(await grant({ layer_id: mine, user_id: inSub.userid }))
    ok(await grant({ layer_id: mine, department_id: top }))
    expect(await grant({ layer_id: theirs, user_id: inSub.userid })).toMatchObject({ errcode: ErrCode.FORBIDDEN, errmsg: MSG.forbidden })
    expect(await grant({ layer_id: mine, user_id: inOther.userid })).toMatchObject({ errcode: ErrCode.FORBIDDEN })
    expect(await grant({ layer_id: mine, department_id: other })).toMatchObject({ errcode: ErrCode.FORBIDDEN })
    expect(await w.call('/api/department/delete/layer/auth', { department_id: other, layer_ids: [theirs] }, boss)).toMatchObject({ errcode: ErrCode.FORBIDDEN })
    expect(ok(await w.call('/api/layer/getlist', {}, inSub))[0].layer_opts).toEqual([PERM.LAYER_DATA_LIST, PERM.MARKER_ADD])
    expect(ok(await w.call('/api/layer/getlist', {}, inOther)).map((l: any) => l.id)).toEqual([theirs])
  })

  it('should give a layer made in a department’s folder the department’s grants on the folder', async () => {
    const dept = await w.department('外勤')
    const boss = await w.join('13900000001', '主管')
    const member = await w.join('13900000002', '队员')
    await w.place(member, dept)
    ok(await w.call('/api/department/setting/manager', { department_id: dept, userids: [boss.userid] }, w.owner))
    const folder = await w.layer('外勤文件夹', 0)
    await w.grant(folder, { department_id: dept }, [PERM.LAYER_DATA_LIST, PERM.MARKER_ADD])
    const made = ok(await w.call('/api/layer/save', { name: '主管建的', type: 1, parent_id: folder }, boss))
    expect(made).toMatchObject({ parent_id: folder, manager: true, layer_opts: LAYER_PERMISSIONS })
    expect(ok(await w.call('/api/layer/getlist', {}, member)).map((l: any) => [l.id, l.layer_opts])).toEqual([
      [folder, [PERM.LAYER_DATA_LIST, PERM.MARKER_ADD]],
      [made.id, [PERM.LAYER_DATA_LIST, PERM.MARKER_ADD]],
    ])
  })
})

describe('roles', () => {
  it('should create, rename, assign members and modules, list and delete a role', async () => {
    const a = await w.join('13900000001', '甲')
    const role = ok(await w.call('/api/role/save', { name: ' 测绘员 ' }, w.owner))
    expect(role).toEqual({ id: expect.any(Number), name: '测绘员', user_ids: [], module_ids: [PERM.MODULE_MAP] })
    expect(ok(await w.call('/api/role/save', { id: role.id, name: '外业' }, w.owner)).name).toBe('外业')
    expect(ok(await w.call('/api/role/save/join', { role_id: role.id, user_ids: [a.userid] }, w.owner)).user_ids).toEqual([a.userid])
    expect(ok(await w.call('/api/role/save/module', { role_id: role.id, module_ids: [PERM.OPLOG, PERM.MODULE_ROUTING] }, w.owner)).module_ids).toEqual([
      PERM.MODULE_MAP,
      PERM.MODULE_ROUTING,
      PERM.OPLOG,
    ])
    expect(ok(await w.call('/api/role/getlist', {}, a))).toEqual([{ id: role.id, name: '外业', user_ids: [a.userid], module_ids: [PERM.MODULE_MAP, PERM.MODULE_ROUTING, PERM.OPLOG] }])
    expect((await userInfo(a)).modules).toEqual([
      { id: PERM.MODULE_MAP, name: '地图' },
      { id: PERM.MODULE_ROUTING, name: '路线规划' },
      { id: PERM.OPLOG, name: '操作日志' },
    ])
    ok(await w.call('/api/role/delete', { id: role.id }, w.owner))
    expect(ok(await w.call('/api/role/getlist', {}, w.owner))).toEqual([])
    expect((await userInfo(a)).modules).toEqual([{ id: PERM.MODULE_MAP, name: '地图' }])
    expect(await w.t.db.kysely.selectFrom('role_users').selectAll().execute()).toEqual([])
    expect(await w.t.db.kysely.selectFrom('role_modules').selectAll().execute()).toEqual([])
  })

  it('should refuse ids outside the group-level catalogue and users outside the group', async () => {
    const role = ok(await w.call('/api/role/save', { name: '测绘员' }, w.owner)).id
    for (const module_ids of [[PERM.MARKER_ADD], ['anything'], 'module_map']) {
      expect(await w.call('/api/role/save/module', { role_id: role, module_ids }, w.owner)).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: TEAM_MSG.moduleIdsInvalid })
    }
    const stranger = await w.stranger('13700000001', '外人')
    expect(await w.call('/api/role/save/join', { role_id: role, user_ids: [stranger.userid] }, w.owner)).toMatchObject({ errcode: ErrCode.NOT_FOUND, errmsg: MAP_MSG.notGroupMember })
    expect(await w.call('/api/role/save', { id: 999_999, name: 'x' }, w.owner)).toMatchObject({ errcode: ErrCode.NOT_FOUND, errmsg: TEAM_MSG.roleNotFound })
  })

  it.each([
    ['blank', '  ', TEAM_MSG.roleNameRequired],
    ['too long', '角'.repeat(ROLE_NAME_MAX + 1), TEAM_MSG.roleNameTooLong(ROLE_NAME_MAX)],
  ])('should refuse a role name that is %s', async (_what, name, message) => {
    expect(await w.call('/api/role/save', { name }, w.owner)).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: message })
  })

  it('should let only managers change roles', async () => {
    const member = await w.join('13900000001', '小李')
    const role = ok(await w.call('/api/role/save', { name: '测绘员' }, w.owner)).id
    for (const [path, body] of [
      ['/api/role/save', { name: '新角色' }],
      ['/api/role/delete', { id: role }],
      ['/api/role/save/join', { role_id: role, user_ids: [member.userid] }],
      ['/api/role/save/module', { role_id: role, module_ids: [PERM.LAYER_ADD] }],
    ] as const) {
      expect(await w.call(path, body, member)).toMatchObject({ errcode: ErrCode.FORBIDDEN, errmsg: MSG.forbidden })
    }
  })

  it('should let a member holding layer_add through a role create a top-level layer that they then hold fully', async () => {
    const member = await w.join('13900000001', '小李')
    expect(await w.call('/api/layer/save', { name: '我的图层', type: 1 }, member)).toMatchObject({ errcode: ErrCode.FORBIDDEN })
    const role = ok(await w.call('/api/role/save', { name: '建图员' }, w.owner)).id
    ok(await w.call('/api/role/save/join', { role_id: role, user_ids: [member.userid] }, w.owner))
    ok(await w.call('/api/role/save/module', { role_id: role, module_ids: [PERM.LAYER_ADD] }, w.owner))
    const made = ok(await w.call('/api/layer/save', { name: '我的图层', type: 1 }, member))
    expect(made).toMatchObject({ parent_id: 0, manager: false, layer_opts: LAYER_PERMISSIONS })
  })

  it('should let a member holding the log module and oplog through a role read the operation log', async () => {
    const member = await w.join('13900000001', '小李')
    expect(await w.call('/api/oplog/getlist', {}, member)).toMatchObject({ errcode: ErrCode.FORBIDDEN })
    const role = ok(await w.call('/api/role/save', { name: '审计' }, w.owner)).id
    ok(await w.call('/api/role/save/join', { role_id: role, user_ids: [member.userid] }, w.owner))
    // oplog alone is an action within the log module, which the app shows no menu or page without.
    ok(await w.call('/api/role/save/module', { role_id: role, module_ids: [PERM.OPLOG] }, w.owner))
    expect(await w.call('/api/oplog/getlist', {}, member)).toMatchObject({ errcode: ErrCode.FORBIDDEN })
    ok(await w.call('/api/role/save/module', { role_id: role, module_ids: [PERM.MODULE_LOG, PERM.OPLOG] }, w.owner))
    expect((await w.call('/api/oplog/getlist', {}, member)).errcode).toBe(0)
  })
})

describe('the module catalogue and the user’s modules', () => {
  it('should list the modules (type 1), the group actions (type 2) and the whole catalogue of a trial group, all enabled', async () => {
    const modules = ok(await w.call('/api/module/getlist', { type: 1 }, w.owner))
    expect(modules.map((m: any) => m.id)).toEqual(GROUP_CATALOGUE.filter((e) => e.type === 1).map((e) => e.id))
    expect(modules[0]).toEqual({ id: PERM.MODULE_MAP, name: '地图', type: 1, vip: false, mandatory: true, enabled: true })
    expect(ok(await w.call('/api/module/getlist', { type: 2 }, w.owner)).map((m: any) => m.id)).toEqual(GROUP_CATALOGUE.filter((e) => e.type === 2).map((e) => e.id))
    const all = ok(await w.call('/api/module/getlist/group', {}, w.owner))
    expect(all).toHaveLength(15)
    expect(all.every((m: any) => m.enabled)).toBe(true)
    expect(await w.call('/api/module/getlist', { type: 3 }, w.owner)).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: TEAM_MSG.moduleTypeInvalid })
  })

  it('should list the VIP modules locked on the free tier and leave them out of everyone’s modules', async () => {
    await setLevel(0)
    const all = ok(await w.call('/api/module/getlist/group', {}, w.owner))
    expect(all.filter((m: any) => !m.enabled).map((m: any) => m.id)).toEqual([PERM.MODULE_LOGISTICS, PERM.MODULE_ROUTING, PERM.MODULE_DISPATCH, PERM.MODULE_PRINT])
    const ownerModules = (await userInfo(w.owner)).modules.map((m: any) => m.id)
    expect(ownerModules).toHaveLength(11)
    expect(ownerModules).not.toContain(PERM.MODULE_ROUTING)
    const member = await w.join('13900000001', '小李')
    const role = ok(await w.call('/api/role/save', { name: '路线员' }, w.owner)).id
    ok(await w.call('/api/role/save/join', { role_id: role, user_ids: [member.userid] }, w.owner))
    ok(await w.call('/api/role/save/module', { role_id: role, module_ids: [PERM.MODULE_ROUTING, PERM.MODULE_SHARE] }, w.owner))
    expect((await userInfo(member)).modules.map((m: any) => m.id)).toEqual([PERM.MODULE_MAP, PERM.MODULE_SHARE])
    await setLevel(2)
    expect((await userInfo(member)).modules.map((m: any) => m.id)).toEqual([PERM.MODULE_MAP, PERM.MODULE_ROUTING, PERM.MODULE_SHARE])
  })

  it('should give the administrator and managers every module of the tier', async () => {
    const manager = await w.join('13900000001', '经理')
    await w.makeManager(manager)
    for (const auth of [w.owner, manager]) expect((await userInfo(auth)).modules.map((m: any) => m.id)).toEqual(GROUP_CATALOGUE.map((e) => e.id))
  })
})
