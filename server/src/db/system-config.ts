/** Repository of the single-row system_config table. */
import type { Executor } from './connection'
import type { SystemConfigRow } from './schema'

export function getSystemConfig(db: Executor): Promise<SystemConfigRow> {
  return db.selectFrom('system_config').selectAll().orderBy('id').limit(1).executeTakeFirstOrThrow()
}
