/** Repository of the department_managers table: who manages which department. */
import type { Executor } from './connection'

export interface DepartmentManagersTable {
  department_id: number
  user_id: number
}

declare module './schema' {
  interface Tables {
    department_managers: DepartmentManagersTable
  }
}

/** Every (department, manager) pair of the group's departments. */
export function managersOfGroup(db: Executor, groupId: number): Promise<DepartmentManagersTable[]> {
  return db
    .selectFrom('department_managers')
    .innerJoin('departments', 'departments.id', 'department_managers.department_id')
    .select(['department_managers.department_id', 'department_managers.user_id'])
    .where('departments.group_id', '=', groupId)
    .orderBy('department_managers.department_id')
    .orderBy('department_managers.user_id')
    .execute()
}

/** The ids of the group's departments this user manages directly. */
export async function departmentIdsManagedBy(db: Executor, groupId: number, userId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('department_managers')
    .innerJoin('departments', 'departments.id', 'department_managers.department_id')
    .select('department_managers.department_id')
    .where('departments.group_id', '=', groupId)
    .where('department_managers.user_id', '=', userId)
    .execute()
  return rows.map((r) => r.department_id)
}

/** Replaces the department's managers. */
export async function replaceManagers(db: Executor, departmentId: number, userIds: readonly number[]): Promise<void> {
  await db.deleteFrom('department_managers').where('department_id', '=', departmentId).execute()
  if (userIds.length === 0) return
  await db
    .insertInto('department_managers')
    .values([...new Set(userIds)].map((user_id) => ({ department_id: departmentId, user_id })))
    .execute()
}

export async function deleteManager(db: Executor, departmentId: number, userId: number): Promise<void> {
  await db.deleteFrom('department_managers').where('department_id', '=', departmentId).where('user_id', '=', userId).execute()
}

export async function deleteManagersOfDepartments(db: Executor, departmentIds: readonly number[]): Promise<void> {
  if (departmentIds.length === 0) return
  await db
    .deleteFrom('department_managers')
    .where('department_id', 'in', [...departmentIds])
    .execute()
}

/** The user stops managing any department of the group (leaving or removed from it). */
export async function deleteManagerOfGroup(db: Executor, groupId: number, userId: number): Promise<void> {
  await db
    .deleteFrom('department_managers')
    .where('user_id', '=', userId)
    .where('department_id', 'in', (eb) => eb.selectFrom('departments').select('id').where('group_id', '=', groupId))
    .execute()
}

export async function deleteManagersOfUser(db: Executor, userId: number): Promise<void> {
  await db.deleteFrom('department_managers').where('user_id', '=', userId).execute()
}
