/** Opens the database: embedded SQLite by default, PostgreSQL when a connection URL is given. */
import SqliteDatabase from 'better-sqlite3'
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely'
import { Pool } from 'pg'
import type { Tables } from './schema'

export type DialectName = 'sqlite' | 'postgres'

/** Anything that runs queries: the database itself or a transaction. */
export type Executor = Kysely<Tables>

export interface Database {
  kysely: Kysely<Tables>
  dialect: DialectName
  /** The PostgreSQL schema this connection works in, when not the default (tests isolate themselves in one). */
  schema?: string
  close(): Promise<void>
}

export type DatabaseOptions =
  | { kind: 'sqlite'; file: string }
  | { kind: 'postgres'; url: string; schema?: string; maxConnections?: number }

export function openDatabase(options: DatabaseOptions): Database {
  const kysely = options.kind === 'sqlite' ? new Kysely<Tables>({ dialect: sqliteDialect(options.file) }) : new Kysely<Tables>({ dialect: postgresDialect(options) })
  let closing: Promise<void> | undefined
  // Idempotent: shutdown paths may race (signal during a failed start, tests closing twice).
  const schema = options.kind === 'postgres' ? options.schema : undefined
  return { kysely, dialect: options.kind, schema, close: () => (closing ??= kysely.destroy()) }
}

function sqliteDialect(file: string): SqliteDialect {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true })
  const database = new SqliteDatabase(file)
  database.pragma('journal_mode = WAL')
  database.pragma('foreign_keys = ON')
  database.pragma('busy_timeout = 5000')
  return new SqliteDialect({ database })
}

function postgresDialect(options: { url: string; schema?: string; maxConnections?: number }): PostgresDialect {
  const pool = new Pool({
    connectionString: options.url,
    max: options.maxConnections ?? 10,
    // Tests isolate themselves in a throwaway schema.
    ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
  })
  return new PostgresDialect({ pool })
}

/** Runs `work` in one transaction; a thrown error rolls everything back. */
export function inTransaction<T>(db: Database, work: (trx: Executor) => Promise<T>): Promise<T> {
  return db.kysely.transaction().execute(work)
}
