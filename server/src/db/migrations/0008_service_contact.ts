/**
 * The customer-service contact the app offers (trial welcome 'contact service', the service sheet):
 * a phone number and a chat-service link (shown as a QR code and a copyable link). Empty until the
 * operator sets them (SERVICE_PHONE / SERVICE_URL at start-up, or in the table).
 */
import type { Kysely, Migration } from 'kysely'

export function serviceContact(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('system_config')
        .addColumn('service_phone', 'text', (c) => c.notNull().defaultTo(''))
        .execute()
      await db.schema
        .alterTable('system_config')
        .addColumn('service_url', 'text', (c) => c.notNull().defaultTo(''))
        .execute()
    },
    async down(db: Kysely<any>) {
      await db.schema.alterTable('system_config').dropColumn('service_url').execute()
      await db.schema.alterTable('system_config').dropColumn('service_phone').execute()
    },
  }
}
