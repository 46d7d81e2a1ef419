/**
 * Membership and payment: discount codes, VIP orders (money in integer fen), resets to
 * free (which markers they hid, to bring them back on a renewal within 3 months), and the
 * questionnaire's enterprise profile per user. No foreign keys, like map data: account deletion
 * removes a user's rows through services/vip.ts.
 */
import { sql, type Kysely, type Migration } from 'kysely'
import type { DialectName } from '../connection'
import { withId } from './columns'

export function vip(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      await withId(db.schema.createTable('discounts'), dialect)
        // Upper case (normalizeDiscountCode).
        .addColumn('code', 'text', (c) => c.notNull().unique())
        .addColumn('name', 'text', (c) => c.notNull())
        // 'amount' (value fen off) or 'rate' (value per cent paid).
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('value', 'integer', (c) => c.notNull())
        // JSON array of product ids; [] for all.
        .addColumn('product_ids', 'text', (c) => c.notNull().defaultTo('[]'))
        // 'YYYY-MM-DD' in Asia/Shanghai, inclusive; null for open.
        .addColumn('starts_on', 'text')
        .addColumn('ends_on', 'text')
        // 0 for no cap; used_count counts paid orders.
        .addColumn('max_uses', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('used_count', 'integer', (c) => c.notNull().defaultTo(0))
        // Listed by /api/vip/discount/getlist; others work only by their code.
        .addColumn('listed', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute()

      await withId(db.schema.createTable('vip_orders'), dialect)
        // out_trade_no of WeChat Pay.
        .addColumn('order_no', 'text', (c) => c.notNull().unique())
        .addColumn('group_id', 'integer', (c) => c.notNull())
        .addColumn('user_id', 'integer', (c) => c.notNull())
        .addColumn('product_id', 'integer', (c) => c.notNull())
        .addColumn('level', 'integer', (c) => c.notNull())
        .addColumn('months', 'integer', (c) => c.notNull())
        // Fen.
        .addColumn('price', 'integer', (c) => c.notNull())
        .addColumn('discount_id', 'integer')
        .addColumn('discount_code', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('discount_amount', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('amount', 'integer', (c) => c.notNull())
        // 0 waiting, 1 paid, 2 cancelled (3 closed is read from expires_at).
        .addColumn('status', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('channel', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('prepay_id', 'text')
        .addColumn('prepay_at', 'text')
        .addColumn('transaction_id', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('paid_at', 'text')
        .addColumn('cancelled_at', 'text')
        .addColumn('vip_exp_after', 'text')
        .execute()
      await db.schema.createIndex('vip_orders_group_user_index').on('vip_orders').columns(['group_id', 'user_id']).execute()

      await withId(db.schema.createTable('vip_resets'), dialect)
        .addColumn('group_id', 'integer', (c) => c.notNull())
        .addColumn('user_id', 'integer', (c) => c.notNull())
        .addColumn('remarks', 'text', (c) => c.notNull())
        .addColumn('level_before', 'integer', (c) => c.notNull())
        // When the membership expired: hidden markers come back on a renewal within 3 months of it.
        .addColumn('expired_at', 'text', (c) => c.notNull())
        // Hidden markers carry this as their deleted_at (the reset's own time).
        .addColumn('hidden_at', 'text', (c) => c.notNull())
        .addColumn('hidden_count', 'integer', (c) => c.notNull())
        .addColumn('removed_members', 'integer', (c) => c.notNull())
        .addColumn('restored_at', 'text')
        .addColumn('restored_count', 'integer', (c) => c.notNull().defaultTo(0))
        .execute()
      await db.schema.createIndex('vip_resets_group_index').on('vip_resets').column('group_id').execute()

      await db.schema
        .createTable('enterprises')
        .addColumn('user_id', 'integer', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('business_type', 'text', (c) => c.notNull())
        .addColumn('size', 'integer', (c) => c.notNull())
        .addColumn('contacts', 'text', (c) => c.notNull())
        .addColumn('post', 'text', (c) => c.notNull())
        // JSON array of the three answers.
        .addColumn('qa', 'text', (c) => c.notNull())
        // The questionnaire was submitted (verifyed); its trial days were given once.
        .addColumn('verified_at', 'text', (c) => c.notNull())
        .addColumn('bonus_days', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('bonus_group_id', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute()
    },

    async down(db: Kysely<any>) {
      for (const table of ['enterprises', 'vip_resets', 'vip_orders', 'discounts']) {
        await sql`drop table if exists ${sql.table(table)}`.execute(db)
      }
    },
  }
}
