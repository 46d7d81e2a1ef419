/** Repository of the tasks and task_assignees tables (issue 8; migration 0012, types/tasks.ts). */
import type { Generated, Selectable } from 'kysely'

export interface TasksTable {
  id: Generated<number>
  group_id: number
  creator_id: number
  title: string
  content: string
  marker_id: number | null
  place_name: string | null
  place_lng: number | null
  place_lat: number | null
  due_date: string | null
  /** 'open' | 'doing' | 'done' */
  state: string
  created_at: string
  updated_at: string
  done_at: string | null
  done_by: number | null
  done_sign_id: number | null
}

export interface TaskAssigneesTable {
  id: Generated<number>
  task_id: number
  group_id: number
  /** 0 for a department assignment. */
  user_id: number
  /** 0 for a member assignment. */
  department_id: number
}

declare module './schema' {
  interface Tables {
    tasks: TasksTable
    task_assignees: TaskAssigneesTable
  }
}

export type TaskRow = Selectable<TasksTable>
export type TaskAssigneeRow = Selectable<TaskAssigneesTable>
