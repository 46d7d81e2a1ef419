/**
 * Task rules (types/tasks.ts), pure: the status shown (the state, or overdue once the due
 * day has passed on the Shanghai calendar), the checks of a task's input with their Chinese
 * messages, the state transitions, who may do what with a task, and which departments an
 * assignment or a list scope reaches in the department tree. Used by the task pages, their store
 * and the server (which decides).
 */
import type { TaskInput, TaskPlace, TaskScope, TaskState, TaskStatus } from '../../types/tasks'
import { PERM, canInGroup, isGroupManager, type Actor } from './permissions'
import { TASK_MSG } from './taskMessages'
import { ancestorIds, authorityDepartmentIds, descendantIds, type DepartmentNode } from './teams'
import { charLength } from './validate'

/** Task title length limit. */
export const TASK_TITLE_MAX = 50
/** Task content length limit. */
export const TASK_CONTENT_MAX = 1000
/** A place's name length limit (a marker's name is cut to it). */
export const TASK_PLACE_NAME_MAX = 50
/** Members assigned to one task. */
export const TASK_USERS_MAX = 100
/** Departments assigned to one task. */
export const TASK_DEPARTMENTS_MAX = 50
/** Tasks per group. */
export const TASKS_PER_GROUP_MAX = 20000

export const TASK_STATES: readonly TaskState[] = ['open', 'doing', 'done']
/** In the order the status chips show them. */
export const TASK_STATUSES: readonly TaskStatus[] = ['open', 'doing', 'overdue', 'done']
export const TASK_SCOPES: readonly TaskScope[] = ['mine', 'department', 'all', 'created']

export function isTaskState(v: unknown): v is TaskState {
  return v === 'open' || v === 'doing' || v === 'done'
}

// ---------------------------------------------------------------------------------------------
// Days and status

// Asia/Shanghai is UTC+8 all year (no daylight saving).
const SHANGHAI_OFFSET_MS = 8 * 3600_000

/** The day in Asia/Shanghai as 'YYYY-MM-DD'. */
export function shanghaiToday(now: Date): string {
  return new Date(now.getTime() + SHANGHAI_OFFSET_MS).toISOString().slice(0, 10)
}

const DAY_RE = /^(\d{4})-(\d{2})-(\d{2})$/

/** A real calendar day written 'YYYY-MM-DD' (no 2025-02-30). */
export function isCalendarDay(s: unknown): s is string {
  if (typeof s !== 'string') return false
  const m = DAY_RE.exec(s)
  if (!m) return false
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])))
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3])
}

/** Overdue when the due day has passed (it is before `today`, both Shanghai days) and the task is not done; otherwise the state. */
export function taskStatus(state: TaskState, dueDate: string | null | undefined, today: string): TaskStatus {
  if (state !== 'done' && dueDate && dueDate < today) return 'overdue'
  return state
}

/** A count of 0 for every status. */
export function emptyStatusCounts(): Record<TaskStatus, number> {
  return { open: 0, doing: 0, overdue: 0, done: 0 }
}

// ---------------------------------------------------------------------------------------------
// Input

export function checkTaskTitle(title: string | null | undefined): string | null {
  const t = (title ?? '').trim()
  if (!t) return TASK_MSG.titleRequired
  if (charLength(t) > TASK_TITLE_MAX) return TASK_MSG.titleTooLong(TASK_TITLE_MAX)
  return null
}

export function checkTaskContent(content: string | null | undefined): string | null {
  if (charLength((content ?? '').trim()) > TASK_CONTENT_MAX) return TASK_MSG.contentTooLong(TASK_CONTENT_MAX)
  return null
}

/** A place on the map: a name, and a position within the world that is not 0,0. */
export function checkTaskPlace(place: TaskPlace): string | null {
  const name = (place.name ?? '').trim()
  if (!name) return TASK_MSG.placeNameRequired
  if (charLength(name) > TASK_PLACE_NAME_MAX) return TASK_MSG.placeNameTooLong(TASK_PLACE_NAME_MAX)
  const { lng, lat } = place
  if (!Number.isFinite(lng) || !Number.isFinite(lat) || Math.abs(lng) > 180 || Math.abs(lat) > 90 || (lng === 0 && lat === 0)) return TASK_MSG.placeInvalid
  return null
}

/**
 * The due day: a calendar day, not before today. A day that has passed is accepted when it is
 * the one the task already has (editing an overdue task's title must not force a new due day).
 */
export function checkDueDate(due: string | null | undefined, today: string, saved: string | null = null): string | null {
  if (due === null || due === undefined || due === '') return null
  if (!isCalendarDay(due)) return TASK_MSG.dueDateInvalid
  if (due < today && due !== saved) return TASK_MSG.dueDatePast
  return null
}

/** The first day the due-day picker offers: today, or a passed due day the task already had (it may stay, checkDueDate). */
export function earliestDueDate(today: string, saved: string | null = null): string {
  return saved && saved < today ? saved : today
}

/** The first problem of a task's input (before the server looks at the group), or null. */
export function checkTaskInput(input: TaskInput, today: string, savedDue: string | null = null): string | null {
  const problem = checkTaskTitle(input.title) ?? checkTaskContent(input.content)
  if (problem) return problem
  if (input.marker_id && input.place) return TASK_MSG.markerAndPlace
  if (input.place) {
    const placeProblem = checkTaskPlace(input.place)
    if (placeProblem) return placeProblem
  }
  const users = new Set(input.user_ids ?? [])
  const departments = new Set(input.department_ids ?? [])
  if (users.size === 0 && departments.size === 0) return TASK_MSG.assigneesRequired
  if (users.size > TASK_USERS_MAX) return TASK_MSG.tooManyUsers(TASK_USERS_MAX)
  if (departments.size > TASK_DEPARTMENTS_MAX) return TASK_MSG.tooManyDepartments(TASK_DEPARTMENTS_MAX)
  return checkDueDate(input.due_date, today, savedDue)
}

// ---------------------------------------------------------------------------------------------
// States

export type TaskAction = 'start' | 'complete' | 'edit'

/** Start: open -> doing. Complete: open or doing -> done. A done task changes no more. */
export function nextState(state: TaskState, action: 'start' | 'complete'): TaskState | null {
  if (action === 'start') return state === 'open' ? 'doing' : null
  return state === 'done' ? null : 'done'
}

/** Why the action is not possible in this state, or null. */
export function stateProblem(state: TaskState, action: TaskAction): string | null {
  if (state === 'done') return TASK_MSG.doneLocked
  if (action === 'start' && state !== 'open') return TASK_MSG.alreadyStarted
  return null
}

// ---------------------------------------------------------------------------------------------
// Departments

/** A member's place in the tree, as the task rules need it. */
export interface TaskMember {
  userId: number
  /** 0 when in no department. */
  departmentId: number
  /** Departments the member manages directly. */
  managedDepartmentIds: readonly number[]
}

function existing(departments: readonly DepartmentNode[], id: number): boolean {
  return id > 0 && departments.some((d) => d.id === id)
}

/**
 * The departments whose assignment reaches the member: their own and every ancestor (a
 * department assignment reaches the department's members and those of its child departments).
 */
export function reachingDepartmentIds(departments: readonly DepartmentNode[], departmentId: number): number[] {
  return existing(departments, departmentId) ? ancestorIds(departments, departmentId) : []
}

/** Who a task is assigned to. */
export interface TaskAssignment {
  user_ids: readonly number[]
  department_ids: readonly number[]
}

/** The member is assigned directly, or through their department or one of its ancestors. */
export function isAssignee(assignment: TaskAssignment, userId: number, reaching: readonly number[]): boolean {
  return assignment.user_ids.includes(userId) || assignment.department_ids.some((d) => reaching.includes(d))
}

/**
 * The 'department' scope: the member's department and its children, plus for a department manager
 * every managed department's subtree (`members`: a task assigned to a member of these is in the
 * scope); `assigned`: those and their ancestors (a task assigned to one of these reaches
 * somebody in the scope).
 */
export function departmentScope(departments: readonly DepartmentNode[], member: TaskMember): { members: number[]; assigned: number[] } {
  const members = new Set<number>(authorityDepartmentIds(departments, member.managedDepartmentIds))
  if (existing(departments, member.departmentId)) for (const id of descendantIds(departments, member.departmentId)) members.add(id)
  const assigned = new Set<number>()
  for (const id of members) for (const a of ancestorIds(departments, id)) assigned.add(a)
  return { members: [...members], assigned: [...assigned] }
}

// ---------------------------------------------------------------------------------------------
// Who may do what (module_dispatch is checked before any of these)

/** Create a task: task_add (managers always). */
export function canCreateTask(actor: Actor): boolean {
  return canInGroup(actor, PERM.TASK_ADD)
}

/** Delete a task: task_delete (managers always). */
export function canDeleteTask(actor: Actor): boolean {
  return canInGroup(actor, PERM.TASK_DELETE)
}

/** See the 'all' scope: managers only. */
export function canListAllTasks(actor: Actor): boolean {
  return isGroupManager(actor)
}

/** What a caller may do with a task now (the card's and the detail's buttons; the server decides again). */
export function taskAbilities(task: { creator_id: number; state: TaskState }, actor: Actor, userId: number, assigned: boolean): { edit: boolean; delete: boolean; start: boolean; complete: boolean } {
  const done = task.state === 'done'
  return {
    edit: !done && (task.creator_id === userId || isGroupManager(actor)),
    delete: canDeleteTask(actor),
    start: assigned && nextState(task.state, 'start') !== null,
    complete: assigned && nextState(task.state, 'complete') !== null,
  }
}
