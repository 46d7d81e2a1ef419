/** Repository of the stored_files table: uploaded files kept in the database (services/storage-pg.ts). */
import type { Executor } from './connection'

export interface StoredFilesTable {
  key: string
  bytes: Buffer
  /** Hex SHA-256 of bytes: storage:migrate compares it without reading the bytes back twice. */
  sha256: string
  size: number
  created_at: string
}

declare module './schema' {
  interface Tables {
    stored_files: StoredFilesTable
  }
}

/** Stores a file; the same key again replaces it (an upload never reuses a key; a migration rerun may). */
export async function upsertStoredFile(db: Executor, row: StoredFilesTable): Promise<void> {
  await db
    .insertInto('stored_files')
    .values(row)
    .onConflict((oc) => oc.column('key').doUpdateSet({ bytes: row.bytes, sha256: row.sha256, size: row.size, created_at: row.created_at }))
    .execute()
}

export async function storedFileBytes(db: Executor, key: string): Promise<Buffer | null> {
  const row = await db.selectFrom('stored_files').select('bytes').where('key', '=', key).executeTakeFirst()
  return row ? Buffer.from(row.bytes) : null
}

export async function deleteStoredFile(db: Executor, key: string): Promise<void> {
  await db.deleteFrom('stored_files').where('key', '=', key).execute()
}

/** Keys after `after` in key order, at most `limit` (paging through every file). */
export async function storedFileKeysAfter(db: Executor, after: string, limit: number): Promise<string[]> {
  const rows = await db.selectFrom('stored_files').select('key').where('key', '>', after).orderBy('key').limit(limit).execute()
  return rows.map((r) => r.key)
}
