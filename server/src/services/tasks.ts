/**
 * Tasks (TaskApi in types/tasks.ts). The rules are src/domain/tasks.ts's (status, input,
 * transitions, who may, department reach); here they are applied to the caller's standing:
 * - every call needs module_dispatch among the caller's effective modules (a VIP module: a
 *   free-tier group has none, administrator included); creating needs task_add, deleting
 *   task_delete (managers hold every enabled id); editing the creator or a manager;
 * - a caller sees a task they created, one that reaches them (assigned to them, to their
 *   department or an ancestor of it), one in their department scope, and managers every task; any
 *   other task (another group's, an unknown id, one out of sight) is NOT_FOUND alike;
 * - starting and completing: an assignee; completing takes a check-in (signs) the caller made for
 *   this task, after the task was created, with a photo, proving no other task.
 */
import { ErrCode, type Paged } from '../../../types/api'
import type { SignRecord } from '../../../types/signs'
import type { Task, TaskInput, TaskScope, TaskStatus } from '../../../types/tasks'
import type { MarkerType } from '../../../types/mapdata'
import { FEATURES } from '../../../src/domain/moduleGate'
import { markerStopPoint } from '../../../src/domain/routes'
import { TASK_MSG } from '../../../src/domain/taskMessages'
import {
  TASKS_PER_GROUP_MAX,
  TASK_PLACE_NAME_MAX,
  canCreateTask,
  canDeleteTask,
  canListAllTasks,
  checkTaskInput,
  departmentScope,
  isAssignee,
  isTaskState,
  reachingDepartmentIds,
  shanghaiToday,
  stateProblem,
  type TaskAssignment,
} from '../../../src/domain/tasks'
import { inTransaction, type Database, type Executor } from '../db/connection'
import { departmentsOfGroup } from '../db/departments'
import { memberIdsAmong } from '../db/joins'
import { markersByIds, nicknamesOf, type Page } from '../db/markers'
import {
  assigneesOfTasks,
  countTasksOfGroup,
  deleteTask,
  deleteTasksOfGroups,
  findTaskInScope,
  insertTask,
  markTaskDone,
  pageOfTasks,
  replaceAssignees,
  signOfGroup,
  statusCountsOf,
  taskMarkers,
  taskProvedBy,
  updateTask,
  type TaskRow,
  type TaskScopeFilter,
} from '../db/tasks'
import { BusinessError, fail } from '../envelope'
import type { Caller } from '../auth'
import { isManager, mapCaller, requireFeature, usableLayerIds, type MapCaller } from './permissions'
import { lockGroup } from '../db/groups'
import { presentTask } from '../presenters/task'

function taskNotFound(): BusinessError {
  return fail(ErrCode.NOT_FOUND, TASK_MSG.notFound)
}

// ---------------------------------------------------------------------------------------------
// Who may do what

/** module_dispatch (the tier's and the caller's); FORBIDDEN otherwise, saying whether the tier or the caller lacks it. */
export function requireDispatch(who: MapCaller): void {
  requireFeature(who, FEATURES.dispatch)
}

/** The departments whose assignment reaches the caller (their own and its ancestors). */
function reachingOf(who: MapCaller): number[] {
  return reachingDepartmentIds(who.team.structure.departments, who.team.join.department_id)
}

function scopeFilter(who: MapCaller, scope: TaskScope): TaskScopeFilter {
  switch (scope) {
    case 'all':
      return { kind: 'all' }
    case 'created':
      return { kind: 'created', userId: who.userId }
    case 'mine':
      return { kind: 'assigned', userIds: [who.userId], departmentIds: reachingOf(who), memberDepartmentIds: [] }
    case 'department': {
      const reach = departmentScope(who.team.structure.departments, {
        userId: who.userId,
        departmentId: who.team.join.department_id,
        managedDepartmentIds: who.team.member.managed_department_ids,
      })
      return { kind: 'assigned', userIds: [], departmentIds: reach.assigned, memberDepartmentIds: reach.members }
    }
  }
}

/** What the caller sees: every task for managers; otherwise what they created, what reaches them and their department scope. */
function visibleFilter(who: MapCaller): TaskScopeFilter {
  if (isManager(who)) return { kind: 'all' }
  return { kind: 'either', filters: [scopeFilter(who, 'created'), scopeFilter(who, 'mine'), scopeFilter(who, 'department')] }
}

async function visibleTask(db: Executor, who: MapCaller, id: number): Promise<TaskRow> {
  const row = await findTaskInScope(db, who.groupId, id, visibleFilter(who))
  if (!row) throw taskNotFound()
  return row
}

function assignmentsOf(rows: readonly { task_id: number; user_id: number; department_id: number }[]): Map<number, TaskAssignment> {
  const out = new Map<number, { user_ids: number[]; department_ids: number[] }>()
  for (const r of rows) {
    let a = out.get(r.task_id)
    if (!a) out.set(r.task_id, (a = { user_ids: [], department_ids: [] }))
    if (r.user_id) a.user_ids.push(r.user_id)
    if (r.department_id) a.department_ids.push(r.department_id)
  }
  return out
}

async function assignmentOf(db: Executor, taskId: number): Promise<TaskAssignment> {
  return assignmentsOf(await assigneesOfTasks(db, [taskId])).get(taskId) ?? { user_ids: [], department_ids: [] }
}

function requireAssignee(who: MapCaller, assignment: TaskAssignment): void {
  if (!isAssignee(assignment, who.userId, reachingOf(who))) throw fail(ErrCode.FORBIDDEN, TASK_MSG.notAssignee)
}

/**
 * A check-in for a task (the proof that completes it) is for those who may complete it: module_dispatch,
 * the task visible, and an assignee (directly or through a department). The state is the check-in's
 * own check (a done task is refused there with its message).
 */
export async function requireTaskCheckIn(db: Executor, who: MapCaller, id: number): Promise<void> {
  requireDispatch(who)
  await visibleTask(db, who, id)
  requireAssignee(who, await assignmentOf(db, id))
}

function requireState(row: TaskRow, action: 'start' | 'complete' | 'edit'): void {
  const problem = stateProblem(isTaskState(row.state) ? row.state : 'open', action)
  if (problem) throw fail(ErrCode.CONFLICT, problem)
}

// ---------------------------------------------------------------------------------------------
// Presenting

/**
 * The check-ins of the group by id, presented and verified, without a permission check (a task's
 * proof is shown to whoever sees the task). The check-in slice answers it (services/signs.ts
 * signProofs); it is passed in so that tasks need not import the check-in slice, which asks
 * tasks who may check in for one (requireTaskCheckIn).
 */
export type TaskProofs = (groupId: number, signIds: number[]) => Promise<Map<number, SignRecord>>

/** What the task calls work with: the database, and the check-in slice's means to present a proof (verified). */
export interface TaskEnv {
  db: Database
  proofs: TaskProofs
}

async function presentRows(env: TaskEnv, who: MapCaller, rows: readonly TaskRow[], now: Date): Promise<Task[]> {
  const db = env.db.kysely
  if (rows.length === 0) return []
  const today = shanghaiToday(now)
  const assignments = assignmentsOf(
    await assigneesOfTasks(
      db,
      rows.map((r) => r.id),
    ),
  )
  const userIds = [...rows.flatMap((r) => [r.creator_id, ...(r.done_by ? [r.done_by] : [])]), ...[...assignments.values()].flatMap((a) => a.user_ids)]
  const markerIds = rows.flatMap((r) => (r.marker_id ? [r.marker_id] : []))
  const signIds = rows.flatMap((r) => (r.done_sign_id ? [r.done_sign_id] : []))
  const [names, departments, markers, proofs] = await Promise.all([
    nicknamesOf(db, userIds),
    departmentsOfGroup(db, who.groupId),
    taskMarkers(db, who.groupId, markerIds),
    signIds.length ? env.proofs(who.groupId, signIds) : Promise.resolve(new Map<number, SignRecord>()),
  ])
  const departmentName = new Map(departments.map((d) => [d.id, d.name]))
  const markerById = new Map(markers.map((m) => [m.id, m]))
  const reaching = reachingOf(who)
  return rows.map((row) => presentTask(row, { today, assignments, names, departmentName, markerById, proofs, actor: who.actor, userId: who.userId, reaching }))
}

// ---------------------------------------------------------------------------------------------
// Calls

export interface TaskListQuery {
  scope: TaskScope
  status?: TaskStatus
  kw?: string
}

/** The tasks of the scope, last changed first, with how many of the scope have each status. */
export async function listTasks(env: TaskEnv, caller: Caller, query: TaskListQuery, page: Page, now: Date): Promise<Paged<Task> & { counts: Record<TaskStatus, number> }> {
  const who = await mapCaller(env.db.kysely, caller)
  requireDispatch(who)
  const db = env.db.kysely
  if (query.scope === 'all' && !canListAllTasks(who.actor)) throw fail(ErrCode.FORBIDDEN, TASK_MSG.allForbidden)
  const today = shanghaiToday(now)
  const scope = scopeFilter(who, query.scope)
  const [{ rows, total }, counts] = await Promise.all([
    pageOfTasks(db, who.groupId, { scope, status: query.status, kw: query.kw || undefined, today }, page),
    statusCountsOf(db, who.groupId, scope, today),
  ])
  return { list: await presentRows(env, who, rows, now), total, counts }
}

export async function getTask(env: TaskEnv, caller: Caller, id: number, now: Date): Promise<Task> {
  const who = await mapCaller(env.db.kysely, caller)
  requireDispatch(who)
  return (await presentRows(env, who, [await visibleTask(env.db.kysely, who, id)], now))[0]
}

/** The marker (readable by the caller, with a position) or the place a task is at. */
async function placeFields(db: Executor, who: MapCaller, input: TaskInput): Promise<{ marker_id: number | null; place_name: string | null; place_lng: number | null; place_lat: number | null }> {
  if (input.marker_id) {
    const [marker] = await markersByIds(db, who.groupId, [input.marker_id], await usableLayerIds(db, who))
    if (!marker) throw fail(ErrCode.NOT_FOUND, TASK_MSG.markerMissing)
    if (!markerStopPoint(marker.type as MarkerType, marker.points)) throw fail(ErrCode.VALIDATION, TASK_MSG.markerNoPosition)
    return { marker_id: marker.id, place_name: null, place_lng: null, place_lat: null }
  }
  if (input.place) return { marker_id: null, place_name: input.place.name.trim().slice(0, TASK_PLACE_NAME_MAX), place_lng: input.place.lng, place_lat: input.place.lat }
  return { marker_id: null, place_name: null, place_lng: null, place_lat: null }
}

/** The assignees, each a member or a department of the group. */
async function checkAssignees(db: Executor, who: MapCaller, userIds: number[], departmentIds: number[]): Promise<void> {
  const members = await memberIdsAmong(db, who.groupId, userIds)
  if (userIds.some((id) => !members.has(id))) throw fail(ErrCode.VALIDATION, TASK_MSG.userNotMember)
  const departments = new Set((await departmentsOfGroup(db, who.groupId)).map((d) => d.id))
  if (departmentIds.some((id) => !departments.has(id))) throw fail(ErrCode.VALIDATION, TASK_MSG.departmentMissing)
}

/** Creates or edits a task (not a done one); nothing is written when a rule says no. */
export async function saveTask(env: TaskEnv, caller: Caller, input: TaskInput, now: Date): Promise<Task> {
  const who = await mapCaller(env.db.kysely, caller)
  requireDispatch(who)
  const { db } = env
  let saved: TaskRow | undefined
  if (input.id !== undefined) {
    saved = await visibleTask(db.kysely, who, input.id)
    if (saved.creator_id !== who.userId && !isManager(who)) throw fail(ErrCode.FORBIDDEN, TASK_MSG.editForbidden)
    requireState(saved, 'edit')
  } else if (!canCreateTask(who.actor)) throw fail(ErrCode.FORBIDDEN, TASK_MSG.addForbidden)

  const problem = checkTaskInput(input, shanghaiToday(now), saved?.due_date ?? null)
  if (problem) throw fail(ErrCode.VALIDATION, problem)
  const userIds = [...new Set(input.user_ids)]
  const departmentIds = [...new Set(input.department_ids)]
  await checkAssignees(db.kysely, who, userIds, departmentIds)
  const place = await placeFields(db.kysely, who, input)
  const at = now.toISOString()
  const fields = { title: input.title.trim(), content: (input.content ?? '').trim(), ...place, due_date: input.due_date || null, updated_at: at }

  const row = await inTransaction(db, async (trx) => {
    let row: TaskRow
    if (input.id !== undefined) {
      // Again inside the transaction: a completion may have landed meanwhile.
      requireState(await visibleTask(trx, who, input.id), 'edit')
      row = await updateTask(trx, who.groupId, input.id, fields)
    } else {
      await lockGroup(trx, who.groupId)
      if ((await countTasksOfGroup(trx, who.groupId)) >= TASKS_PER_GROUP_MAX) throw fail(ErrCode.LIMIT_REACHED, TASK_MSG.tooManyTasks(TASKS_PER_GROUP_MAX))
      row = await insertTask(trx, { ...fields, group_id: who.groupId, creator_id: who.userId, state: 'open', created_at: at })
    }
    await replaceAssignees(trx, who.groupId, row.id, userIds, departmentIds)
    return row
  })
  return (await presentRows(env, who, [row], now))[0]
}

export async function deleteTaskOf(env: TaskEnv, caller: Caller, id: number): Promise<void> {
  const who = await mapCaller(env.db.kysely, caller)
  requireDispatch(who)
  const { db } = env
  if (!canDeleteTask(who.actor)) throw fail(ErrCode.FORBIDDEN, TASK_MSG.deleteForbidden)
  await inTransaction(db, async (trx) => {
    await visibleTask(trx, who, id)
    await deleteTask(trx, who.groupId, id)
  })
}

/** An assignee starts an open task (open -> doing). */
export async function startTask(env: TaskEnv, caller: Caller, id: number, now: Date): Promise<Task> {
  const who = await mapCaller(env.db.kysely, caller)
  requireDispatch(who)
  const { db } = env
  const row = await inTransaction(db, async (trx) => {
    const task = await visibleTask(trx, who, id)
    requireAssignee(who, await assignmentOf(trx, id))
    requireState(task, 'start')
    return updateTask(trx, who.groupId, id, { state: 'doing', updated_at: now.toISOString() })
  })
  return (await presentRows(env, who, [row], now))[0]
}

function photoCount(photos: string): number {
  try {
    const list = JSON.parse(photos)
    return Array.isArray(list) ? list.length : 0
  } catch {
    return 0
  }
}

/**
 * An assignee completes a task that is not done with a check-in as proof: theirs, made for this
 * task after it was created, with at least one photo, and proving no other task.
 */
export async function completeTask(env: TaskEnv, caller: Caller, id: number, signId: number, now: Date): Promise<Task> {
  const who = await mapCaller(env.db.kysely, caller)
  requireDispatch(who)
  const { db } = env
  const row = await inTransaction(db, async (trx) => {
    const task = await visibleTask(trx, who, id)
    requireAssignee(who, await assignmentOf(trx, id))
    requireState(task, 'complete')
    const sign = await signOfGroup(trx, who.groupId, signId)
    if (!sign) throw fail(ErrCode.NOT_FOUND, TASK_MSG.signNotFound)
    if (sign.user_id !== who.userId) throw fail(ErrCode.FORBIDDEN, TASK_MSG.signNotYours)
    if (sign.task_id !== task.id) throw fail(ErrCode.VALIDATION, TASK_MSG.signOtherTask)
    if (new Date(sign.time).getTime() < new Date(task.created_at).getTime()) throw fail(ErrCode.VALIDATION, TASK_MSG.signBeforeTask)
    if (photoCount(sign.photos) === 0) throw fail(ErrCode.VALIDATION, TASK_MSG.signNoPhoto)
    if ((await taskProvedBy(trx, who.groupId, signId)) !== undefined) throw fail(ErrCode.CONFLICT, TASK_MSG.signUsed)
    const done = await markTaskDone(trx, who.groupId, id, { at: now.toISOString(), by: who.userId, signId })
    if (!done) throw fail(ErrCode.CONFLICT, TASK_MSG.doneLocked)
    return done
  })
  return (await presentRows(env, who, [row], now))[0]
}

/** Every task of these groups, with their assignees (account deletion). */
export async function purgeGroupTasks(trx: Executor, groupIds: number[]): Promise<void> {
  await deleteTasksOfGroups(trx, groupIds)
}
