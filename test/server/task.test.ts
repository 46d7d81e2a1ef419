/**
 * Tasks on the server (TaskApi in types/tasks.ts): module_dispatch gates every call (a
 * VIP module: the free tier refuses even the administrator); task_add gates creating, task_delete
 * deleting; the creator or a manager edits; an assignee (directly, or through their department or
 * a parent of it) starts and completes; completing takes the caller's own check-in made for the
 * task after it was created, with a photo, proving no other task; the status reads overdue once
 * the Shanghai due day has passed; lists per scope with counts; another group's task is NOT_FOUND.
 */
import { ErrCode } from '../../types/api'
import type { Task } from '../../types/tasks'
import { TEAM_UI_MSG } from '../../src/domain/messages'
import { PERM } from '../../src/domain/permissions'
import { TASK_MSG } from '../../src/domain/taskMessages'
import { DAY_MS, type Auth } from './helpers'
import { makeWorld, ok, type Person, type TeamWorld } from './teams-fixture'

let w: TeamWorld
/** module_dispatch + task_add. */
let adder: Person
/** module_dispatch + task_delete. */
let deleter: Person
/** module_dispatch; in 工程部 > 一组. */
let worker: Person
/** module_dispatch; in 销售部. */
let seller: Person
/** module_dispatch; manages 工程部 (and so 一组), in no department. */
let chief: Person
/** No dispatch module at all. */
let plain: Person
const dep = { eng: 0, team1: 0, sales: 0 }
let markerId = 0

async function role(name: string, modules: string[], people: Person[]): Promise<void> {
  const id = ok(await w.call('/api/role/save', { name }, w.owner)).id
  ok(await w.call('/api/role/save/module', { role_id: id, module_ids: modules }, w.owner))
  ok(await w.call('/api/role/save/join', { role_id: id, user_ids: people.map((p) => p.userid) }, w.owner))
}

beforeEach(async () => {
  w = await makeWorld()
  await w.setJoinLimit(50)
  adder = await w.join('13800000001', '派单员')
  deleter = await w.join('13800000002', '清理员')
  worker = await w.join('13800000003', '小王')
  seller = await w.join('13800000004', '小李')
  chief = await w.join('13800000005', '工程主管')
  plain = await w.join('13800000006', '普通成员')
  dep.eng = await w.department('工程部')
  dep.team1 = await w.department('一组', dep.eng)
  dep.sales = await w.department('销售部')
  await w.place(worker, dep.team1)
  await w.place(seller, dep.sales)
  ok(await w.call('/api/department/setting/manager', { department_id: dep.eng, userids: [chief.userid] }, w.owner))
  await role('派单', [PERM.MODULE_DISPATCH, PERM.TASK_ADD], [adder])
  await role('清理', [PERM.MODULE_DISPATCH, PERM.TASK_DELETE], [deleter])
  await role('执行', [PERM.MODULE_DISPATCH], [worker, seller, chief])
  const layer = await w.layer('客户')
  markerId = ok(await w.call('/api/marker/save', { layer_id: layer, name: '东门消防栓', type: 0, points: '116.397428,39.90923' }, w.owner)).id
  await w.grant(layer, { user_id: adder.userid }, [PERM.NOTE_LIST])
})

afterEach(async () => {
  await w?.close()
})

const taskRows = () => w.t.db.kysely.selectFrom('tasks').selectAll().execute()
const assigneeRows = () => w.t.db.kysely.selectFrom('task_assignees').selectAll().execute()
const body = (fields: Record<string, unknown> = {}) => ({
  title: '巡查消防栓',
  content: '检查压力表',
  marker_id: markerId,
  user_ids: [worker.userid],
  department_ids: [],
  due_date: '2025-06-03',
  ...fields,
})
const save = (auth: Auth, fields: Record<string, unknown> = {}) => w.call<Task>('/api/task/save', body(fields), auth)
const list = (auth: Auth, fields: Record<string, unknown>) => w.call('/api/task/getlist', fields, auth)

function expectRefused(res: { errcode: number; errmsg: string }, errcode: ErrCode, errmsg: string): void {
  expect({ errcode: res.errcode, errmsg: res.errmsg }).toEqual({ errcode, errmsg })
}

/** Next to the marker (about 11 m away), where the assignees check in. */
const AT_MARKER = { lng: 116.3975, lat: 39.9093 }
const JPEG = (fill: number) => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(1500, fill)])

function multipartBody(fields: Record<string, string>, data: Buffer) {
  const boundary = `----task${Math.random().toString(16).slice(2)}`
  const chunks: Buffer[] = []
  for (const [name, value] of Object.entries(fields)) chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`))
  chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="photo.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`), data, Buffer.from('\r\n'))
  chunks.push(Buffer.from(`--${boundary}--\r\n`))
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } }
}

let photoSeq = 0
/** Uploads a photo as the check-in sheet does (type 'sign'); returns its url. */
async function photo(auth: Auth): Promise<string> {
  photoSeq++
  const res = await w.t.app.inject({ method: 'POST', url: '/api/system/upload', ...multipartBody({ type: 'sign', userid: String(auth.userid), groupid: '', token: auth.token }, JPEG(photoSeq % 250)) })
  const body = res.json()
  if (body.header.errcode !== 0) throw new Error(`upload failed: ${body.header.errmsg}`)
  return body.data.url as string
}

/** A check-in by `who` through /api/sign/ticket and /api/sign/save: for the task (or free), next to the marker, with one photo unless told otherwise. */
async function signFor(who: Person, taskId: number | null, options: { photos?: number } = {}): Promise<number> {
  const t = ok(await w.call('/api/sign/ticket', { ...AT_MARKER, ...(taskId ? { task_id: taskId } : {}) }, who))
  const photos: string[] = []
  for (let i = 0; i < (options.photos ?? 1); i++) photos.push(await photo(who))
  return ok(await w.call('/api/sign/save', { ticket: t.ticket, addr: '北京市东城区', photos }, who)).id
}

describe('modules and permissions (SPEC 3: module dispatch, task add/delete)', () => {
  it('refuses every call to a member without module_dispatch, and writes nothing', async () => {
    const id = ok(await save(w.owner)).id
    for (const [path, fields] of [
      ['/api/task/getlist', { scope: 'mine' }],
      ['/api/task/getbyid', { id }],
      ['/api/task/save', body()],
      ['/api/task/delete', { id }],
      ['/api/task/start', { id }],
      ['/api/task/complete', { id, sign_id: 1 }],
    ] as const) {
      expectRefused(await w.call(path, fields, plain), ErrCode.FORBIDDEN, TEAM_UI_MSG.moduleMissing('调度'))
    }
    expect(await taskRows()).toHaveLength(1)
  })

  it('on the free tier refuses even the administrator (module_dispatch is a VIP module)', async () => {
    await w.t.db.kysely.updateTable('groups').set({ level: 0 }).where('id', '=', w.groupId).execute()
    expectRefused(await save(w.owner), ErrCode.FORBIDDEN, TEAM_UI_MSG.moduleLocked('调度'))
    expectRefused(await list(w.owner, { scope: 'all' }), ErrCode.FORBIDDEN, TEAM_UI_MSG.moduleLocked('调度'))
    expect(await taskRows()).toHaveLength(0)
  })

  it('creates with task_add (through a role) or as a manager; the module alone does not', async () => {
    expectRefused(await save(worker), ErrCode.FORBIDDEN, TASK_MSG.addForbidden)
    // A task's marker must be one the creator may read.
    await role('派单2', [PERM.MODULE_DISPATCH, PERM.TASK_ADD], [seller])
    expectRefused(await save(seller), ErrCode.NOT_FOUND, TASK_MSG.markerMissing)
    const task = ok(await save(adder))
    expect(task).toMatchObject({ title: '巡查消防栓', creator: { id: adder.userid, nickname: '派单员' }, state: 'open', status: 'open' })
    expect(task.can).toEqual({ edit: true, delete: false, start: false, complete: false })
    ok(await save(w.owner))
    expect(await taskRows()).toHaveLength(2)
  })

  it('deletes with task_delete (through a role) or as a manager; task_add alone does not', async () => {
    const a = ok(await save(adder, { user_ids: [deleter.userid] }))
    expectRefused(await w.call('/api/task/delete', { id: a.id }, adder), ErrCode.FORBIDDEN, TASK_MSG.deleteForbidden)
    expect(ok(await w.call<Task>('/api/task/getbyid', { id: a.id }, deleter)).can.delete).toBe(true)
    ok(await w.call('/api/task/delete', { id: a.id }, deleter))
    const b = ok(await save(adder))
    ok(await w.call('/api/task/delete', { id: b.id }, w.owner))
    expect(await taskRows()).toHaveLength(0)
    expect(await assigneeRows()).toHaveLength(0)
  })

  it('edits as the creator or a manager, not as an assignee', async () => {
    const task = ok(await save(adder))
    expectRefused(await save(worker, { id: task.id, title: '改标题' }), ErrCode.FORBIDDEN, TASK_MSG.editForbidden)
    expect(ok(await save(adder, { id: task.id, title: '改一次' })).title).toBe('改一次')
    expect(ok(await save(w.owner, { id: task.id, title: '改两次', user_ids: [seller.userid] })).users).toEqual([{ id: seller.userid, nickname: '小李' }])
    expect((await assigneeRows()).map((r) => r.user_id)).toEqual([seller.userid])
  })

  it("lists 'all' for managers only", async () => {
    ok(await save(adder))
    expectRefused(await list(adder, { scope: 'all' }), ErrCode.FORBIDDEN, TASK_MSG.allForbidden)
    expect(ok(await list(w.owner, { scope: 'all' })).total).toBe(1)
  })
})

describe('saving', () => {
  it('saves the marker, assignees and due day and reads them back', async () => {
    const task = ok(await save(w.owner, { department_ids: [dep.sales] }))
    expect(task).toMatchObject({
      title: '巡查消防栓',
      content: '检查压力表',
      marker: { id: markerId, name: '东门消防栓', lng: 116.397428, lat: 39.90923 },
      place: null,
      users: [{ id: worker.userid, nickname: '小王' }],
      departments: [{ id: dep.sales, name: '销售部' }],
      due_date: '2025-06-03',
      state: 'open',
      status: 'open',
      done_at: null,
      done_by: null,
      proof: null,
    })
    expect(ok(await w.call('/api/task/getbyid', { id: task.id }, w.owner))).toEqual(task)
  })

  it('takes a place instead of a marker, or neither', async () => {
    const atPlace = ok(await save(w.owner, { marker_id: null, place: { name: '北门', lng: 116.4, lat: 39.91 } }))
    expect(atPlace).toMatchObject({ marker: null, place: { name: '北门', lng: 116.4, lat: 39.91 } })
    const anywhere = ok(await save(w.owner, { marker_id: undefined, due_date: null }))
    expect(anywhere).toMatchObject({ marker: null, place: null, due_date: null })
  })

  it('refuses bad input with a Chinese message and writes nothing', async () => {
    const stranger = await w.stranger('13900000009', '外人')
    const otherDepartment = ok(await w.call('/api/department/save', { name: '外部', parent_id: 0 }, stranger)).id
    expectRefused(await save(w.owner, { title: ' ' }), ErrCode.VALIDATION, TASK_MSG.titleRequired)
    expectRefused(await save(w.owner, { title: '任'.repeat(51) }), ErrCode.VALIDATION, TASK_MSG.titleTooLong(50))
    expectRefused(await save(w.owner, { user_ids: [], department_ids: [] }), ErrCode.VALIDATION, TASK_MSG.assigneesRequired)
    expectRefused(await save(w.owner, { user_ids: [stranger.userid] }), ErrCode.VALIDATION, TASK_MSG.userNotMember)
    expectRefused(await save(w.owner, { department_ids: [otherDepartment] }), ErrCode.VALIDATION, TASK_MSG.departmentMissing)
    expectRefused(await save(w.owner, { due_date: '2025-05-31' }), ErrCode.VALIDATION, TASK_MSG.dueDatePast)
    expectRefused(await save(w.owner, { due_date: '2025-02-30' }), ErrCode.VALIDATION, TASK_MSG.dueDateInvalid)
    expectRefused(await save(w.owner, { place: { name: '北门', lng: 116.4, lat: 39.91 } }), ErrCode.VALIDATION, TASK_MSG.markerAndPlace)
    expectRefused(await save(w.owner, { marker_id: null, place: { name: '北门', lng: 0, lat: 0 } }), ErrCode.VALIDATION, TASK_MSG.placeInvalid)
    expectRefused(await save(w.owner, { marker_id: 999999 }), ErrCode.NOT_FOUND, TASK_MSG.markerMissing)
    expect(await taskRows()).toHaveLength(0)
    expect(await assigneeRows()).toHaveLength(0)
  })

  it('keeps a passed due day when editing an overdue task, but a new one must not be before today', async () => {
    const task = ok(await save(w.owner, { due_date: '2025-06-01' }))
    w.t.clock.advance(2 * DAY_MS)
    expect(ok(await save(w.owner, { id: task.id, title: '仍然逾期', due_date: '2025-06-01' })).status).toBe('overdue')
    expectRefused(await save(w.owner, { id: task.id, due_date: '2025-06-02' }), ErrCode.VALIDATION, TASK_MSG.dueDatePast)
  })
})

describe('tasks across departments', () => {
  it('a department assignment reaches the members of its child departments', async () => {
    const task = ok(await save(w.owner, { user_ids: [], department_ids: [dep.eng] }))
    const mine = ok(await list(worker, { scope: 'mine' }))
    expect(mine.list.map((t: Task) => t.id)).toEqual([task.id])
    expect(mine.list[0].can).toEqual({ edit: false, delete: false, start: true, complete: true })
    expect(ok(await w.call<Task>('/api/task/start', { id: task.id }, worker))).toMatchObject({ state: 'doing', status: 'doing' })
    // 销售部 is not under 工程部: the task is out of sight.
    expect(ok(await list(seller, { scope: 'mine' })).total).toBe(0)
    expectRefused(await w.call('/api/task/getbyid', { id: task.id }, seller), ErrCode.NOT_FOUND, TASK_MSG.notFound)
    expectRefused(await w.call('/api/task/start', { id: task.id }, seller), ErrCode.NOT_FOUND, TASK_MSG.notFound)
  })

  it("an assignment to a child department does not reach the parent department's members", async () => {
    const middle = await w.join('13800000007', '部门成员')
    await role('执行2', [PERM.MODULE_DISPATCH], [middle])
    await w.place(middle, dep.eng)
    ok(await save(w.owner, { user_ids: [], department_ids: [dep.team1] }))
    expect(ok(await list(middle, { scope: 'mine' })).total).toBe(0)
    expect(ok(await list(worker, { scope: 'mine' })).total).toBe(1)
  })

  it("the 'department' scope: a department manager sees the tasks of the departments they manage, down the tree", async () => {
    const toWorker = ok(await save(w.owner, { title: '给小王' }))
    const toTeam = ok(await save(w.owner, { title: '给一组', user_ids: [], department_ids: [dep.team1] }))
    const toSales = ok(await save(w.owner, { title: '给销售', user_ids: [seller.userid] }))
    const chiefs = ok(await list(chief, { scope: 'department' }))
    expect(chiefs.list.map((t: Task) => t.id).sort()).toEqual([toWorker.id, toTeam.id].sort())
    expect(chiefs.counts).toEqual({ open: 2, doing: 0, overdue: 0, done: 0 })
    // The manager sees them but is not an assignee: no start, no complete.
    expect(ok(await w.call<Task>('/api/task/getbyid', { id: toTeam.id }, chief)).can).toEqual({ edit: false, delete: false, start: false, complete: false })
    expectRefused(await w.call('/api/task/start', { id: toTeam.id }, chief), ErrCode.FORBIDDEN, TASK_MSG.notAssignee)
    expect(ok(await list(chief, { scope: 'mine' })).total).toBe(0)
    // A member's department scope: their department and its children.
    expect(ok(await list(seller, { scope: 'department' })).list.map((t: Task) => t.id)).toEqual([toSales.id])
    expect(
      ok(await list(worker, { scope: 'department' }))
        .list.map((t: Task) => t.id)
        .sort(),
    ).toEqual([toWorker.id, toTeam.id].sort())
    expect(ok(await list(w.owner, { scope: 'created' })).total).toBe(3)
    expect(ok(await list(adder, { scope: 'created' })).total).toBe(0)
  })
})

describe('starting and completing with a check-in', () => {
  let task: Task
  beforeEach(async () => {
    task = ok(await save(w.owner, { user_ids: [worker.userid, seller.userid] }))
    w.t.clock.advance(60_000)
  })

  const complete = (auth: Auth, sign_id: number, id = task.id) => w.call<Task>('/api/task/complete', { id, sign_id }, auth)

  it('completes with the caller’s own check-in for the task, made after it was created', async () => {
    ok(await w.call('/api/task/start', { id: task.id }, worker))
    const signId = await signFor(worker, task.id)
    const done = ok(await complete(worker, signId))
    expect(done).toMatchObject({ state: 'done', status: 'done', done_by: { id: worker.userid, nickname: '小王' }, done_at: w.t.clock.now().toISOString() })
    expect(done.can).toEqual({ edit: false, delete: false, start: false, complete: false })
    // The proof is the check-in as the check-in slice presents it, verified (signature and photo hashes).
    expect(done.proof).toMatchObject({ id: signId, user: { id: worker.userid, nickname: '小王' }, target: { kind: 'task', task_id: task.id, name: '东门消防栓' }, verified: true })
    expect(ok(await w.call<Task>('/api/task/getbyid', { id: task.id }, w.owner)).proof).toEqual(done.proof)
    expect(done.proof?.photos).toHaveLength(1)
    const [row] = await taskRows()
    expect(row).toMatchObject({ state: 'done', done_by: worker.userid, done_sign_id: signId })
  })

  it("refuses another user's check-in, one made before the task, one for another task, one without a photo, and a reused one", async () => {
    const other = ok(await save(w.owner, { title: '另一个任务' }))
    expectRefused(await complete(worker, await signFor(seller, task.id)), ErrCode.FORBIDDEN, TASK_MSG.signNotYours)
    // A check-in whose time is before the task was created (a clock set back: the ticket takes the server's time).
    w.t.clock.set(new Date(Date.parse(task.created_at) - 60_000))
    const early = await signFor(worker, task.id)
    w.t.clock.advance(120_000)
    expectRefused(await complete(worker, early), ErrCode.VALIDATION, TASK_MSG.signBeforeTask)
    expectRefused(await complete(worker, await signFor(worker, other.id)), ErrCode.VALIDATION, TASK_MSG.signOtherTask)
    expectRefused(await complete(worker, await signFor(worker, null)), ErrCode.VALIDATION, TASK_MSG.signOtherTask)
    expectRefused(await complete(worker, await signFor(worker, task.id, { photos: 0 })), ErrCode.VALIDATION, TASK_MSG.signNoPhoto)
    expectRefused(await complete(worker, 999999), ErrCode.NOT_FOUND, TASK_MSG.signNotFound)
    // A check-in that already proves a task (here: moved onto this one in the database) proves no second.
    const used = await signFor(worker, other.id)
    ok(await complete(worker, used, other.id))
    await w.t.db.kysely.updateTable('signs').set({ task_id: task.id }).where('id', '=', used).execute()
    expectRefused(await complete(worker, used), ErrCode.CONFLICT, TASK_MSG.signUsed)
    expect((await taskRows()).find((r) => r.id === task.id)).toMatchObject({ state: 'open', done_sign_id: null })
  })

  it('refuses a non-assignee, and a done task is not started, completed or edited again', async () => {
    // A non-assignee cannot check in for the task, nor complete it with a check-in of their own.
    expectRefused(await w.call('/api/sign/ticket', { ...AT_MARKER, task_id: task.id }, adder), ErrCode.NOT_FOUND, TASK_MSG.notFound)
    expectRefused(await complete(adder, await signFor(adder, null)), ErrCode.NOT_FOUND, TASK_MSG.notFound)
    const late = await signFor(worker, task.id)
    ok(await complete(seller, await signFor(seller, task.id)))
    expectRefused(await complete(worker, late), ErrCode.CONFLICT, TASK_MSG.doneLocked)
    expectRefused(await w.call('/api/task/start', { id: task.id }, worker), ErrCode.CONFLICT, TASK_MSG.doneLocked)
    expectRefused(await save(w.owner, { id: task.id, title: '完成后修改' }), ErrCode.CONFLICT, TASK_MSG.doneLocked)
    expect((await taskRows())[0]).toMatchObject({ title: '巡查消防栓', done_by: seller.userid })
  })

  it('starts only an open task', async () => {
    ok(await w.call('/api/task/start', { id: task.id }, worker))
    expectRefused(await w.call('/api/task/start', { id: task.id }, seller), ErrCode.CONFLICT, TASK_MSG.alreadyStarted)
  })
})

describe('status and lists', () => {
  it('reads overdue once the due day has passed on the Shanghai calendar (test clock), and counts per status', async () => {
    // The clock starts at 10:00 on 2025-06-01 in Shanghai.
    const due = ok(await save(w.owner, { title: '今天截止', due_date: '2025-06-01' }))
    const later = ok(await save(w.owner, { title: '后天截止', due_date: '2025-06-03' }))
    ok(await save(w.owner, { title: '不限期', due_date: null }))
    ok(await w.call('/api/task/start', { id: later.id }, worker))
    w.t.clock.set('2025-06-01T15:59:00Z') // 23:59 in Shanghai
    expect(ok(await w.call<Task>('/api/task/getbyid', { id: due.id }, w.owner)).status).toBe('open')
    w.t.clock.set('2025-06-01T16:00:00Z') // 00:00 on 2025-06-02 in Shanghai
    expect(ok(await w.call<Task>('/api/task/getbyid', { id: due.id }, w.owner)).status).toBe('overdue')
    const all = ok(await list(w.owner, { scope: 'all' }))
    expect(all.counts).toEqual({ open: 1, doing: 1, overdue: 1, done: 0 })
    const overdue = ok(await list(w.owner, { scope: 'all', status: 'overdue' }))
    expect(overdue.list.map((t: Task) => t.title)).toEqual(['今天截止'])
    expect(ok(await list(w.owner, { scope: 'all', status: 'open' })).list.map((t: Task) => t.title)).toEqual(['不限期'])
    // Done is done, due day or not.
    ok(await w.call('/api/task/complete', { id: due.id, sign_id: await signFor(worker, due.id) }, worker))
    expect(ok(await list(w.owner, { scope: 'all' })).counts).toEqual({ open: 1, doing: 1, overdue: 0, done: 1 })
  })

  it('lists newest change first, pages, and matches a keyword in title or content; counts ignore status and keyword', async () => {
    const a = ok(await save(w.owner, { title: '巡查 A' }))
    w.t.clock.advance(1000)
    const b = ok(await save(w.owner, { title: '维修 B', content: '更换阀门' }))
    w.t.clock.advance(1000)
    ok(await save(w.owner, { id: a.id, title: '巡查 A2' }))
    const page1 = ok(await list(worker, { scope: 'mine', pagesize: 1 }))
    expect(page1).toMatchObject({ total: 2, counts: { open: 2, doing: 0, overdue: 0, done: 0 } })
    expect(page1.list.map((t: Task) => t.id)).toEqual([a.id])
    expect(ok(await list(worker, { scope: 'mine', pagesize: 1, pageindex: 2 })).list.map((t: Task) => t.id)).toEqual([b.id])
    const found = ok(await list(worker, { scope: 'mine', kw: '阀门' }))
    expect(found.list.map((t: Task) => t.id)).toEqual([b.id])
    expect(found.counts.open).toBe(2)
  })
})

describe('groups', () => {
  it("another group's task is NOT_FOUND, exactly like an unknown id", async () => {
    const task = ok(await save(w.owner))
    const stranger = await w.stranger('13900000009', '外人')
    for (const [path, fields] of [
      ['/api/task/getbyid', { id: task.id }],
      ['/api/task/save', body({ id: task.id, user_ids: [stranger.userid] })],
      ['/api/task/delete', { id: task.id }],
      ['/api/task/start', { id: task.id }],
      ['/api/task/complete', { id: task.id, sign_id: 1 }],
      ['/api/task/getbyid', { id: 999999 }],
    ] as const) {
      expectRefused(await w.call(path, fields, stranger), ErrCode.NOT_FOUND, TASK_MSG.notFound)
    }
    expect(ok(await list(stranger, { scope: 'all' })).total).toBe(0)
    expect((await taskRows())[0].title).toBe('巡查消防栓')
  })

  it('deleting the account deletes the tasks of the groups it owns, with their assignees', async () => {
    const stranger = await w.stranger('13900000009', '外人')
    ok(await w.call('/api/task/save', { title: '自己的任务', user_ids: [stranger.userid], department_ids: [] }, stranger))
    ok(await save(w.owner))
    ok(await w.call('/api/user/logoff', {}, stranger))
    expect((await taskRows()).map((r) => r.group_id)).toEqual([w.groupId])
    expect((await assigneeRows()).map((r) => r.group_id)).toEqual([w.groupId])
  })
})
