/** Repository of the tasks and task_assignees tables (migration 0012, types/tasks.ts). */
import { sql, type Expression, type ExpressionBuilder, type Generated, type Insertable, type Selectable, type SqlBool } from 'kysely'
import type { Executor } from './connection'
import { containsTextIgnoringCase, type MarkerRow } from './markers'
import type { Tables } from './schema'
import type { SignRow } from './signs'
import { paged } from './paged'

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
export type NewTask = Omit<Insertable<TasksTable>, 'id'>
export type TaskPatch = Partial<Pick<NewTask, 'title' | 'content' | 'marker_id' | 'place_name' | 'place_lng' | 'place_lat' | 'due_date' | 'state' | 'updated_at'>>

export async function insertTask(db: Executor, row: NewTask): Promise<TaskRow> {
  return db.insertInto('tasks').values(row).returningAll().executeTakeFirstOrThrow()
}

export async function updateTask(db: Executor, groupId: number, id: number, patch: TaskPatch): Promise<TaskRow> {
  return db.updateTable('tasks').set(patch).where('id', '=', id).where('group_id', '=', groupId).returningAll().executeTakeFirstOrThrow()
}

/**
 * Marks the task done with the check-in that proves it, unless it is done already (two completions
 * racing: only the first one changes the row); undefined when nothing changed.
 */
export async function markTaskDone(db: Executor, groupId: number, id: number, done: { at: string; by: number; signId: number }): Promise<TaskRow | undefined> {
  return db
    .updateTable('tasks')
    .set({ state: 'done', done_at: done.at, done_by: done.by, done_sign_id: done.signId, updated_at: done.at })
    .where('id', '=', id)
    .where('group_id', '=', groupId)
    .where('state', '<>', 'done')
    .returningAll()
    .executeTakeFirst()
}

/** A task of the group; undefined for an unknown id or another group's task. */
export function findTask(db: Executor, groupId: number, id: number): Promise<TaskRow | undefined> {
  return db.selectFrom('tasks').selectAll().where('id', '=', id).where('group_id', '=', groupId).executeTakeFirst()
}

export async function countTasksOfGroup(db: Executor, groupId: number): Promise<number> {
  const row = await db
    .selectFrom('tasks')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('group_id', '=', groupId)
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

/** The assignee rows of these tasks. */
export function assigneesOfTasks(db: Executor, taskIds: readonly number[]): Promise<TaskAssigneeRow[]> {
  if (taskIds.length === 0) return Promise.resolve([])
  return db
    .selectFrom('task_assignees')
    .selectAll()
    .where('task_id', 'in', [...taskIds])
    .orderBy('id')
    .execute()
}

/** Replaces the task's assignees with these members and departments. */
export async function replaceAssignees(db: Executor, groupId: number, taskId: number, userIds: readonly number[], departmentIds: readonly number[]): Promise<void> {
  await db.deleteFrom('task_assignees').where('task_id', '=', taskId).execute()
  const rows = [
    ...userIds.map((user_id) => ({ task_id: taskId, group_id: groupId, user_id, department_id: 0 })),
    ...departmentIds.map((department_id) => ({ task_id: taskId, group_id: groupId, user_id: 0, department_id })),
  ]
  if (rows.length) await db.insertInto('task_assignees').values(rows).execute()
}

export async function deleteTask(db: Executor, groupId: number, id: number): Promise<void> {
  await db.deleteFrom('task_assignees').where('task_id', '=', id).where('group_id', '=', groupId).execute()
  await db.deleteFrom('tasks').where('id', '=', id).where('group_id', '=', groupId).execute()
}

/** Every task of these groups and their assignees (account deletion). */
export async function deleteTasksOfGroups(db: Executor, groupIds: readonly number[]): Promise<void> {
  if (groupIds.length === 0) return
  await db
    .deleteFrom('task_assignees')
    .where('group_id', 'in', [...groupIds])
    .execute()
  await db
    .deleteFrom('tasks')
    .where('group_id', 'in', [...groupIds])
    .execute()
}

/** The task (of the group) whose completion this check-in proves, if any. */
export async function taskProvedBy(db: Executor, groupId: number, signId: number): Promise<number | undefined> {
  const row = await db.selectFrom('tasks').select('id').where('group_id', '=', groupId).where('done_sign_id', '=', signId).executeTakeFirst()
  return row?.id
}

/** What a check-in offered as a task's proof is checked by (a row of signs of the group). */
export function signOfGroup(db: Executor, groupId: number, signId: number): Promise<Pick<SignRow, 'id' | 'user_id' | 'task_id' | 'time' | 'photos'> | undefined> {
  return db.selectFrom('signs').select(['id', 'user_id', 'task_id', 'time', 'photos']).where('id', '=', signId).where('group_id', '=', groupId).executeTakeFirst()
}

/** Live markers of the group by id (a task's marker shows to everyone who sees the task). */
export function taskMarkers(db: Executor, groupId: number, ids: readonly number[]): Promise<Pick<MarkerRow, 'id' | 'name' | 'type' | 'points'>[]> {
  if (ids.length === 0) return Promise.resolve([])
  return db
    .selectFrom('markers')
    .select(['id', 'name', 'type', 'points'])
    .where('group_id', '=', groupId)
    .where('id', 'in', [...ids])
    .where('deleted_at', 'is', null)
    .execute()
}

// ---------------------------------------------------------------------------------------------
// Lists

/** Which tasks a list holds. */
export type TaskScopeFilter =
  | { kind: 'all' }
  | { kind: 'created'; userId: number }
  /**
   * Assigned to one of `userIds`, to one of `departmentIds`, or to a member whose department is
   * one of `memberDepartmentIds`.
   */
  | { kind: 'assigned'; userIds: readonly number[]; departmentIds: readonly number[]; memberDepartmentIds: readonly number[] }
  /** In any of these. */
  | { kind: 'either'; filters: readonly TaskScopeFilter[] }

function inScope(eb: ExpressionBuilder<Tables, 'tasks'>, groupId: number, scope: TaskScopeFilter): Expression<SqlBool> {
  if (scope.kind === 'all') return sql<SqlBool>`1 = 1`
  if (scope.kind === 'created') return eb('tasks.creator_id', '=', scope.userId)
  if (scope.kind === 'either') return eb.or(scope.filters.map((f) => inScope(eb, groupId, f)))
  const { userIds, departmentIds, memberDepartmentIds } = scope
  if (userIds.length + departmentIds.length + memberDepartmentIds.length === 0) return sql<SqlBool>`1 = 0`
  return eb.exists(
    eb
      .selectFrom('task_assignees')
      .select('task_assignees.id')
      .whereRef('task_assignees.task_id', '=', 'tasks.id')
      .where((ea) => {
        const reached: Expression<SqlBool>[] = []
        if (userIds.length) reached.push(ea('task_assignees.user_id', 'in', [...userIds]))
        if (departmentIds.length) reached.push(ea('task_assignees.department_id', 'in', [...departmentIds]))
        if (memberDepartmentIds.length)
          reached.push(
            ea(
              'task_assignees.user_id',
              'in',
              ea
                .selectFrom('joins')
                .select('joins.user_id')
                .where('joins.group_id', '=', groupId)
                .where('joins.department_id', 'in', [...memberDepartmentIds]),
            ),
          )
        return ea.or(reached)
      }),
  )
}

/** The status shown, as SQL: done; overdue (due day before `today`, not done); open or doing. */
function hasStatus(eb: ExpressionBuilder<Tables, 'tasks'>, status: string, today: string): Expression<SqlBool> {
  if (status === 'done') return eb('tasks.state', '=', 'done')
  if (status === 'overdue') return eb.and([eb('tasks.state', '<>', 'done'), eb('tasks.due_date', 'is not', null), eb('tasks.due_date', '<', today)])
  return eb.and([eb('tasks.state', '=', status), eb.or([eb('tasks.due_date', 'is', null), eb('tasks.due_date', '>=', today)])])
}

/** The task if it is in the scope; undefined otherwise (or unknown, or another group's). */
export function findTaskInScope(db: Executor, groupId: number, id: number, scope: TaskScopeFilter): Promise<TaskRow | undefined> {
  return db
    .selectFrom('tasks')
    .selectAll('tasks')
    .where('tasks.group_id', '=', groupId)
    .where('tasks.id', '=', id)
    .where((eb) => inScope(eb, groupId, scope))
    .executeTakeFirst()
}

export interface TaskListQuery {
  scope: TaskScopeFilter
  status?: string
  kw?: string
  /** The Shanghai day the statuses are read on. */
  today: string
}

function listQuery(db: Executor, groupId: number, query: TaskListQuery) {
  return db
    .selectFrom('tasks')
    .where('tasks.group_id', '=', groupId)
    .where((eb) => {
      const parts = [inScope(eb, groupId, query.scope)]
      if (query.status) parts.push(hasStatus(eb, query.status, query.today))
      if (query.kw) parts.push(eb.or([containsTextIgnoringCase('tasks.title', query.kw), containsTextIgnoringCase('tasks.content', query.kw)]))
      return eb.and(parts)
    })
}

/** One page of the tasks in the scope (with the status and keyword), last changed first, and how many match. */
export async function pageOfTasks(db: Executor, groupId: number, query: TaskListQuery, page: { pageindex: number; pagesize: number }): Promise<{ rows: TaskRow[]; total: number }> {
  return paged(listQuery(db, groupId, query), (q) => q.selectAll('tasks').orderBy('tasks.updated_at', 'desc').orderBy('tasks.id', 'desc'), page)
}

/** How many tasks of the scope have each status (no status or keyword filter). */
export async function statusCountsOf(db: Executor, groupId: number, scope: TaskScopeFilter, today: string): Promise<Record<'open' | 'doing' | 'overdue' | 'done', number>> {
  const overdue = sql`(tasks.state <> 'done' and tasks.due_date is not null and tasks.due_date < ${today})`
  const row = await listQuery(db, groupId, { scope, today })
    .select([
      sql<number>`sum(case when tasks.state = 'done' then 1 else 0 end)`.as('done'),
      sql<number>`sum(case when ${overdue} then 1 else 0 end)`.as('overdue'),
      sql<number>`sum(case when tasks.state = 'open' and not ${overdue} then 1 else 0 end)`.as('open'),
      sql<number>`sum(case when tasks.state = 'doing' and not ${overdue} then 1 else 0 end)`.as('doing'),
    ])
    .executeTakeFirstOrThrow()
  return { open: Number(row.open ?? 0), doing: Number(row.doing ?? 0), overdue: Number(row.overdue ?? 0), done: Number(row.done ?? 0) }
}
