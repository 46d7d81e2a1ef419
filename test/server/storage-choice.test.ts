/**
 * Which storage a server uses (README "Beyond one machine"): FILE_STORAGE when set, else S3 when
 * its four settings are there, else the database on PostgreSQL and the local folder on SQLite;
 * a setting that cannot work stops the start with a sentence naming what is missing.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDatabase } from '../../server/src/db/connection'
import { LocalFileStorage } from '../../server/src/services/storage'
import { storageFromEnv, storageKindOf } from '../../server/src/services/storage-choice'
import { S3FileStorage } from '../../server/src/services/storage-s3'

const S3 = { S3_ENDPOINT: 'https://cos.ap-shanghai.myqcloud.com', S3_BUCKET: 'teammap-1250000000', S3_ACCESS_KEY: 'AKID', S3_SECRET_KEY: 'secret' }
const sqlite = { dialect: 'sqlite' as const }
const postgres = { dialect: 'postgres' as const }

describe('the file storage chosen from the environment', () => {
  it('should be the local folder on SQLite and the database on PostgreSQL when nothing is set', () => {
    expect(storageKindOf({}, sqlite)).toBe('local')
    expect(storageKindOf({}, postgres)).toBe('pg')
  })

  it('should be S3 when its four settings are set, on either database, and only then', () => {
    expect(storageKindOf(S3, sqlite)).toBe('s3')
    expect(storageKindOf(S3, postgres)).toBe('s3')
    expect(storageKindOf({ ...S3, S3_SECRET_KEY: '' }, postgres)).toBe('pg')
  })

  it('should follow FILE_STORAGE over everything else', () => {
    expect(storageKindOf({ ...S3, FILE_STORAGE: 'local' }, postgres)).toBe('local')
    expect(storageKindOf({ FILE_STORAGE: 'pg' }, postgres)).toBe('pg')
    expect(storageKindOf({ FILE_STORAGE: 's3' }, sqlite)).toBe('s3')
  })

  it('should refuse to start with an unknown FILE_STORAGE, s3 without its settings, or pg without PostgreSQL', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'teammap-choice-'))
    const db = openDatabase({ kind: 'sqlite', file: ':memory:' })
    try {
      await expect(storageFromEnv({ FILE_STORAGE: 'disk' }, db, dir)).rejects.toThrow('FILE_STORAGE=disk: use local, pg or s3')
      await expect(storageFromEnv({ FILE_STORAGE: 's3', S3_BUCKET: 'b' }, db, dir)).rejects.toThrow('file storage s3 needs S3_ENDPOINT, S3_ACCESS_KEY, S3_SECRET_KEY')
      await expect(storageFromEnv({ FILE_STORAGE: 'pg' }, db, dir)).rejects.toThrow('file storage pg needs DATABASE_URL (PostgreSQL)')
      expect((await storageFromEnv({}, db, dir)).storage).toBeInstanceOf(LocalFileStorage)
      const s3 = (await storageFromEnv(S3, db, dir)).storage as S3FileStorage
      expect(s3).toBeInstanceOf(S3FileStorage)
      s3.close()
    } finally {
      void db.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
