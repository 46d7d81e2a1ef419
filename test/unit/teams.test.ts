import { TEAM_UI_MSG } from '../../src/domain/messages'
import { FEATURES, ROUTE_FEATURES, featureOpen, featureRefusal } from '../../src/domain/moduleGate'
import { LAYER_PERMISSIONS, PERM, PERMISSION_CATALOGUE, canInGroup } from '../../src/domain/permissions'
import {
  GROUP_ACTION_IDS,
  GROUP_CATALOGUE,
  INVITE_CODE_ALPHABET,
  MODULE_IDS,
  ancestorIds,
  authorityDepartmentIds,
  canInTeam,
  catalogueForLevel,
  collaboratorCount,
  departmentOptsByLayer,
  descendantIds,
  effectiveLayerOpts,
  effectiveModuleIds,
  enabledCatalogueIds,
  hasRoomForCollaborator,
  isCatalogueId,
  isDepartmentManager,
  layerAuthority,
  managedLayerIds,
  parseInviteCode,
  shareableLayerIds,
  wouldCycle,
  type TeamMember,
  type TeamStructure,
} from '../../src/domain/teams'

/**
 * 1 总部
 * ├─ 2 华北
 * │  └─ 3 北京
 * │     └─ 4 海淀
 * └─ 5 华南
 * 6 独立部门
 */
const departments = [
  { id: 1, parent_id: 0 },
  { id: 2, parent_id: 1 },
  { id: 3, parent_id: 2 },
  { id: 4, parent_id: 3 },
  { id: 5, parent_id: 1 },
  { id: 6, parent_id: 0 },
]

const team: TeamStructure = {
  departments,
  grants: [
    { department_id: 1, layer_id: 100, opts: [PERM.LAYER_DATA_LIST] },
    { department_id: 2, layer_id: 200, opts: [PERM.MARKER_ADD, PERM.LAYER_DATA_LIST] },
    { department_id: 3, layer_id: 300, opts: [PERM.MARKER_EDIT] },
    { department_id: 3, layer_id: 100, opts: [PERM.NOTE_ADD] },
    { department_id: 4, layer_id: 400, opts: [PERM.LAYER_SHARE] },
    { department_id: 5, layer_id: 500, opts: [PERM.MARKER_DELETE] },
    { department_id: 6, layer_id: 600, opts: [PERM.LAYER_EXPORT] },
  ],
}

function member(over: Partial<TeamMember> = {}): TeamMember {
  return { is_admin: false, is_manager: false, department_id: 0, managed_department_ids: [], role_module_ids: [], ...over }
}

const admin = member({ is_admin: true })
const manager = member({ is_manager: true })

describe('the group-level catalogue', () => {
  it('lists the 7 modules as type 1 and the 8 group actions as type 2, named as the permission catalogue names them', () => {
    expect(GROUP_CATALOGUE.filter((e) => e.type === 1).map((e) => e.id)).toEqual(['module_map', 'module_logistics', 'module_routing', 'module_dispatch', 'module_print', 'module_log', 'module_share'])
    expect(GROUP_CATALOGUE.filter((e) => e.type === 2).map((e) => e.id)).toEqual(['layer_add', 'sign_list', 'routing_add', 'routing_delete', 'routing_share', 'oplog', 'task_add', 'task_delete'])
    for (const e of GROUP_CATALOGUE) expect(e.name).toBe(PERMISSION_CATALOGUE.find((p) => p.id === e.id)!.name)
    expect(MODULE_IDS).toHaveLength(7)
    expect(GROUP_ACTION_IDS).toHaveLength(8)
  })

  it('makes module_map the only mandatory entry', () => {
    expect(GROUP_CATALOGUE.filter((e) => e.mandatory).map((e) => e.id)).toEqual([PERM.MODULE_MAP])
  })

  it('marks logistics, routing, dispatch and print as VIP modules, and nothing else', () => {
    expect(GROUP_CATALOGUE.filter((e) => e.vip).map((e) => e.id)).toEqual([PERM.MODULE_LOGISTICS, PERM.MODULE_ROUTING, PERM.MODULE_DISPATCH, PERM.MODULE_PRINT])
  })

  it('lists the VIP modules on the free tier too, locked', () => {
    const free = catalogueForLevel(0)
    expect(free).toHaveLength(15)
    expect(free.filter((m) => !m.enabled).map((m) => m.id)).toEqual([PERM.MODULE_LOGISTICS, PERM.MODULE_ROUTING, PERM.MODULE_DISPATCH, PERM.MODULE_PRINT])
    expect(enabledCatalogueIds(0)).not.toContain(PERM.MODULE_ROUTING)
  })

  it.each([1, 2, 3, 4])('enables everything at level %i (trial and VIP tiers)', (level) => {
    expect(catalogueForLevel(level).every((m) => m.enabled)).toBe(true)
    expect(enabledCatalogueIds(level)).toEqual(GROUP_CATALOGUE.map((e) => e.id))
  })

  it('does not count layer permissions as catalogue ids', () => {
    expect(isCatalogueId(PERM.LAYER_ADD)).toBe(true)
    expect(isCatalogueId(PERM.MODULE_SHARE)).toBe(true)
    expect(isCatalogueId(PERM.MARKER_ADD)).toBe(false)
    expect(isCatalogueId('anything')).toBe(false)
  })
})

describe('the department tree', () => {
  it('finds descendants nested three levels deep, including the department itself', () => {
    expect(descendantIds(departments, 1).sort()).toEqual([1, 2, 3, 4, 5])
    expect(descendantIds(departments, 2).sort()).toEqual([2, 3, 4])
    expect(descendantIds(departments, 4)).toEqual([4])
    expect(descendantIds(departments, 6)).toEqual([6])
  })

  it('finds ancestors up to the top, including the department itself', () => {
    expect(ancestorIds(departments, 4)).toEqual([4, 3, 2, 1])
    expect(ancestorIds(departments, 5)).toEqual([5, 1])
    expect(ancestorIds(departments, 1)).toEqual([1])
  })

  it('ends a chain at an unknown parent', () => {
    expect(ancestorIds([{ id: 7, parent_id: 99 }], 7)).toEqual([7])
  })

  it('survives parent loops in stored data', () => {
    const looped = [
      { id: 1, parent_id: 3 },
      { id: 2, parent_id: 1 },
      { id: 3, parent_id: 2 },
    ]
    expect(descendantIds(looped, 1).sort()).toEqual([1, 2, 3])
    expect(ancestorIds(looped, 1).sort()).toEqual([1, 2, 3])
    expect(ancestorIds([{ id: 1, parent_id: 1 }], 1)).toEqual([1])
  })

  it('refuses moving a department under itself or any of its descendants', () => {
    expect(wouldCycle(departments, 2, 2)).toBe(true)
    expect(wouldCycle(departments, 2, 3)).toBe(true)
    expect(wouldCycle(departments, 2, 4)).toBe(true)
    expect(wouldCycle(departments, 1, 4)).toBe(true)
  })

  it('allows moving a department to the top, under a sibling, or under an ancestor', () => {
    expect(wouldCycle(departments, 4, 0)).toBe(false)
    expect(wouldCycle(departments, 2, 5)).toBe(false)
    expect(wouldCycle(departments, 4, 1)).toBe(false)
    expect(wouldCycle(departments, 5, 4)).toBe(false)
  })

  it('extends a department manager’s authority to every child department at any depth', () => {
    expect(authorityDepartmentIds(departments, [2]).sort()).toEqual([2, 3, 4])
    expect(authorityDepartmentIds(departments, [3, 5]).sort()).toEqual([3, 4, 5])
    expect(authorityDepartmentIds(departments, [99])).toEqual([])
  })
})

describe('a department manager’s layers', () => {
  it('covers the layer_ids of the managed departments and of their descendants, not of their parents', () => {
    expect([...managedLayerIds(team, [2])].sort()).toEqual([100, 200, 300, 400])
    expect([...managedLayerIds(team, [4])]).toEqual([400])
    expect([...managedLayerIds(team, [1])].sort()).toEqual([100, 200, 300, 400, 500])
    expect([...managedLayerIds(team, [])]).toEqual([])
  })

  it('counts as a department manager only with a department that exists', () => {
    expect(isDepartmentManager({ managed_department_ids: [2] }, team)).toBe(true)
    expect(isDepartmentManager({ managed_department_ids: [] }, team)).toBe(false)
    expect(isDepartmentManager({ managed_department_ids: [99] }, team)).toBe(false)
  })
})

describe('a member’s effective opts on a layer', () => {
  it('gives the administrator and group managers every layer permission on any layer', () => {
    for (const who of [admin, manager]) {
      expect(effectiveLayerOpts(who, team, 999, [])).toEqual(LAYER_PERMISSIONS)
      expect(layerAuthority(who, team).isManagerOf(999)).toBe(true)
    }
  })

  it('gives a manager of a parent department every layer permission on a child department’s layer', () => {
    const boss = member({ managed_department_ids: [2] })
    expect(effectiveLayerOpts(boss, team, 400, [])).toEqual(LAYER_PERMISSIONS)
    expect(layerAuthority(boss, team).isManagerOf(300)).toBe(true)
  })

  it('gives a department manager nothing extra on layers outside their departments', () => {
    const boss = member({ managed_department_ids: [3] })
    expect(layerAuthority(boss, team).isManagerOf(200)).toBe(false)
    expect(effectiveLayerOpts(boss, team, 200, [])).toEqual([])
    expect(effectiveLayerOpts(boss, team, 600, [PERM.MARKER_ADD])).toEqual([PERM.MARKER_ADD])
  })

  it('unites the member’s own opts with the grants of their department and every ancestor, in catalogue order', () => {
    const inHaidian = member({ department_id: 4 })
    expect(effectiveLayerOpts(inHaidian, team, 100, [])).toEqual([PERM.LAYER_DATA_LIST, PERM.NOTE_ADD])
    expect(effectiveLayerOpts(inHaidian, team, 200, [PERM.MARKER_DELETE])).toEqual([PERM.LAYER_DATA_LIST, PERM.MARKER_ADD, PERM.MARKER_DELETE])
    expect(effectiveLayerOpts(inHaidian, team, 300, [])).toEqual([PERM.MARKER_EDIT])
    expect(effectiveLayerOpts(inHaidian, team, 400, [])).toEqual([PERM.LAYER_SHARE])
  })

  it('does not give a parent department’s member the grants of a child department', () => {
    const inNorth = member({ department_id: 2 })
    expect(effectiveLayerOpts(inNorth, team, 300, [])).toEqual([])
    expect(effectiveLayerOpts(inNorth, team, 400, [])).toEqual([])
    expect(effectiveLayerOpts(inNorth, team, 200, [])).toEqual([PERM.LAYER_DATA_LIST, PERM.MARKER_ADD])
  })

  it('does not give a sibling department’s grants', () => {
    expect(effectiveLayerOpts(member({ department_id: 5 }), team, 200, [])).toEqual([])
  })

  it('gives a member in no department only their own opts, dropping ids that are not layer permissions', () => {
    expect(effectiveLayerOpts(member(), team, 100, [PERM.MARKER_EDIT, 'nonsense', PERM.MODULE_MAP])).toEqual([PERM.MARKER_EDIT])
    expect(effectiveLayerOpts(member(), team, 100, [])).toEqual([])
  })

  it('lists the department chain’s opts by layer', () => {
    expect(departmentOptsByLayer(team, 3)).toEqual(
      new Map([
        [100, [PERM.LAYER_DATA_LIST, PERM.NOTE_ADD]],
        [200, [PERM.LAYER_DATA_LIST, PERM.MARKER_ADD]],
        [300, [PERM.MARKER_EDIT]],
      ]),
    )
    expect(departmentOptsByLayer(team, 0)).toEqual(new Map())
    expect(departmentOptsByLayer(team, 99)).toEqual(new Map())
  })
})

describe('a member’s effective modules', () => {
  const all = GROUP_CATALOGUE.map((e) => e.id)

  it('gives the administrator and managers every module and action of a trial group', () => {
    expect(effectiveModuleIds(admin, 1)).toEqual(all)
    expect(effectiveModuleIds(manager, 4)).toEqual(all)
  })

  it('leaves the VIP modules out for everyone on the free tier', () => {
    expect(effectiveModuleIds(admin, 0)).toEqual(all.filter((id) => !['module_logistics', 'module_routing', 'module_dispatch', 'module_print'].includes(id)))
    expect(effectiveModuleIds(member({ role_module_ids: [PERM.MODULE_ROUTING, PERM.MODULE_LOG] }), 0)).toEqual([PERM.MODULE_MAP, PERM.MODULE_LOG])
  })

  it('gives a plain member module_map plus their roles’ ids, in catalogue order', () => {
    expect(effectiveModuleIds(member(), 1)).toEqual([PERM.MODULE_MAP])
    expect(effectiveModuleIds(member({ role_module_ids: [PERM.OPLOG, PERM.MODULE_ROUTING, PERM.LAYER_ADD] }), 1)).toEqual([PERM.MODULE_MAP, PERM.MODULE_ROUTING, PERM.LAYER_ADD, PERM.OPLOG])
  })

  it('ignores role ids that are not in the catalogue', () => {
    expect(effectiveModuleIds(member({ role_module_ids: [PERM.MARKER_ADD, 'x'] }), 1)).toEqual([PERM.MODULE_MAP])
  })

  it('decides group-level actions from the roles: layer_add needs a role or a manager', () => {
    expect(canInTeam(member(), 1, PERM.LAYER_ADD)).toBe(false)
    expect(canInTeam(member({ role_module_ids: [PERM.LAYER_ADD] }), 1, PERM.LAYER_ADD)).toBe(true)
    expect(canInTeam(manager, 0, PERM.LAYER_ADD)).toBe(true)
    expect(canInTeam(member({ role_module_ids: [PERM.MODULE_PRINT] }), 0, PERM.MODULE_PRINT)).toBe(false)
  })

  it('lets permissions.canInGroup read the same answer from Actor.modules', () => {
    expect(canInGroup({ is_admin: false, is_manager: false }, PERM.OPLOG)).toBe(false)
    expect(canInGroup({ is_admin: false, is_manager: false, modules: [PERM.OPLOG] }, PERM.OPLOG)).toBe(true)
    expect(canInGroup({ is_admin: false, is_manager: true }, PERM.OPLOG)).toBe(true)
  })
})

describe('SPEC 6 share visibility', () => {
  const layers = [100, 200, 300, 400, 500, 600, 700].map((id) => ({ id }))

  it('shows a manager every layer', () => {
    expect(shareableLayerIds(manager, team, layers, new Map())).toEqual([100, 200, 300, 400, 500, 600, 700])
    expect(shareableLayerIds(admin, team, layers, new Map())).toEqual([100, 200, 300, 400, 500, 600, 700])
  })

  it('shows a department manager only their departments’ and descendants’ layer_ids', () => {
    const boss = member({ managed_department_ids: [3], department_id: 6 })
    expect(shareableLayerIds(boss, team, layers, new Map([[700, [PERM.LAYER_SHARE]]]))).toEqual([100, 300, 400])
  })

  it('shows others the layers whose effective opts include layer_share, own or through the department', () => {
    const inHaidian = member({ department_id: 4 })
    expect(
      shareableLayerIds(
        inHaidian,
        team,
        layers,
        new Map([
          [700, [PERM.LAYER_SHARE]],
          [600, [PERM.MARKER_ADD]],
        ]),
      ),
    ).toEqual([400, 700])
    expect(shareableLayerIds(member(), team, layers, new Map())).toEqual([])
  })
})

describe('invites and the join limit', () => {
  it('reads a code typed as it is, in any case, or from an invite link', () => {
    expect(parseInviteCode(' abcd2345 ')).toBe('ABCD2345')
    expect(parseInviteCode('https://example.com/#/group/join?code=abcd2345&x=1')).toBe('ABCD2345')
    expect(parseInviteCode('https://example.com/join?from=a&code=ZZZZ9999')).toBe('ZZZZ9999')
  })

  it('uses an alphabet without look-alike characters', () => {
    for (const c of '01OIL') expect(INVITE_CODE_ALPHABET).not.toContain(c)
  })

  it('counts collaborators for join_limit: members but the administrator, plus pending pre-registrations', () => {
    expect(collaboratorCount(1, 0)).toBe(0) // the administrator alone
    expect(collaboratorCount(6, 0)).toBe(5)
    expect(collaboratorCount(3, 2)).toBe(4)
    expect(collaboratorCount(1, 3)).toBe(3)
    // No members at all (never so for a group, whose administrator is always a member) is no one, not -1.
    expect(collaboratorCount(0, 0)).toBe(0)
  })

  it("has room for a trial group's fifth collaborator but not its sixth (SPEC 1, 9: administrator + 5)", () => {
    expect(hasRoomForCollaborator(collaboratorCount(5, 0), 5)).toBe(true)
    expect(hasRoomForCollaborator(collaboratorCount(6, 0), 5)).toBe(false)
    expect(hasRoomForCollaborator(collaboratorCount(3, 2), 5)).toBe(true)
    expect(hasRoomForCollaborator(collaboratorCount(4, 2), 5)).toBe(false)
    expect(hasRoomForCollaborator(collaboratorCount(1, 5), 5)).toBe(false)
    // VIP 3 default: administrator + 50.
    expect(hasRoomForCollaborator(collaboratorCount(50, 0), 50)).toBe(true)
    expect(hasRoomForCollaborator(collaboratorCount(51, 0), 50)).toBe(false)
  })

  it('checks several at once, and a limit of 0 (the free plan) leaves the administrator alone', () => {
    expect(hasRoomForCollaborator(0, 5, 5)).toBe(true)
    expect(hasRoomForCollaborator(0, 5, 6)).toBe(false)
    expect(hasRoomForCollaborator(1, 5, 4)).toBe(true)
    expect(hasRoomForCollaborator(collaboratorCount(1, 0), 0)).toBe(false)
  })
})

describe('features behind a module (moduleGate: the one rule of the menus, pages and server calls)', () => {
  const held = (m: TeamMember, level = 1) => effectiveModuleIds(m, level)

  it('opens every feature to the administrator and managers of a paid or trial group', () => {
    for (const who of [admin, manager]) {
      for (const gate of Object.values(FEATURES)) {
        expect(featureRefusal(gate, held(who), 1)).toBeNull()
        expect(featureOpen(gate, held(who))).toBe(true)
      }
    }
  })

  it('keeps share and log open to them on the free tier, and says routing and dispatch are VIP features', () => {
    expect(featureRefusal(FEATURES.share, held(admin, 0), 0)).toBeNull()
    expect(featureRefusal(FEATURES.log, held(manager, 0), 0)).toBeNull()
    expect(featureRefusal(FEATURES.routing, held(admin, 0), 0)).toBe(TEAM_UI_MSG.moduleLocked('路线规划'))
    expect(featureRefusal(FEATURES.dispatch, held(member({ role_module_ids: [PERM.MODULE_DISPATCH] }), 0), 0)).toBe(TEAM_UI_MSG.moduleLocked('调度'))
  })

  it('refuses a member the share feature without the share module, whatever else they hold', () => {
    expect(featureRefusal(FEATURES.share, held(member({ role_module_ids: [PERM.MODULE_MAP] })), 1)).toBe('您没有「分享」模块的权限，请联系团队管理员开通')
    expect(featureRefusal(FEATURES.share, held(member({ role_module_ids: [PERM.MODULE_SHARE] })), 1)).toBeNull()
  })

  it('gives a department manager no module by their standing (it is over layers)', () => {
    const boss = member({ managed_department_ids: [2] })
    expect(featureRefusal(FEATURES.share, held(boss), 1)).toBe(TEAM_UI_MSG.moduleMissing('分享'))
  })

  it('opens the log with the log module and the oplog permission together, and says which one is missing', () => {
    const log = (ids: string[]) => featureRefusal(FEATURES.log, held(member({ role_module_ids: ids })), 1)
    expect(log([PERM.MODULE_LOG, PERM.OPLOG])).toBeNull()
    expect(log([PERM.MODULE_LOG])).toBe('您没有「操作日志」的权限，请联系团队管理员开通')
    expect(log([PERM.OPLOG])).toBe(TEAM_UI_MSG.moduleMissing('日志'))
    expect(featureOpen(FEATURES.log, [{ id: PERM.MODULE_LOG }])).toBe(false)
    expect(featureOpen(FEATURES.log, [{ id: PERM.MODULE_LOG }, { id: PERM.OPLOG }])).toBe(true)
  })

  it('gates the pages of the features', () => {
    expect(ROUTE_FEATURES['/oplog']).toBe(FEATURES.log)
    expect(ROUTE_FEATURES['/share/management']).toBe(FEATURES.share)
    expect(ROUTE_FEATURES['/route']).toBe(FEATURES.routing)
    expect(ROUTE_FEATURES['/task/add']).toBe(FEATURES.dispatch)
  })
})
