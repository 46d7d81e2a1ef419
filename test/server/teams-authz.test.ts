/**
 * The authorisation matrix of the teams: every kind of caller against every layer and marker action,
 * and (the module axis, at the end) every kind of caller against every call behind a module.
 *
 * One team per kind of caller. Departments: 总部 (top) > 一部 (child) > 一组 (grandchild), and an
 * unrelated top department 二部. Each action runs on a fresh layer (with a marker, a note and a
 * field made by the administrator) that 一部 is authorised on, plus whatever the caller's profile
 * grants on it, so that destructive actions do not disturb the next one.
 */
import { ErrCode } from '../../types/api'
import { TEAM_UI_MSG } from '../../src/domain/messages'
import { LAYER_PERMISSIONS, PERM, type PermissionId } from '../../src/domain/permissions'
import type { CallResult } from './helpers'
import { makeWorld, ok, type Person, type TeamWorld } from './teams-fixture'

type Need = PermissionId | 'read' | 'auth'

interface World {
  w: TeamWorld
  actor: Person
  /** A member of 一组 (within 一部): whom the auth actions grant to. */
  colleague: Person
  departments: { top: number; child: number; grandchild: number; other: number }
}

interface Target {
  layer: number
  marker: number
  markerName: string
  note: number
  field: number
}

interface Profile {
  title: string
  /** Makes the acting person in the world. */
  setup(world: Omit<World, 'actor'>): Promise<Person>
  /** What the profile holds on a new layer beyond 一部's own grant. */
  authorize(world: World, layer: number): Promise<void>
  may(need: Need): boolean
}

const everything = () => true
const nothing = () => false

function memberWith(perm: PermissionId, via: 'user' | 'department'): Profile {
  return {
    title: via === 'user' ? `a member granted ${perm} on the layer` : `a member of 一组 whose ancestor 一部 is granted ${perm} on the layer`,
    async setup({ w, departments }) {
      const actor = await w.join('13900000001', '成员')
      if (via === 'department') await w.place(actor, departments.grandchild)
      return actor
    },
    async authorize({ w, actor, departments }, layer) {
      if (via === 'user') await w.grant(layer, { user_id: actor.userid }, [perm])
      else await w.grant(layer, { department_id: departments.child }, [PERM.LAYER_DATA_LIST, perm])
    },
    may: (need) => need === 'read' || need === perm,
  }
}

const profiles: Profile[] = [
  { title: 'the administrator', setup: async ({ w }) => w.owner, authorize: async () => undefined, may: everything },
  {
    title: 'a group manager',
    async setup({ w }) {
      const actor = await w.join('13900000001', '经理')
      await w.makeManager(actor)
      return actor
    },
    authorize: async () => undefined,
    may: everything,
  },
  {
    title: 'the manager of the parent department 总部, on a layer of its child 一部',
    async setup({ w, departments }) {
      const actor = await w.join('13900000001', '总部主管')
      ok(await w.call('/api/department/setting/manager', { department_id: departments.top, userids: [actor.userid] }, w.owner))
      return actor
    },
    authorize: async () => undefined,
    may: everything,
  },
  {
    title: 'the manager of the unrelated department 二部',
    async setup({ w, departments }) {
      const actor = await w.join('13900000001', '二部主管')
      ok(await w.call('/api/department/setting/manager', { department_id: departments.other, userids: [actor.userid] }, w.owner))
      return actor
    },
    authorize: async () => undefined,
    may: nothing,
  },
  {
    title: 'a member of the parent department 总部 with no grant of their own',
    async setup({ w, departments }) {
      const actor = await w.join('13900000001', '总部成员')
      await w.place(actor, departments.top)
      return actor
    },
    authorize: async () => undefined,
    may: nothing,
  },
  {
    title: 'a member of another group',
    setup: async ({ w }) => w.stranger('13700000001', '外人'),
    authorize: async () => undefined,
    may: nothing,
  },
  ...LAYER_PERMISSIONS.map((p) => memberWith(p, 'user')),
  ...LAYER_PERMISSIONS.map((p) => memberWith(p, 'department')),
]

type Outcome = 'allowed' | 'refused' | string

/** A call that either works or is refused (FORBIDDEN, or NOT_FOUND for what the caller cannot see). */
function decided(res: CallResult): Outcome {
  if (res.status === 200 && res.errcode === ErrCode.OK) return 'allowed'
  if (res.errcode === ErrCode.FORBIDDEN || res.errcode === ErrCode.NOT_FOUND) return 'refused'
  return `unexpected ${res.status} ${res.errcode} ${res.errmsg}`
}

/** A listing that works for everyone: allowed when it holds the item, refused when it leaves it out. */
function listed(res: CallResult, has: (data: any) => boolean): Outcome {
  if (res.errcode === ErrCode.FORBIDDEN || res.errcode === ErrCode.NOT_FOUND) return 'refused'
  if (res.errcode !== ErrCode.OK) return `unexpected ${res.status} ${res.errcode} ${res.errmsg}`
  return has(res.data) ? 'allowed' : 'refused'
}

interface Action {
  title: string
  need: Need
  run(world: World, target: Target): Promise<Outcome>
}

const BOX = [116.3, 39.8, 116.5, 40.0]

const actions: Action[] = [
  {
    title: 'see the layer in /api/layer/getlist',
    need: 'read',
    run: async ({ w, actor }, t) => listed(await w.call('/api/layer/getlist', {}, actor), (list) => list.some((l: any) => l.id === t.layer)),
  },
  { title: 'rename the layer', need: PERM.LAYER_EDIT, run: async ({ w, actor }, t) => decided(await w.call('/api/layer/save', { id: t.layer, name: '改名' }, actor)) },
  { title: 'delete the layer', need: PERM.LAYER_DELETE, run: async ({ w, actor }, t) => decided(await w.call('/api/layer/delete', { id: t.layer }, actor)) },
  { title: 'hide the layer on their map', need: 'read', run: async ({ w, actor }, t) => decided(await w.call('/api/layer/setting/show', { ids: [t.layer], show: false }, actor)) },
  { title: 'make the layer the default', need: PERM.LAYER_EDIT, run: async ({ w, actor }, t) => decided(await w.call('/api/layer/setting/default', { id: t.layer }, actor)) },
  {
    title: 'set the layer’s title style',
    need: PERM.LAYER_EDIT,
    run: async ({ w, actor }, t) => decided(await w.call('/api/system/title/style/save', { layer_id: t.layer, color: '#FF0000' }, actor)),
  },
  {
    title: 'read the markers with /api/marker/getlist',
    need: 'read',
    run: async ({ w, actor }, t) => listed(await w.call('/api/marker/getlist', { layer_ids: [t.layer], pageindex: 1, pagesize: 5000 }, actor), (d) => d.list.some((m: any) => m.id === t.marker)),
  },
  {
    title: 'read a marker by id',
    need: 'read',
    run: async ({ w, actor }, t) => listed(await w.call('/api/marker/getbyid', { ids: [t.marker] }, actor), (list) => list.some((m: any) => m.id === t.marker)),
  },
  {
    title: 'list marker ids for syncing',
    need: 'read',
    run: async ({ w, actor }, t) => listed(await w.call('/api/marker/getlist/ids', { ids: [t.layer] }, actor), (list) => list.some((m: any) => m.id === t.marker)),
  },
  {
    title: 'add a marker',
    need: PERM.MARKER_ADD,
    run: async ({ w, actor }, t) => decided(await w.call('/api/marker/save', { layer_id: t.layer, name: '新标注', type: 0, points: '116.4,39.9' }, actor)),
  },
  {
    title: 'edit a marker',
    need: PERM.MARKER_EDIT,
    run: async ({ w, actor }, t) => decided(await w.call('/api/marker/save', { id: t.marker, layer_id: t.layer, name: '改过', type: 0, points: '116.41,39.91' }, actor)),
  },
  { title: 'delete a marker', need: PERM.MARKER_DELETE, run: async ({ w, actor }, t) => decided(await w.call('/api/marker/delete', { id: t.marker }, actor)) },
  {
    title: 'find a marker by keyword',
    need: 'read',
    run: async ({ w, actor }, t) => listed(await w.call('/api/marker/search', { kw: t.markerName }, actor), (d) => d.list.some((m: any) => m.id === t.marker)),
  },
  {
    title: 'find a marker in a box (range search)',
    need: PERM.MARKER_RANGE_SEARCH,
    run: async ({ w, actor }, t) => listed(await w.call('/api/marker/search', { bbox: BOX, layer_ids: [t.layer] }, actor), (d) => d.list.some((m: any) => m.id === t.marker)),
  },
  { title: 'list the notes of a marker', need: PERM.NOTE_LIST, run: async ({ w, actor }, t) => decided(await w.call('/api/marker/note/getlist', { markerid: t.marker }, actor)) },
  { title: 'add a note', need: PERM.NOTE_ADD, run: async ({ w, actor }, t) => decided(await w.call('/api/marker/note/save', { marker_id: t.marker, content: '新备注' }, actor)) },
  {
    title: 'edit a note',
    need: PERM.NOTE_EDIT,
    run: async ({ w, actor }, t) => decided(await w.call('/api/marker/note/save', { id: t.note, marker_id: t.marker, content: '改过的备注' }, actor)),
  },
  { title: 'delete a note', need: PERM.NOTE_DELETE, run: async ({ w, actor }, t) => decided(await w.call('/api/marker/note/delete', { ids: [t.note] }, actor)) },
  { title: 'list the layer’s fields', need: 'read', run: async ({ w, actor }, t) => decided(await w.call('/api/layer/field/getlist', { layer_id: t.layer }, actor)) },
  { title: 'add a field', need: PERM.LAYER_FIELD, run: async ({ w, actor }, t) => decided(await w.call('/api/layer/field/save', { layer_id: t.layer, name: '新字段', kind: 'text' }, actor)) },
  { title: 'delete a field', need: PERM.LAYER_FIELD, run: async ({ w, actor }, t) => decided(await w.call('/api/layer/field/delete', { id: t.field }, actor)) },
  { title: 'export the layer', need: PERM.LAYER_EXPORT, run: async ({ w, actor }, t) => decided(await w.call('/api/marker/export', { layer_id: t.layer, format: 'geojson' }, actor)) },
  {
    title: 'import into the layer',
    need: PERM.LAYER_IMPORT,
    run: async ({ w, actor }, t) => decided(await w.call('/api/marker/import', { layer_id: t.layer, format: 'csv', content: 'name,lng,lat\n导入,116.4,39.9' }, actor)),
  },
  {
    title: 'grant the layer to a member of a child department',
    need: 'auth',
    run: async ({ w, actor, colleague }, t) => decided(await w.call('/api/layer/save/auth', { layer_id: t.layer, user_id: colleague.userid, opts: [PERM.MARKER_ADD] }, actor)),
  },
  {
    title: 'grant the layer to a child department',
    need: 'auth',
    run: async ({ w, actor, departments }, t) => decided(await w.call('/api/layer/save/auth', { layer_id: t.layer, department_id: departments.grandchild, opts: [PERM.MARKER_ADD] }, actor)),
  },
  {
    title: 'take the child department’s grant on the layer away',
    need: 'auth',
    run: async ({ w, actor, departments }, t) => decided(await w.call('/api/department/delete/layer/auth', { department_id: departments.child, layer_ids: [t.layer] }, actor)),
  },
]

describe.each(profiles)('$title', (profile) => {
  let world: World
  let seq = 0

  beforeAll(async () => {
    const w = await makeWorld()
    const top = await w.department('总部')
    const child = await w.department('一部', top)
    const grandchild = await w.department('一组', child)
    const other = await w.department('二部')
    const colleague = await w.join('13900000002', '同事')
    await w.place(colleague, grandchild)
    const base = { w, colleague, departments: { top, child, grandchild, other } }
    world = { ...base, actor: await profile.setup(base) }
  })
  afterAll(() => world.w.close())

  async function freshTarget(): Promise<Target> {
    const { w } = world
    seq++
    const markerName = `目标标注${seq}`
    const layer = await w.layer(`目标图层${seq}`)
    const marker = await w.marker(layer, markerName)
    const note = await w.note(marker, '备注')
    const field = ok(await w.call('/api/layer/field/save', { layer_id: layer, name: '字段', kind: 'text' }, w.owner)).id
    // The layer belongs to 一部: its authority covers it, and its members see it.
    await w.grant(layer, { department_id: world.departments.child }, [PERM.LAYER_DATA_LIST])
    await profile.authorize(world, layer)
    return { layer, marker, markerName, note, field }
  }

  it.each(actions)(`may $title when it holds what that needs, and is refused otherwise`, async (action) => {
    const target = await freshTarget()
    expect(await action.run(world, target)).toBe(profile.may(action.need) ? 'allowed' : 'refused')
  })
})

// ---------------------------------------------------------------------------------------------
// The module axis: calls behind a module are refused without it, with the message the app shows
// on the feature's page, whatever the caller holds on layers.

type Feature = 'share' | 'log' | 'routing' | 'dispatch'

/** The messages of the app's page gate (moduleGate.ts), spelled out here. */
const MISSING: Record<Feature, string> = {
  share: TEAM_UI_MSG.moduleMissing('分享'),
  log: TEAM_UI_MSG.moduleMissing('日志'),
  routing: TEAM_UI_MSG.moduleMissing('路线规划'),
  dispatch: TEAM_UI_MSG.moduleMissing('调度'),
}
const LOCKED = { routing: TEAM_UI_MSG.moduleLocked('路线规划'), dispatch: TEAM_UI_MSG.moduleLocked('调度') }
const NO_OPLOG = TEAM_UI_MSG.actionMissing('操作日志')

interface ModuleWorld {
  w: TeamWorld
  actor: Person
}

interface ModuleProfile {
  title: string
  /** Makes the acting person (after the world's layer exists; the actor holds layer_share and more on it). */
  setup(w: TeamWorld, layer: number): Promise<Person>
  /** Why each feature is refused to the profile; absent: allowed. */
  refused: Partial<Record<Feature, string>>
}

/** Everything the members below hold on the layer: only a module may stop them. */
const LAYER_OPTS = [PERM.LAYER_DATA_LIST, PERM.LAYER_SHARE, PERM.MARKER_DELETE, PERM.LAYER_LOG]

function memberWithRole(title: string, moduleIds: string[], refused: ModuleProfile['refused']): ModuleProfile {
  return {
    title,
    async setup(w, layer) {
      const actor = await w.join('13900000001', '成员')
      await w.grant(layer, { user_id: actor.userid }, LAYER_OPTS)
      if (moduleIds.length) await w.role('角色', moduleIds, [actor])
      return actor
    },
    refused,
  }
}

const setLevel = (w: TeamWorld, level: number) => w.t.db.kysely.updateTable('groups').set({ level }).where('id', '=', w.groupId).execute()

const moduleProfiles: ModuleProfile[] = [
  { title: 'the administrator', setup: async (w) => w.owner, refused: {} },
  {
    title: 'a group manager',
    async setup(w) {
      const actor = await w.join('13900000001', '经理')
      await w.makeManager(actor)
      return actor
    },
    refused: {},
  },
  {
    title: 'the administrator on the free tier (routing and dispatch are VIP modules)',
    async setup(w) {
      await setLevel(w, 0)
      return w.owner
    },
    refused: { routing: LOCKED.routing, dispatch: LOCKED.dispatch },
  },
  {
    title: 'a member whose role holds every module, on the free tier',
    async setup(w, layer) {
      const actor = await w.join('13900000001', '成员')
      await w.grant(layer, { user_id: actor.userid }, LAYER_OPTS)
      await w.role('全部', [PERM.MODULE_SHARE, PERM.MODULE_LOG, PERM.OPLOG, PERM.MODULE_ROUTING, PERM.MODULE_DISPATCH], [actor])
      await setLevel(w, 0)
      return actor
    },
    refused: { routing: LOCKED.routing, dispatch: LOCKED.dispatch },
  },
  {
    title: 'a department manager with no role (their standing is over layers, not modules)',
    async setup(w, layer) {
      const department = await w.department('一部')
      await w.grant(layer, { department_id: department }, [PERM.LAYER_DATA_LIST])
      const actor = await w.join('13900000001', '一部主管')
      ok(await w.call('/api/department/setting/manager', { department_id: department, userids: [actor.userid] }, w.owner))
      return actor
    },
    refused: MISSING,
  },
  memberWithRole('a member with no role', [], MISSING),
  memberWithRole('a member whose role holds only module_map', [PERM.MODULE_MAP], MISSING),
  {
    title: 'a member whose share module was taken away',
    async setup(w, layer) {
      const actor = await w.join('13900000001', '成员')
      await w.grant(layer, { user_id: actor.userid }, LAYER_OPTS)
      const role = await w.role('分享员', [PERM.MODULE_MAP, PERM.MODULE_SHARE], [actor])
      ok(await w.call('/api/role/save/module', { role_id: role, module_ids: [PERM.MODULE_MAP] }, w.owner))
      return actor
    },
    refused: MISSING,
  },
  memberWithRole('a member whose role holds module_share', [PERM.MODULE_SHARE], { log: MISSING.log, routing: MISSING.routing, dispatch: MISSING.dispatch }),
  memberWithRole('a member whose role holds module_log and oplog', [PERM.MODULE_LOG, PERM.OPLOG], { share: MISSING.share, routing: MISSING.routing, dispatch: MISSING.dispatch }),
  memberWithRole('a member whose role holds module_log but not oplog', [PERM.MODULE_LOG], { ...MISSING, log: NO_OPLOG }),
  memberWithRole('a member whose role holds oplog but not module_log', [PERM.OPLOG], MISSING),
  memberWithRole('a member whose role holds module_routing', [PERM.MODULE_ROUTING], { share: MISSING.share, log: MISSING.log, dispatch: MISSING.dispatch }),
  memberWithRole('a member whose role holds module_dispatch', [PERM.MODULE_DISPATCH], { share: MISSING.share, log: MISSING.log, routing: MISSING.routing }),
]

interface GatedCall {
  title: string
  feature: Feature
  run(world: ModuleWorld, layer: number): Promise<CallResult>
}

const gatedCalls: GatedCall[] = [
  { title: 'share a layer', feature: 'share', run: ({ w, actor }, layer) => w.call('/api/share/save', { name: '分享', type: 1, data_ids: [layer] }, actor) },
  {
    title: 'share a marker',
    feature: 'share',
    run: async ({ w, actor }, layer) => w.call('/api/share/save', { name: '分享', type: 2, data_ids: [await w.marker(layer, '分享的标注')] }, actor),
  },
  { title: 'list the shares', feature: 'share', run: ({ w, actor }) => w.call('/api/share/getlist/group', {}, actor) },
  {
    title: 'delete their own share',
    feature: 'share',
    async run({ w, actor }, layer) {
      const id = ok(await w.call<string>('/api/share/save', { name: '分享', type: 1, data_ids: [layer] }, w.owner))
      await w.t.db.kysely.updateTable('shares').set({ op_user_id: actor.userid }).where('id', '=', id).execute()
      return w.call('/api/share/delete', { id }, actor)
    },
  },
  { title: 'read the operation log', feature: 'log', run: ({ w, actor }) => w.call('/api/oplog/getlist', {}, actor) },
  {
    title: 'restore a deleted marker from the log',
    feature: 'log',
    async run({ w, actor }, layer) {
      const marker = await w.marker(layer, '删掉的标注')
      ok(await w.call('/api/marker/delete', { id: marker }, w.owner))
      const op = await w.t.db.kysely.selectFrom('oplog').select('id').where('entity', '=', 'marker').where('entity_id', '=', marker).where('action', '=', 'delete').executeTakeFirstOrThrow()
      return w.call('/api/oplog/restore', { id: op.id }, actor)
    },
  },
  { title: 'list the routes', feature: 'routing', run: ({ w, actor }) => w.call('/api/route/getlist', {}, actor) },
  {
    title: 'plan a route',
    feature: 'routing',
    run: ({ w, actor }) =>
      w.call(
        '/api/route/plan',
        {
          mode: 'walking',
          stops: [
            { lng: 116.4, lat: 39.9 },
            { lng: 116.41, lat: 39.91 },
          ],
        },
        actor,
      ),
  },
  { title: 'list the tasks', feature: 'dispatch', run: ({ w, actor }) => w.call('/api/task/getlist', { scope: 'mine' }, actor) },
]

describe.each(moduleProfiles)('the module axis: $title', (profile) => {
  let world: ModuleWorld
  let layer = 0

  beforeAll(async () => {
    const w = await makeWorld()
    layer = await w.layer('共享图层')
    world = { w, actor: await profile.setup(w, layer) }
  })
  afterAll(() => world.w.close())

  it.each(gatedCalls)('may $title only with its module, and is refused with the page’s message otherwise', async (call) => {
    const res = await call.run(world, layer)
    const refusal = profile.refused[call.feature]
    const outcome = res.errcode === ErrCode.OK ? 'allowed' : `${res.errcode} ${res.errmsg}`
    expect(outcome).toBe(refusal ? `${ErrCode.FORBIDDEN} ${refusal}` : 'allowed')
  })
})
