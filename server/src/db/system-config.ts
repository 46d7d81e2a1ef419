/** Repository of the single-row system_config table. */
import type { Executor } from './connection'
import type { SystemConfigRow } from './schema'

/** The operator's customer-service contact (SERVICE_PHONE / SERVICE_URL at start-up). */
export async function setServiceContact(db: Executor, contact: { phone?: string; url?: string }): Promise<void> {
  const values: { service_phone?: string; service_url?: string } = {}
  if (contact.phone !== undefined) values.service_phone = contact.phone
  if (contact.url !== undefined) values.service_url = contact.url
  if (Object.keys(values).length) await db.updateTable('system_config').set(values).execute()
}

export function getSystemConfig(db: Executor): Promise<SystemConfigRow> {
  return db.selectFrom('system_config').selectAll().orderBy('id').limit(1).executeTakeFirstOrThrow()
}

/** The operator's changes (/api/system/save/config): only the columns given change. */
export async function updateSystemConfig(db: Executor, patch: Partial<Omit<SystemConfigRow, 'id'>>): Promise<void> {
  if (Object.keys(patch).length) await db.updateTable('system_config').set(patch).execute()
}
