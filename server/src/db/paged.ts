/**
 * One page of a query's rows and how many rows the query matches in all: every paged list
 * (markers, log, routes, shares, signs, tasks, orders) reads its page and its total this way.
 */
import type { SelectQueryBuilder } from 'kysely'

export interface Page {
  /** From 1. */
  pageindex: number
  pagesize: number
}

/**
 * `base` holds the list's tables and conditions and nothing selected; `select` adds the row
 * columns and the order. Both queries run at once (kysely builders are immutable, so `base`
 * is shared safely).
 */
export async function paged<DB, TB extends keyof DB, O>(
  base: SelectQueryBuilder<DB, TB, object>,
  select: (query: SelectQueryBuilder<DB, TB, object>) => SelectQueryBuilder<DB, TB, O>,
  page: Page,
): Promise<{ rows: O[]; total: number }> {
  const [rows, count] = await Promise.all([
    select(base)
      .limit(page.pagesize)
      .offset((page.pageindex - 1) * page.pagesize)
      .execute(),
    base
      .select((eb) => eb.fn.countAll().as('n'))
      // kysely cannot name the selection while DB and TB are still generic; the count is this one column
      .$castTo<{ n: string | number | bigint }>()
      .executeTakeFirstOrThrow(),
  ])
  return { rows, total: Number(count.n) }
}
