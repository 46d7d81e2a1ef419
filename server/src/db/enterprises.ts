/** Repository of the enterprises table: the questionnaire's profile per user, its verification and trial bonus. */
import type { Selectable } from 'kysely'
import type { Executor } from './connection'

export interface EnterprisesTable {
  user_id: number
  name: string
  business_type: string
  size: number
  contacts: string
  post: string
  /** JSON array of the three answers. */
  qa: string
  verified_at: string
  bonus_days: number
  bonus_group_id: number
  updated_at: string
}

declare module './schema' {
  interface Tables {
    enterprises: EnterprisesTable
  }
}

export type EnterpriseRow = Selectable<EnterprisesTable>
export type EnterpriseFields = Pick<EnterpriseRow, 'name' | 'business_type' | 'size' | 'contacts' | 'post' | 'qa'>

export function findEnterprise(db: Executor, userId: number): Promise<EnterpriseRow | undefined> {
  return db.selectFrom('enterprises').selectAll().where('user_id', '=', userId).executeTakeFirst()
}

/** Inserts the user's profile unless they have one: true when this call inserted it (concurrent firsts: one wins). */
export async function insertEnterpriseIfNone(db: Executor, row: EnterpriseRow): Promise<boolean> {
  const inserted = await db
    .insertInto('enterprises')
    .values(row)
    .onConflict((oc) => oc.column('user_id').doNothing())
    .returning('user_id')
    .executeTakeFirst()
  return !!inserted
}

export async function setEnterpriseBonus(db: Executor, userId: number, days: number, groupId: number): Promise<void> {
  await db.updateTable('enterprises').set({ bonus_days: days, bonus_group_id: groupId }).where('user_id', '=', userId).execute()
}

export async function updateEnterprise(db: Executor, userId: number, fields: EnterpriseFields, at: string): Promise<void> {
  await db
    .updateTable('enterprises')
    .set({ ...fields, updated_at: at })
    .where('user_id', '=', userId)
    .execute()
}

export async function deleteEnterpriseOfUser(db: Executor, userId: number): Promise<void> {
  await db.deleteFrom('enterprises').where('user_id', '=', userId).execute()
}
