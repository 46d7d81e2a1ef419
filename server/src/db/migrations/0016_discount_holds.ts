/**
 * Discount caps held by orders: a waiting order within its pay window reserves one use of its
 * code, so the reservations of a code are counted from vip_orders by discount_id (hence the
 * index). A payment whose use the cap can no longer take (its reservation was released by a
 * cancel before the money arrived) still completes at the price paid; such an order is marked
 * discount_over_cap = 1 and is not counted in discounts.used_count.
 */
import { sql, type Kysely, type Migration } from 'kysely'

export function discountHolds(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('vip_orders')
        .addColumn('discount_over_cap', 'integer', (c) => c.notNull().defaultTo(0))
        .execute()
      await db.schema.createIndex('vip_orders_discount_index').on('vip_orders').columns(['discount_id', 'status']).execute()
    },
    async down(db: Kysely<any>) {
      await sql`drop index if exists vip_orders_discount_index`.execute(db)
      await db.schema.alterTable('vip_orders').dropColumn('discount_over_cap').execute()
    },
  }
}
