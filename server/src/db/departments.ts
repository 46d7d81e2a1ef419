/** Repository of the departments table: a group's departments, nested through parent_id. */
import type { Generated, Selectable } from 'kysely'
import type { Executor } from './connection'

export interface DepartmentsTable {
  id: Generated<number>
  group_id: number
  name: string
  /** 0 at the top. */
  parent_id: number
  sort: number
  created_at: string
}

declare module './schema' {
  interface Tables {
    departments: DepartmentsTable
  }
}

export type DepartmentRow = Selectable<DepartmentsTable>

/** The group's departments in display order (sort, then id). */
export function departmentsOfGroup(db: Executor, groupId: number): Promise<DepartmentRow[]> {
  return db.selectFrom('departments').selectAll().where('group_id', '=', groupId).orderBy('sort').orderBy('id').execute()
}

/** A department of the group; undefined for another group's or an unknown id. */
export function findDepartment(db: Executor, groupId: number, id: number): Promise<DepartmentRow | undefined> {
  return db.selectFrom('departments').selectAll().where('id', '=', id).where('group_id', '=', groupId).executeTakeFirst()
}

export function insertDepartment(db: Executor, row: { group_id: number; name: string; parent_id: number; sort: number; created_at: string }): Promise<DepartmentRow> {
  return db.insertInto('departments').values(row).returningAll().executeTakeFirstOrThrow()
}

export function updateDepartment(db: Executor, id: number, patch: Partial<Pick<DepartmentRow, 'name' | 'parent_id' | 'sort'>>): Promise<DepartmentRow> {
  return db.updateTable('departments').set(patch).where('id', '=', id).returningAll().executeTakeFirstOrThrow()
}

export async function deleteDepartments(db: Executor, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return
  await db
    .deleteFrom('departments')
    .where('id', 'in', [...ids])
    .execute()
}

export async function deleteDepartmentsOfGroups(db: Executor, groupIds: readonly number[]): Promise<void> {
  if (groupIds.length === 0) return
  await db
    .deleteFrom('departments')
    .where('group_id', 'in', [...groupIds])
    .execute()
}

export async function departmentIdsOfGroups(db: Executor, groupIds: readonly number[]): Promise<number[]> {
  if (groupIds.length === 0) return []
  const rows = await db
    .selectFrom('departments')
    .select('id')
    .where('group_id', 'in', [...groupIds])
    .execute()
  return rows.map((r) => r.id)
}
