/**
 * The authorisation matrix of issue 5: every kind of caller against every layer and marker action.
 *
 * One team per kind of caller. Departments: 总部 (top) > 一部 (child) > 一组 (grandchild), and an
 * unrelated top department 二部. Each action runs on a fresh layer (with a marker, a note and a
 * field made by the administrator) that 一部 is authorised on, plus whatever the caller's profile
 * grants on it, so that destructive actions do not disturb the next one.
 */
import { ErrCode } from '../../types/api'
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
    run: async ({ w, actor }, t) =>
      listed(await w.call('/api/marker/getlist', { layer_ids: [t.layer], pageindex: 1, pagesize: 5000 }, actor), (d) => d.list.some((m: any) => m.id === t.marker)),
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
    run: async ({ w, actor, departments }, t) =>
      decided(await w.call('/api/layer/save/auth', { layer_id: t.layer, department_id: departments.grandchild, opts: [PERM.MARKER_ADD] }, actor)),
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
