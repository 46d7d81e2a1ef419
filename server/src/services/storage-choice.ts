/**
 * Which FileStorage a server uses, from its environment (README "Beyond one machine"):
 * FILE_STORAGE=local|pg|s3 when set; otherwise s3 when the S3_* settings are there, pg on
 * PostgreSQL (so that several servers share the files with no extra service), and the local
 * folder DATA_DIR/uploads on SQLite (one machine).
 */
import { join } from 'node:path'
import type { Database } from '../db/connection'
import { PgFileStorage } from './storage-pg'
import type { S3Settings } from './storage-s3'
import { LocalFileStorage, type FileStorage } from './storage'

/** The environment's variables (process.env, or a plain object in tests). */
export type Env = Record<string, string | undefined>

export type StorageKind = 'local' | 'pg' | 's3'

export const STORAGE_KINDS: readonly StorageKind[] = ['local', 'pg', 's3']

const S3_REQUIRED = ['S3_ENDPOINT', 'S3_BUCKET', 'S3_ACCESS_KEY', 'S3_SECRET_KEY'] as const

/** A setting that makes the server refuse to start: the operator must fix the environment. */
export class StorageConfigError extends Error {}

export function storageKindOf(env: Env, database: Pick<Database, 'dialect'>): StorageKind {
  const chosen = env.FILE_STORAGE?.trim()
  if (chosen) {
    if (!(STORAGE_KINDS as readonly string[]).includes(chosen)) throw new StorageConfigError(`FILE_STORAGE=${chosen}: use local, pg or s3`)
    return chosen as StorageKind
  }
  if (S3_REQUIRED.every((name) => env[name])) return 's3'
  return database.dialect === 'postgres' ? 'pg' : 'local'
}

export function s3SettingsOf(env: Env): S3Settings {
  const missing = S3_REQUIRED.filter((name) => !env[name])
  if (missing.length > 0) throw new StorageConfigError(`file storage s3 needs ${missing.join(', ')} (and optionally S3_REGION, S3_FORCE_PATH_STYLE, S3_PREFIX)`)
  return {
    endpoint: env.S3_ENDPOINT!,
    bucket: env.S3_BUCKET!,
    accessKey: env.S3_ACCESS_KEY!,
    secretKey: env.S3_SECRET_KEY!,
    region: env.S3_REGION || 'us-east-1',
    forcePathStyle: ['1', 'true', 'yes'].includes((env.S3_FORCE_PATH_STYLE ?? '').toLowerCase()),
    prefix: env.S3_PREFIX || '',
  }
}

/**
 * The storage of that kind; pg needs the database to be PostgreSQL. The S3 client is loaded only
 * for s3: the AWS SDK costs about 20 MB of memory and half a second of start on a server that
 * keeps its files elsewhere.
 */
export async function openStorage(kind: StorageKind, env: Env, database: Database, dataDir: string): Promise<FileStorage> {
  if (kind === 's3') {
    const settings = s3SettingsOf(env)
    const { S3FileStorage } = await import('./storage-s3')
    return new S3FileStorage(settings)
  }
  if (kind === 'pg') {
    if (database.dialect !== 'postgres') throw new StorageConfigError('file storage pg needs DATABASE_URL (PostgreSQL)')
    return new PgFileStorage(database)
  }
  return new LocalFileStorage(join(dataDir, 'uploads'))
}

export async function storageFromEnv(env: Env, database: Database, dataDir: string): Promise<{ kind: StorageKind; storage: FileStorage }> {
  const kind = storageKindOf(env, database)
  return { kind, storage: await openStorage(kind, env, database, dataDir) }
}
