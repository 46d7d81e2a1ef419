/**
 * Files in the database's stored_files table: with PostgreSQL every server of a deployment reads
 * the same files and one pg_dump backs them up with the rest. Not meant for SQLite (one machine
 * keeps its files on disk), though the queries would run there too.
 */
import { createHash } from 'node:crypto'
import type { Database } from '../db/connection'
import { deleteStoredFile, storedFileBytes, storedFileKeysAfter, upsertStoredFile } from '../db/stored-files'
import { checkStorageKey, isStorageKey, type FileStorage } from './storage'

/** Keys read per query while listing (a page of names, not of bytes). */
const KEYS_PAGE = 500

export class PgFileStorage implements FileStorage {
  constructor(
    private readonly db: Database,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async put(key: string, data: Buffer, _mime?: string): Promise<void> {
    checkStorageKey(key)
    const sha256 = createHash('sha256').update(data).digest('hex')
    await upsertStoredFile(this.db.kysely, { key, bytes: data, sha256, size: data.length, created_at: this.now().toISOString() })
  }

  async get(key: string): Promise<Buffer | null> {
    if (!isStorageKey(key)) return null
    return storedFileBytes(this.db.kysely, key)
  }

  async delete(key: string): Promise<void> {
    if (!isStorageKey(key)) return
    await deleteStoredFile(this.db.kysely, key)
  }

  async *keys(): AsyncIterable<string> {
    let after = ''
    for (;;) {
      const page = await storedFileKeysAfter(this.db.kysely, after, KEYS_PAGE)
      yield* page
      if (page.length < KEYS_PAGE) return
      after = page[page.length - 1]
    }
  }
}
