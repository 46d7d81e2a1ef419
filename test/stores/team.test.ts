import { GROUP_REFRESH_MS, REFRESH_NOTICE_DELAY_MS } from '../../src/domain/constants'
import { standingChanged } from '../../src/domain/groupRefresh'
import { holdsModule, moduleBlock } from '../../src/domain/moduleGate'
import { inviteCodeFrom, inviteLink, memberActions } from '../../src/domain/teamRules'
import type { Department, JoinsOverview, Member, ModuleItem, Role } from '../../types/teams'
import { LOOKUP_MSG } from '../../src/domain/systemMessages'
import { buildLogin, fail, ok } from '../support/fakes'
import { buildLayer, signedInRoot } from '../support/mapBuilders'

function member(over: Partial<Member> = {}): Member {
  return {
    join_id: 1,
    user: { id: 7, nickname: '小王', avatar: '', phone: '13800138000' },
    department_id: 0,
    is_admin: false,
    is_manager: false,
    managed_department_ids: [],
    role_ids: [],
    created_at: '2026-11-20T00:00:00.000Z',
    ...over,
  }
}

function dept(over: Partial<Department> = {}): Department {
  return { id: 1, name: '总部', parent_id: 0, sort: 0, managers: [], layer_ids: [], layer_auth: [], ...over }
}

const OVERVIEW: JoinsOverview = {
  list: [member({ join_id: 1, is_admin: true, is_manager: true }), member({ join_id: 2, user: { id: 8, nickname: '小李', avatar: '', phone: '13900139000' } })],
  pending: [{ id: 5, nickname: '老张', phone: '13700137000', department_id: 0, created_at: '2026-11-21T00:00:00.000Z' }],
  // Collaborators: 小李 and the pending 老张 (the administrator is not counted).
  count: 2,
  join_limit: 5,
}

describe('TeamStore (members, invites, pre-registration)', () => {
  it('loads members and pending people and shows the count against the collaborator limit', async () => {
    const { root } = await signedInRoot({ '/api/group/get/joins': () => ok(OVERVIEW) })
    expect(await root.team.load()).toBe(true)
    expect(root.team.members.map((m) => m.user.nickname)).toEqual(['小王', '小李'])
    expect(root.team.pending).toHaveLength(1)
    expect(root.team.countLabel).toBe('2/5')
    expect(root.team.full).toBe(false)
  })

  it("is full at 5 of a trial's 5 collaborators, not before, and at once on the free plan (0)", async () => {
    let overview: JoinsOverview = { ...OVERVIEW, count: 4 }
    const { root } = await signedInRoot({ '/api/group/get/joins': () => ok(overview) })
    await root.team.load()
    expect([root.team.countLabel, root.team.full]).toEqual(['4/5', false])
    overview = { ...OVERVIEW, count: 5 }
    await root.team.load()
    expect([root.team.countLabel, root.team.full]).toEqual(['5/5', true])
    overview = { ...OVERVIEW, list: [OVERVIEW.list[0]], pending: [], count: 0, join_limit: 0 }
    await root.team.load()
    expect([root.team.countLabel, root.team.full]).toEqual(['0/0', true])
  })

  it('copies an invite link that opens /group with the code, and says so (SPEC 8 clipboard messages)', async () => {
    const { root, copied } = await signedInRoot({ '/api/group/invite/code': () => ok({ code: 'AbC123xyZ9' }) })
    expect(await root.team.copyInvite()).toBe(true)
    expect(copied[0]).toContain('https://map.test/group?code=AbC123xyZ9')
    expect(root.app.notices.at(-1)?.text).toBe('复制成功')
  })

  it('reports a refused clipboard with "复制失败，请稍后再试"', async () => {
    const made = await signedInRoot({ '/api/group/invite/code': () => ok({ code: 'AbC123xyZ9' }) })
    made.root.platform.share.copyText = async () => false
    expect(await made.root.team.copyInvite()).toBe(false)
    expect(made.root.app.notices.at(-1)?.text).toBe('复制失败，请稍后再试')
  })

  it('refuses a pre-registration without a name or with a bad phone before calling the server', async () => {
    const { root, calls } = await signedInRoot()
    expect(await root.team.preRegister({ nickname: ' ', phone: '13700137000', department_id: 0 })).toBe(false)
    expect(root.app.notices.at(-1)?.text).toBe('请输入成员姓名')
    expect(await root.team.preRegister({ nickname: '老张', phone: '12345', department_id: 0 })).toBe(false)
    expect(calls).toHaveLength(0)
  })

  it('pre-registers a phone and reloads the list; the server limit message shows as it comes', async () => {
    let full = false
    const { root, calls } = await signedInRoot({
      '/api/user/pre/register': () => (full ? fail(1004, '团队成员已达上限（5人）') : ok({ joined: false })),
      '/api/group/get/joins': () => ok(OVERVIEW),
    })
    expect(await root.team.preRegister({ nickname: '老张', phone: '13700137000', department_id: 2 })).toBe(true)
    expect(calls.find((c) => c.path === '/api/user/pre/register')?.body).toMatchObject({ nickname: '老张', phone: '13700137000', department_id: 2 })
    expect(root.app.notices.at(-1)?.text).toBe('已发送邀请，对方同意后即加入团队')
    full = true
    expect(await root.team.preRegister({ nickname: '老赵', phone: '13600136000', department_id: 0 })).toBe(false)
    expect(root.app.notices.at(-1)?.text).toBe('团队成员已达上限（5人）')
  })

  it('shows who a phone belongs to before adding them, looking up only complete valid numbers', async () => {
    const person = { nickname: '老张', avatar: '', uid: '10000009', phone: '137****7000', is_member: false }
    const { root, calls } = await signedInRoot({ '/api/user/get/overview/phoneuid': () => ok(person) })
    expect(await root.team.lookUpPhone('1370013')).toBeNull()
    expect(calls).toHaveLength(0)
    expect(await root.team.lookUpPhone('13700137000')).toEqual(person)
    expect(calls[0]).toMatchObject({ path: '/api/user/get/overview/phoneuid', body: { phone: '13700137000' } })
    expect(root.team.phoneOwner).toEqual({ phone: '13700137000', person, message: '' })
    // The same number again is not asked twice; a shorter one clears what was shown.
    await root.team.lookUpPhone(' 13700137000 ')
    expect(calls).toHaveLength(1)
    await root.team.lookUpPhone('1370013700')
    expect(root.team.phoneOwner).toBeNull()
  })

  it('shows "not registered yet" under the phone instead of an error notice', async () => {
    const { root } = await signedInRoot({ '/api/user/get/overview/phoneuid': () => fail(1002, LOOKUP_MSG.phoneNotFound) })
    const before = root.app.notices.length
    expect(await root.team.lookUpPhone('13600136000')).toBeNull()
    expect(root.team.phoneOwner).toEqual({ phone: '13600136000', person: null, message: LOOKUP_MSG.phoneNotFound })
    expect(root.app.notices).toHaveLength(before)
  })

  it('drops the answer for a phone the manager has already changed', async () => {
    let release: () => void = () => undefined
    const slow = new Promise<void>((resolve) => (release = resolve))
    const { root } = await signedInRoot({
      '/api/user/get/overview/phoneuid': async (b) => {
        if (b.phone === '13700137000') await slow
        return ok({ nickname: b.phone === '13700137000' ? '旧' : '新', avatar: '', uid: '1', phone: '', is_member: false })
      },
    })
    const first = root.team.lookUpPhone('13700137000')
    await root.team.lookUpPhone('13600136000')
    release()
    await first
    expect(root.team.phoneOwner?.person?.nickname).toBe('新')
  })

  it('removes a member and sets a manager through their join id', async () => {
    const { root, calls } = await signedInRoot({
      '/api/group/get/joins': () => ok(OVERVIEW),
      '/api/group/remove/join': () => ok(null),
      '/api/group/join/setting/manager': (b) => ok(member({ join_id: b.join_id, is_manager: b.is_manager, user: OVERVIEW.list[1].user })),
    })
    await root.team.load()
    expect(await root.team.setManager(root.team.members[1], true)).toBe(true)
    expect(root.team.members[1].is_manager).toBe(true)
    expect(await root.team.remove(root.team.members[1])).toBe(true)
    expect(calls.find((c) => c.path === '/api/group/remove/join')?.body).toMatchObject({ join_id: 2 })
  })
})

describe('SessionStore group switching', () => {
  it('quitting a shared map takes the user to their own map', async () => {
    const own = buildLogin({ select_groupid: 9, select_groupname: '小王的地图' })
    const { root } = await signedInRoot({ '/api/group/quit': () => ok(own) }, { user: { select_groupid: 3, select_groupname: '工程队' } })
    expect(await root.session.quitGroup()).toBe(true)
    expect(root.session.user?.select_groupid).toBe(9)
    expect(root.session.user?.token).toBe('tok-7')
    expect(root.app.notices.at(-1)?.text).toBe('已切换到「小王的地图」')
  })

  it('switching drops the previous map data', async () => {
    const other = buildLogin({ select_groupid: 11, select_groupname: '工程队' })
    const { root } = await signedInRoot({ '/api/group/select': () => ok(other), '/api/layer/getlist': () => ok([buildLayer({ id: 1 })]) })
    await root.layers.load()
    expect(root.layers.loaded).toBe(true)
    expect(await root.session.switchGroup(11)).toBe(true)
    expect(root.layers.loaded).toBe(false)
  })
})

describe('DepartmentStore (nested departments)', () => {
  const LIST = [dept({ id: 1, name: '总部' }), dept({ id: 3, name: '华北组', parent_id: 2 }), dept({ id: 2, name: '销售部', parent_id: 1, layer_ids: [10] })]

  it('lists departments in tree order with depth and path labels', async () => {
    const { root } = await signedInRoot({ '/api/department/getlist': () => ok(LIST) })
    await root.departments.load()
    expect(root.departments.rows.map((r) => [r.department.name, r.depth])).toEqual([
      ['总部', 0],
      ['销售部', 1],
      ['华北组', 2],
    ])
    expect(root.departments.pathLabel(3)).toBe('总部 / 销售部 / 华北组')
  })

  it('offers as new parent anything but the department itself and its descendants', async () => {
    const { root } = await signedInRoot({ '/api/department/getlist': () => ok(LIST) })
    await root.departments.load()
    expect(root.departments.parentChoices(2).map((d) => d.id)).toEqual([1])
    expect(root.departments.parentChoices(undefined).map((d) => d.id)).toEqual([1, 2, 3])
  })

  it('refuses an empty name before calling the server', async () => {
    const { root, calls } = await signedInRoot()
    expect(await root.departments.save({ name: '  ', parent_id: 0 })).toBeUndefined()
    expect(root.app.notices.at(-1)?.text).toBe('请输入部门名称')
    expect(calls).toHaveLength(0)
  })

  it('saves layer authorisation per layer and withdraws layers no longer ticked', async () => {
    const { root, calls } = await signedInRoot({
      '/api/department/getlist': () => ok(LIST),
      '/api/layer/save/auth': () => ok(null),
      '/api/department/delete/layer/auth': () => ok(dept({ id: 2 })),
    })
    await root.departments.load()
    expect(await root.departments.saveLayerAuth(2, [11, 12], ['marker_add'])).toBe(true)
    expect(calls.filter((c) => c.path === '/api/layer/save/auth').map((c) => c.body.layer_id)).toEqual([11, 12])
    expect(calls.find((c) => c.path === '/api/layer/save/auth')?.body).toMatchObject({ department_id: 2, opts: ['marker_add'] })
    expect(calls.find((c) => c.path === '/api/department/delete/layer/auth')?.body).toMatchObject({ department_id: 2, layer_ids: [10] })
  })
})

describe('RoleStore (roles grant modules)', () => {
  const CATALOGUE: ModuleItem[] = [
    { id: 'module_map', name: '地图', type: 1, vip: false, mandatory: true, enabled: true },
    { id: 'module_routing', name: '路线规划', type: 1, vip: true, mandatory: false, enabled: false },
    { id: 'module_share', name: '分享', type: 1, vip: false, mandatory: false, enabled: true },
    { id: 'task_add', name: '新建任务', type: 2, vip: false, mandatory: false, enabled: true },
  ]
  const ROLE: Role = { id: 4, name: '外勤', user_ids: [8], module_ids: ['module_map'] }

  it('builds the module picker from what the tier enables and lists the locked ones apart', async () => {
    const { root } = await signedInRoot({ '/api/role/getlist': () => ok([ROLE]), '/api/module/getlist/group': () => ok(CATALOGUE) })
    await root.roles.load()
    expect(root.roles.moduleNodes.map((n) => n.id)).toEqual(['branch:1', 'branch:2', 'module_map', 'module_share', 'task_add'])
    expect(root.roles.moduleNodes.find((n) => n.id === 'module_map')?.mandatory).toBe(true)
    expect(root.roles.lockedModules.map((m) => m.id)).toEqual(['module_routing'])
    expect(root.roles.rolesOf(8).map((r) => r.name)).toEqual(['外勤'])
  })

  it('saves only real module ids (not the picker branches)', async () => {
    const { root, calls } = await signedInRoot({
      '/api/role/getlist': () => ok([ROLE]),
      '/api/module/getlist/group': () => ok(CATALOGUE),
      '/api/role/save/module': (b) => ok({ ...ROLE, module_ids: b.module_ids }),
    })
    await root.roles.load()
    expect(await root.roles.saveModules(4, ['branch:1', 'module_map', 'module_share'])).toBe(true)
    expect(calls.at(-1)?.body.module_ids).toEqual(['module_map', 'module_share'])
    expect(root.roles.byId(4)?.module_ids).toEqual(['module_map', 'module_share'])
  })
})

describe('group data refresh every 10 s (SPEC 4 and 9)', () => {
  beforeEach(() => jest.useFakeTimers())
  afterEach(() => jest.useRealTimers())

  it('polls user info every 10 s, and on a new module shows the notice and takes the new info', async () => {
    let info = buildLogin({ modules: [{ id: 'module_map' }] })
    const { root, calls } = await signedInRoot({ '/api/user/getinfo': () => ok(info) }, { user: { modules: [{ id: 'module_map' }] } })
    expect(root.groupRefresh.running).toBe(true)
    await jest.advanceTimersByTimeAsync(GROUP_REFRESH_MS)
    expect(calls.filter((c) => c.path === '/api/user/getinfo')).toHaveLength(1)
    expect(root.app.notices.map((n) => n.text)).not.toContain('团队数据已更新')

    info = buildLogin({ modules: [{ id: 'module_map' }, { id: 'module_routing' }] })
    await jest.advanceTimersByTimeAsync(GROUP_REFRESH_MS)
    expect(root.app.notices.map((n) => n.text)).toContain('团队数据已更新')
    expect(holdsModule(root.session.user?.modules, 'module_routing')).toBe(true)
    // The poll never shows the loading mask.
    expect(root.app.show_loading).toBe(false)
  })

  it('sends a user on the guide page to the map 3 s after a change', async () => {
    const { root, navigations, setLocation } = await signedInRoot({ '/api/user/getinfo': () => ok(buildLogin({ level: 2 })) })
    setLocation('/guide')
    await jest.advanceTimersByTimeAsync(GROUP_REFRESH_MS)
    expect(root.app.notices.map((n) => n.text)).toContain('团队数据已更新')
    expect(navigations).toHaveLength(0)
    await jest.advanceTimersByTimeAsync(REFRESH_NOTICE_DELAY_MS)
    expect(navigations.at(-1)).toEqual({ path: '/map', mode: 'relaunch' })
  })

  it('re-fetches layers when the layer list differs and loads the newly shown layer', async () => {
    let layers = [buildLayer({ id: 1, type: 1, show: true })]
    const { root, calls } = await signedInRoot({
      '/api/user/getinfo': () => ok(buildLogin()),
      '/api/layer/getlist': () => ok(layers),
      '/api/marker/getlist': () => ok({ list: [], total: 0 }),
    })
    await root.layers.load()
    await root.markers.loadShown()
    calls.length = 0
    await jest.advanceTimersByTimeAsync(GROUP_REFRESH_MS)
    expect(calls.filter((c) => c.path === '/api/marker/getlist')).toHaveLength(0)
    layers = [...layers, buildLayer({ id: 2, type: 1, show: true, name: '新图层' })]
    await jest.advanceTimersByTimeAsync(GROUP_REFRESH_MS)
    expect(root.layers.byId.has(2)).toBe(true)
    expect(calls.filter((c) => c.path === '/api/marker/getlist').map((c) => c.body.layer_ids)).toEqual([[2]])
  })

  it('stops on logout', async () => {
    const { root, calls } = await signedInRoot({ '/api/user/getinfo': () => ok(buildLogin()), '/api/user/logout': () => ok(null) })
    await root.session.logout()
    expect(root.groupRefresh.running).toBe(false)
    calls.length = 0
    await jest.advanceTimersByTimeAsync(GROUP_REFRESH_MS * 3)
    expect(calls).toHaveLength(0)
  })
})

describe('team rules (domain)', () => {
  it('finds the invite code in a pasted link or takes a bare code', () => {
    expect(inviteCodeFrom(' https://map.test/group?code=AbC123xy ')).toBe('ABC123XY')
    expect(inviteCodeFrom('abc123xy')).toBe('ABC123XY')
    expect(inviteLink('https://map.test/', 'a b')).toBe('https://map.test/group?code=a%20b')
  })

  it('a changed level, expiry, group, module count or a swapped module is a change; the same standing is not', () => {
    const base = { select_groupid: 3, level: 1 as const, vip_exp: 'x', modules: [{ id: 'a' }, { id: 'b' }] }
    expect(standingChanged(base, { ...base })).toBe(false)
    expect(standingChanged(base, { ...base, level: 2 })).toBe(true)
    expect(standingChanged(base, { ...base, vip_exp: 'y' })).toBe(true)
    expect(standingChanged(base, { ...base, select_groupid: 4 })).toBe(true)
    expect(standingChanged(base, { ...base, modules: [{ id: 'a' }] })).toBe(true)
    expect(standingChanged(base, { ...base, modules: [{ id: 'a' }, { id: 'c' }] })).toBe(true)
  })

  it('only the administrator sets managers or removes one; nobody removes the administrator or themselves', () => {
    const admin = { userId: 1, isAdmin: true }
    const manager = { userId: 2, isAdmin: false }
    const adminMember = { user: { id: 1 }, is_admin: true, is_manager: true }
    const managerMember = { user: { id: 2 }, is_admin: false, is_manager: true }
    const plain = { user: { id: 3 }, is_admin: false, is_manager: false }
    expect(memberActions(admin, adminMember)).toEqual(['department'])
    expect(memberActions(admin, managerMember)).toEqual(['department', 'unmanager', 'remove'])
    expect(memberActions(admin, plain)).toEqual(['department', 'manager', 'remove'])
    expect(memberActions(manager, plain)).toEqual(['department', 'remove'])
    expect(memberActions(manager, adminMember)).toEqual(['department'])
    expect(memberActions(manager, managerMember)).toEqual(['department'])
    expect(memberActions({ userId: 4, isAdmin: false }, { user: { id: 5 }, is_admin: false, is_manager: true })).toEqual(['department'])
  })

  it('a gated page without its module answers with a clear message', () => {
    expect(moduleBlock('/oplog', [{ id: 'module_map' }], 1)).toBe('您没有「日志」模块的权限，请联系团队管理员开通')
    expect(moduleBlock('/oplog', [{ id: 'module_log' }], 1)).toBe('您没有「操作日志」的权限，请联系团队管理员开通')
    expect(moduleBlock('/oplog', [{ id: 'module_log' }, { id: 'oplog' }], 1)).toBeNull()
    expect(moduleBlock('/route', [{ id: 'module_map' }], 0)).toBe('「路线规划」是会员功能，请升级会员后使用')
    expect(moduleBlock('/map', [], 0)).toBeNull()
  })
})
