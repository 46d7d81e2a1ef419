/** Repository of the discounts table: discount codes, their days, products and use counts. */
import type { Generated, Selectable } from 'kysely'
import type { DiscountKind } from '../../../types/vip'
import type { Executor } from './connection'

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
  return db.insertInto('discounts').values({ ...discount, used_count: discount.used_count ?? 0 }).returningAll().executeTakeFirstOrThrow()
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

/** One more paid order used it. */
export async function countDiscountUse(db: Executor, id: number): Promise<void> {
  await db
    .updateTable('discounts')
    .set((eb) => ({ used_count: eb('used_count', '+', 1) }))
    .where('id', '=', id)
    .execute()
}
