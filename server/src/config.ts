/** Server settings from the environment, with the defaults of a zero-set-up local run. */
import { join, resolve } from 'node:path'
import { SMS_RESEND_COOLDOWN_S } from '../../src/domain/constants'
import type { DatabaseOptions } from './db/connection'

export interface ServerConfig {
  port: number
  host: string
  database: DatabaseOptions
  staticDir: string
  /** DATA_DIR: the SQLite file and the uploads folder live here. */
  dataDir: string
  codeCooldownS: number
  /** SHARE_SECRET: signs share password proofs; unset, a random secret kept in the database is used. */
  shareSecret?: string
}

export function readServerConfig(env: NodeJS.ProcessEnv): ServerConfig {
  const dataDir = resolve(env.DATA_DIR || './data')
  return {
    port: Number(env.PORT || 8080),
    host: env.HOST || '127.0.0.1',
    database: env.DATABASE_URL ? { kind: 'postgres', url: env.DATABASE_URL } : { kind: 'sqlite', file: join(dataDir, 'teammap.db') },
    staticDir: resolve(env.STATIC_DIR || 'dist/h5'),
    dataDir,
    codeCooldownS: positiveInt(env.SMS_RESEND_COOLDOWN_S, SMS_RESEND_COOLDOWN_S),
    shareSecret: env.SHARE_SECRET || undefined,
  }
}

function positiveInt(value: string | undefined, fallback: number): number {
  const n = Number(value)
  return Number.isInteger(n) && n > 0 ? n : fallback
}
