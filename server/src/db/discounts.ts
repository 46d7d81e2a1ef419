/** Repository of the discounts table: discount codes, their days, products and use counts. */
import type { Generated, Selectable } from 'kysely'
import type { DiscountKind } from '../../../types/vip'
import type { DialectName, Executor } from './connection'

export interface DiscountsTable {
  id: Generated<number>
  code: string
  name: string
  kind: DiscountKind
  value: number
  /** JSON array of product ids; [] for all. */
  product_ids: string
  starts_on: string | null
  ends_on: string | null
  max_uses: number
  used_count: number
  listed: number
  created_at: string
}

declare module './schema' {
  interface Tables {
    discounts: DiscountsTable
  }
}

export type DiscountRow = Selectable<DiscountsTable>
export type NewDiscount = Omit<DiscountRow, 'id' | 'used_count'> & { used_count?: number }

export function insertDiscount(db: Executor, discount: NewDiscount): Promise<DiscountRow> {
  return db
    .insertInto('discounts')
    .values({ ...discount, used_count: discount.used_count ?? 0 })
    .returningAll()
    .executeTakeFirstOrThrow()
}

export function findDiscountByCode(db: Executor, code: string): Promise<DiscountRow | undefined> {
  return db.selectFrom('discounts').selectAll().where('code', '=', code).executeTakeFirst()
}

export function findDiscountById(db: Executor, id: number): Promise<DiscountRow | undefined> {
  return db.selectFrom('discounts').selectAll().where('id', '=', id).executeTakeFirst()
}

/** Listed discounts whose days include `today` ('YYYY-MM-DD'); the caller drops used-up ones. */
export function listedDiscountsOn(db: Executor, today: string): Promise<DiscountRow[]> {
  return db
    .selectFrom('discounts')
    .selectAll()
    .where('listed', '=', 1)
    .where((eb) => eb.or([eb('starts_on', 'is', null), eb('starts_on', '<=', today)]))
    .where((eb) => eb.or([eb('ends_on', 'is', null), eb('ends_on', '>=', today)]))
    .orderBy('id')
    .execute()
}

/**
 * The discount of a code, locked until the transaction ends: on PostgreSQL by the row lock, on
 * SQLite by its one connection running one transaction at a time. Reservations (new orders) and
 * counted uses (payments) of a code are so decided one after the other, each seeing the orders
 * the ones before it committed.
 */
export function findDiscountByCodeForUpdate(db: Executor, code: string, dialect: DialectName): Promise<DiscountRow | undefined> {
  let query = db.selectFrom('discounts').selectAll().where('code', '=', code)
  if (dialect === 'postgres') query = query.forUpdate()
  return query.executeTakeFirst()
}

/** Locks the discount like findDiscountByCodeForUpdate; false when there is none. */
export async function lockDiscount(db: Executor, id: number, dialect: DialectName): Promise<boolean> {
  let query = db.selectFrom('discounts').select('id').where('id', '=', id)
  if (dialect === 'postgres') query = query.forUpdate()
  return !!(await query.executeTakeFirst())
}

/**
 * One more paid order used it, unless that would go over its cap beside the `held` uses that
 * waiting orders reserved: one conditional update, false when it counted nothing.
 */
export async function countDiscountUseWithinCap(db: Executor, id: number, held: number): Promise<boolean> {
  const result = await db
    .updateTable('discounts')
    .set((eb) => ({ used_count: eb('used_count', '+', 1) }))
    .where('id', '=', id)
    .where((eb) => eb.or([eb('max_uses', '=', 0), eb(eb('used_count', '+', held), '<', eb.ref('max_uses'))]))
    .executeTakeFirst()
  return Number(result.numUpdatedRows) === 1
}
