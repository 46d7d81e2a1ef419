/** Repository of the department_layer_auth table: the permission ids one department holds on one layer. */
import type { Generated } from 'kysely'
import type { Executor } from './connection'
import { parseOpts } from './layer-auth'

export interface DepartmentLayerAuthTable {
  id: Generated<number>
  group_id: number
  department_id: number
  layer_id: number
  /** JSON array of permission ids. */
  opts: string
}

declare module './schema' {
  interface Tables {
    department_layer_auth: DepartmentLayerAuthTable
  }
}

export interface DepartmentGrantRow {
  department_id: number
  layer_id: number
  opts: string[]
}

/** Every department grant of the group. */
export async function departmentGrantsOfGroup(db: Executor, groupId: number): Promise<DepartmentGrantRow[]> {
  const rows = await db.selectFrom('department_layer_auth').select(['department_id', 'layer_id', 'opts']).where('group_id', '=', groupId).orderBy('department_id').orderBy('layer_id').execute()
  return rows.map((r) => ({ department_id: r.department_id, layer_id: r.layer_id, opts: parseOpts(r.opts) }))
}

/** Replaces the department's opts on the layer; an empty list removes the row. */
export async function saveDepartmentOpts(db: Executor, auth: { group_id: number; department_id: number; layer_id: number; opts: string[] }): Promise<void> {
  if (auth.opts.length === 0) {
    await db.deleteFrom('department_layer_auth').where('department_id', '=', auth.department_id).where('layer_id', '=', auth.layer_id).execute()
    return
  }
  const opts = JSON.stringify(auth.opts)
  await db
    .insertInto('department_layer_auth')
    .values({ ...auth, opts })
    .onConflict((oc) => oc.columns(['department_id', 'layer_id']).doUpdateSet({ opts }))
    .execute()
}

export async function deleteDepartmentLayers(db: Executor, departmentId: number, layerIds: readonly number[]): Promise<void> {
  if (layerIds.length === 0) return
  await db
    .deleteFrom('department_layer_auth')
    .where('department_id', '=', departmentId)
    .where('layer_id', 'in', [...layerIds])
    .execute()
}

export async function deleteGrantsOfDepartments(db: Executor, departmentIds: readonly number[]): Promise<void> {
  if (departmentIds.length === 0) return
  await db
    .deleteFrom('department_layer_auth')
    .where('department_id', 'in', [...departmentIds])
    .execute()
}

export async function deleteDepartmentGrantsOfGroups(db: Executor, groupIds: readonly number[]): Promise<void> {
  if (groupIds.length === 0) return
  await db
    .deleteFrom('department_layer_auth')
    .where('group_id', 'in', [...groupIds])
    .execute()
}
