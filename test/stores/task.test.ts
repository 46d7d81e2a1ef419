/**
 * The task client: TaskStore's lists per scope (全部 only for managers) with a status
 * filter and counts, the module gate (module_dispatch; locked on the free tier), start, complete
 * with a check-in's id, delete; TaskDraft: place from a marker or the position, assignees,
 * validation before any call (src/domain/tasks.ts messages), saving and editing.
 */
import type { Task } from '../../types/tasks'
import { PERM } from '../../src/domain/permissions'
import { TASK_MSG } from '../../src/domain/taskMessages'
import { fail, makeRoot, ok, buildLogin, type Handler } from '../support/fakes'
import { buildMarker } from '../support/mapBuilders'
import '../../src/stores/taskStores'

const DISPATCH = [PERM.MODULE_MAP, PERM.MODULE_DISPATCH]

async function signedIn(handlers: Record<string, Handler> = {}, modules: string[] = DISPATCH, options: { admin?: boolean; level?: 0 | 1 } = {}) {
  const login = buildLogin({ modules: modules.map((id) => ({ id })) })
  login.is_admin = !!options.admin
  if (options.level !== undefined && login.user.group_vip) login.user.group_vip.level = options.level
  const made = makeRoot({ '/api/user/login': () => ok(login), ...handlers })
  expect(await made.root.session.login('13800138000', '123456')).toBe(true)
  made.root.groupRefresh.stop()
  made.calls.length = 0
  return made
}

const texts = (root: { app: { notices: { text: string }[] } }) => root.app.notices.map((n) => n.text)
const sent = (calls: { path: string; body: any }[], path: string) => calls.filter((c) => c.path === path).map(({ body: { header: _h, ...rest } }) => rest)

const NOW = '2025-06-01T02:00:00.000Z'
const counts = { open: 1, doing: 0, overdue: 0, done: 0 }

function buildTask(over: Partial<Task> = {}): Task {
  return {
    id: 1,
    title: '巡查消防栓',
    content: '',
    marker: { id: 11, name: '东门', lng: 116.4, lat: 39.9 },
    place: null,
    users: [{ id: 7, nickname: '小王' }],
    departments: [],
    due_date: '2025-06-03',
    state: 'open',
    status: 'open',
    creator: { id: 1, nickname: '队长' },
    created_at: NOW,
    updated_at: NOW,
    done_at: null,
    done_by: null,
    proof: null,
    can: { edit: false, delete: false, start: true, complete: true },
    ...over,
  }
}

describe('TaskStore: module and tabs', () => {
  it('needs module_dispatch (locked on the free tier, missing otherwise) and asks nothing without it', async () => {
    const { root, calls } = await signedIn({}, [PERM.MODULE_MAP], { level: 0 })
    expect(root.task.canUse).toBe(false)
    expect(root.task.lockedByTier).toBe(true)
    expect(await root.task.load()).toBe(false)
    expect(calls).toHaveLength(0)
    const member = await signedIn({}, [PERM.MODULE_MAP], { level: 1 })
    expect(member.root.task.lockedByTier).toBe(false)
  })

  it('shows 全部 to managers only; task_add lets a member create', async () => {
    const member = await signedIn()
    expect(member.root.task.scopes).toEqual(['mine', 'department', 'created'])
    expect(member.root.task.canAdd).toBe(false)
    const adder = await signedIn({}, [...DISPATCH, PERM.TASK_ADD])
    expect(adder.root.task.canAdd).toBe(true)
    const admin = await signedIn({}, DISPATCH, { admin: true })
    expect(admin.root.task.scopes).toEqual(['mine', 'department', 'all', 'created'])
    expect(admin.root.task.canAdd).toBe(true)
  })
})

describe('TaskStore: lists', () => {
  it('loads the scope with the status filter and the counts; a new tab starts over', async () => {
    const { root, calls } = await signedIn({
      '/api/task/getlist': (b) => ok({ list: [buildTask({ id: b.scope === 'created' ? 2 : 1 })], total: 1, counts: b.scope === 'created' ? { ...counts, done: 4 } : counts }),
    })
    expect(await root.task.load()).toBe(true)
    expect(root.task.counts).toEqual(counts)
    await root.task.setStatus('open')
    // Tapping the chosen status again shows every status.
    await root.task.setStatus('open')
    await root.task.setScope('created')
    expect(root.task.list.map((t) => t.id)).toEqual([2])
    expect(root.task.counts.done).toBe(4)
    expect(root.task.status).toBeNull()
    await root.task.search('消防')
    expect(sent(calls, '/api/task/getlist')).toEqual([
      { scope: 'mine', pageindex: 1, pagesize: 20 },
      { scope: 'mine', pageindex: 1, pagesize: 20, status: 'open' },
      { scope: 'mine', pageindex: 1, pagesize: 20 },
      { scope: 'created', pageindex: 1, pagesize: 20 },
      { scope: 'created', pageindex: 1, pagesize: 20, kw: '消防' },
    ])
  })
})

describe('TaskStore: acting on a task', () => {
  it('starts, then completes with the check-in id; the list and the detail follow', async () => {
    const { root, calls } = await signedIn({
      '/api/task/getlist': () => ok({ list: [buildTask()], total: 1, counts }),
      '/api/task/start': () => ok(buildTask({ state: 'doing', status: 'doing' })),
      '/api/task/complete': () => ok(buildTask({ state: 'done', status: 'done', can: { edit: false, delete: false, start: false, complete: false } })),
    })
    await root.task.load()
    root.task.open(root.task.list[0])
    expect((await root.task.start(1))?.state).toBe('doing')
    expect(root.task.current?.status).toBe('doing')
    expect(texts(root)).toContain(TASK_MSG.started)
    expect((await root.task.complete(1, 55))?.state).toBe('done')
    expect(root.task.current?.status).toBe('done')
    expect(sent(calls, '/api/task/complete')).toEqual([{ id: 1, sign_id: 55 }])
    expect(texts(root)).toContain(TASK_MSG.completed)
  })

  it("shows the server's refusal and changes nothing", async () => {
    const { root } = await signedIn({
      '/api/task/getlist': () => ok({ list: [buildTask()], total: 1, counts }),
      '/api/task/complete': () => fail(1001, TASK_MSG.signBeforeTask),
    })
    await root.task.load()
    root.task.open(root.task.list[0])
    expect(await root.task.complete(1, 55)).toBeUndefined()
    expect(root.task.current?.state).toBe('open')
    expect(texts(root)).toContain(TASK_MSG.signBeforeTask)
  })

  it('deletes (after the page confirmed) and closes the detail', async () => {
    const { root } = await signedIn({
      '/api/task/getlist': () => ok({ list: [buildTask({ id: 1 }), buildTask({ id: 2 })], total: 2, counts }),
      '/api/task/delete': () => ok(null),
    })
    await root.task.load()
    root.task.open(root.task.list[0])
    expect(await root.task.remove(1)).toBe(true)
    expect(root.task.current).toBeNull()
    expect(texts(root)).toContain(TASK_MSG.deleted)
  })
})

describe('TaskDraft', () => {
  const now = new Date(NOW)

  it('checks before any call: a title and at least one assignee, a due day not before today', async () => {
    const { root, calls } = await signedIn({}, [...DISPATCH, PERM.TASK_ADD])
    const d = root.task.draft
    d.startNew()
    expect(await d.save(now)).toBeUndefined()
    expect(texts(root)).toContain(TASK_MSG.titleRequired)
    d.setTitle('巡查')
    expect(await d.save(now)).toBeUndefined()
    expect(texts(root)).toContain('请至少指派一名成员或一个部门')
    d.toggleUser(8)
    d.setDueDate('2025-05-31')
    expect(await d.save(now)).toBeUndefined()
    expect(texts(root)).toContain(TASK_MSG.dueDatePast)
    expect(calls).toHaveLength(0)
  })

  it('takes a marker or the position as the place, and saves members and departments', async () => {
    // The server's list of the 我创建的 tab: the new task is in it once saved.
    let listed: Task[] = []
    const { root, calls } = await signedIn(
      {
        '/api/task/save': (b) => {
          listed = [buildTask({ id: 9, title: b.title })]
          return ok(listed[0])
        },
        '/api/task/getlist': () => ok({ list: listed, total: listed.length, counts: { ...counts, open: listed.length } }),
      },
      [...DISPATCH, PERM.TASK_ADD],
    )
    await root.task.setScope('created')
    expect(root.task.list).toEqual([])
    const d = root.task.draft
    d.startNew()
    d.setTitle(' 巡查 ')
    expect(d.pickMarker(buildMarker({ id: 11, name: '东门', type: 0, points: '116.4,39.9' }))).toBeNull()
    expect(d.placeName).toBe('东门')
    d.pickPosition({ lng: 116.123456789, lat: 39.5 })
    expect(d.placeName).toBe(TASK_MSG.myPosition)
    d.toggleUser(8)
    d.toggleDepartment(3)
    d.toggleDepartment(4)
    d.toggleDepartment(3)
    d.setDueDate('2025-06-01')
    const saved = await d.save(now)
    expect(saved?.id).toBe(9)
    expect(sent(calls, '/api/task/save')).toEqual([
      { title: '巡查', content: '', marker_id: null, place: { name: '我的位置', lng: 116.1234568, lat: 39.5 }, user_ids: [8], department_ids: [4], due_date: '2025-06-01' },
    ])
    expect(d.id).toBe(9)
    // The tab shown is fetched again: whether the task belongs there, and the counts, are the server's.
    await new Promise((r) => setTimeout(r, 0))
    expect(root.task.list.map((t) => t.id)).toEqual([9])
    expect(root.task.counts.open).toBe(1)
    expect(texts(root)).toContain(TASK_MSG.saved)
  })

  it('loads a task for editing and keeps its passed due day', async () => {
    const task = buildTask({ id: 5, due_date: '2025-05-20', departments: [{ id: 3, name: '工程部' }] })
    const { root, calls } = await signedIn({ '/api/task/getbyid': () => ok(task), '/api/task/save': () => ok(task) }, [...DISPATCH, PERM.TASK_ADD])
    const d = root.task.draft
    expect(await d.startEdit(5)).toBe(true)
    expect(d.at).toEqual({ kind: 'marker', id: 11, name: '东门', lng: 116.4, lat: 39.9 })
    expect(d.departmentIds).toEqual([3])
    expect(await d.save(now)).toBeDefined()
    expect(sent(calls, '/api/task/save')[0]).toMatchObject({ id: 5, marker_id: 11, place: null, due_date: '2025-05-20' })
  })

  it('says when a marker has no position', async () => {
    const { root } = await signedIn()
    expect(root.task.draft.pickMarker(buildMarker({ id: 1, name: '坏', type: 0, points: '0,0' }))).toBe(TASK_MSG.markerNoPosition)
  })
})
