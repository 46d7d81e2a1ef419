/**
 * Copies every file from one storage to another (npm run storage:migrate). Each copy is read back
 * from the target and its SHA-256 compared with the source's; a key the target already holds with
 * the same bytes is skipped, so a run that stopped half-way goes on where it was. The source is
 * never deleted: once the servers use the target, the operator removes the old folder, table or
 * bucket by hand (after a backup), so no command here can lose the only copy.
 */
import { createHash } from 'node:crypto'
import { mimeOfKey, type FileStorage } from './storage'

export interface MigrateReport {
  total: number
  copied: number
  skipped: number
  /** Keys that failed (missing at the source by the time of copying, or read back with other bytes). */
  failed: { key: string; reason: string }[]
}

function sha256(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex')
}

export async function migrateStorage(from: FileStorage, to: FileStorage, progress: (line: string) => void = () => {}): Promise<MigrateReport> {
  const keys: string[] = []
  for await (const key of from.keys()) keys.push(key)
  keys.sort()
  const report: MigrateReport = { total: keys.length, copied: 0, skipped: 0, failed: [] }
  let n = 0
  for (const key of keys) {
    n++
    const data = await from.get(key)
    if (!data) {
      report.failed.push({ key, reason: 'gone from the source' })
      progress(`${n}/${keys.length} ${key} gone from the source`)
      continue
    }
    const hash = sha256(data)
    const present = await to.get(key)
    if (present && sha256(present) === hash) {
      report.skipped++
      progress(`${n}/${keys.length} ${key} already there`)
      continue
    }
    await to.put(key, data, mimeOfKey(key))
    const back = await to.get(key)
    if (!back || sha256(back) !== hash) {
      report.failed.push({ key, reason: 'read back with other bytes' })
      progress(`${n}/${keys.length} ${key} FAILED: read back with other bytes`)
      continue
    }
    report.copied++
    progress(`${n}/${keys.length} ${key} copied`)
  }
  return report
}
