/**
 * Tasks (/task, /task/add): work tied to a marker or a place, assigned to members and/or
 * departments, with a due day and a state. A member completes a task with a check-in and photo as
 * proof (types/signs.ts: a check-in made for the task, `task_id`, by the completer).
 *
 * Rules (the server decides; src/domain/tasks.ts holds the pure parts):
 * - Module: every task call needs module_dispatch (调度, a VIP module: locked on the free tier).
 * - Create: task_add (managers always). Edit: the creator or a manager. Delete: task_delete
 *   (managers always).
 * - Assignees: users of the group and departments of the group. A department assignment reaches
 *   the department's members and the members of its child departments.
 * - Start (open -> doing) and complete (open/doing -> done): an assignee (directly or through a
 *   department). Completing needs `sign_id`: a check-in by the caller for this task, saved after the
 *   task was created. A done task cannot be started, completed or edited again.
 * - Status shown: 'overdue' when the due day (Shanghai calendar) has passed and the task is not done;
 *   otherwise the state.
 * - Lists (scope): 'mine' = assigned to me (directly or through a department); 'department' = assigned
 *   to my departments (and their children) or to any member of them, plus, for a department
 *   manager, all of their departments' subtree; 'all' = every task of the group, managers only
 *   (FORBIDDEN otherwise). 'created' = created by me.
 * - A task of another group is NOT_FOUND, exactly like an unknown id.
 */
import type { Paged } from './api'
import type { SignRecord } from './signs'

export type TaskState = 'open' | 'doing' | 'done'
export type TaskStatus = TaskState | 'overdue'
export type TaskScope = 'mine' | 'department' | 'all' | 'created'

export interface TaskPlace {
  name: string
  lng: number
  lat: number
}

export interface Task {
  id: number
  title: string
  content: string
  /** The marker the task is at (its name and the point check-ins are measured to), or null. */
  marker: { id: number; name: string; lng: number; lat: number } | null
  /** A place on the map when the task has no marker, or null (then any location completes it). */
  place: TaskPlace | null
  users: { id: number; nickname: string }[]
  departments: { id: number; name: string }[]
  /** 'YYYY-MM-DD' (Shanghai), or null for no due day. */
  due_date: string | null
  state: TaskState
  status: TaskStatus
  creator: { id: number; nickname: string }
  created_at: string
  updated_at: string
  done_at: string | null
  done_by: { id: number; nickname: string } | null
  /** The check-in that completed the task (with its photos and verification), or null. */
  proof: SignRecord | null
  /** What the caller may do with it now. */
  can: { edit: boolean; delete: boolean; start: boolean; complete: boolean }
}

export interface TaskInput {
  id?: number
  title: string
  content?: string
  marker_id?: number | null
  place?: TaskPlace | null
  user_ids: number[]
  department_ids: number[]
  due_date?: string | null
}

export interface TaskListRequest {
  scope: TaskScope
  status?: TaskStatus
  kw?: string
  pageindex?: number
  pagesize?: number
}

export interface TaskApi {
  /** Newest change first; `counts` are per status within the scope (ignoring `status` and `kw`). */
  '/api/task/getlist': { req: TaskListRequest; res: Paged<Task> & { counts: Record<TaskStatus, number> } }
  '/api/task/getbyid': { req: { id: number }; res: Task }
  '/api/task/save': { req: TaskInput; res: Task }
  '/api/task/delete': { req: { id: number }; res: null }
  '/api/task/start': { req: { id: number }; res: Task }
  '/api/task/complete': { req: { id: number; sign_id: number }; res: Task }
}
