/** Opens the database: embedded SQLite by default, PostgreSQL when a connection URL is given. */
import SqliteDatabase from 'better-sqlite3'
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import {
  CompiledQuery,
  Kysely,
  PostgresDialect,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
  type TransactionSettings,
} from 'kysely'
import { Pool } from 'pg'
import type { Tables } from './schema'

export type DialectName = 'sqlite' | 'postgres'

/** Anything that runs queries: the database itself or a transaction. */
export type Executor = Kysely<Tables>

export interface Database {
  kysely: Kysely<Tables>
  dialect: DialectName
  /** PostgreSQL's pool (live sync takes one connection from it to LISTEN). */
  pgPool?: Pool
  /** The SQLite connection under kysely (its saves' group commit: inSaveBatch). */
  sqlite?: SqliteDatabase.Database
  /** The PostgreSQL schema this connection works in, when not the default (tests isolate themselves in one). */
  schema?: string
  close(): Promise<void>
}

export type DatabaseOptions = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string; schema?: string; maxConnections?: number }

export function openDatabase(options: DatabaseOptions): Database {
  const pgPool = options.kind === 'postgres' ? postgresPool(options) : undefined
  const version = { value: 0 }
  const file = (options as { file: string }).file
  const sqlite = pgPool ? undefined : openSqlite(file, version)
  let kysely: Kysely<Tables>
  if (pgPool) kysely = new Kysely<Tables>({ dialect: new PostgresDialect({ pool: pgPool }) })
  else {
    // A database in memory is this connection's alone: no second connection can read it.
    const sides: SqliteSides = { writer: sqlite!, reader: file === ':memory:' ? undefined : openSqliteReader(file), lock: new WriterLock(), version }
    kysely = new Kysely<Tables>({
      dialect: {
        createAdapter: () => new SqliteAdapter(),
        createDriver: () => new SqliteSidesDriver(sides),
        createIntrospector: (db) => new SqliteIntrospector(db),
        createQueryCompiler: () => new SqliteQueryCompiler(),
      },
    })
    teamVersions.set(kysely, version)
    sqliteUnder.set(kysely, sides)
  }
  let closing: Promise<void> | undefined
  // Idempotent: shutdown paths may race (signal during a failed start, tests closing twice).
  const schema = options.kind === 'postgres' ? options.schema : undefined
  return { kysely, dialect: options.kind, schema, pgPool, sqlite, close: () => (closing ??= kysely.destroy()) }
}

/**
 * SQLite's two connections under kysely: the one that writes, held whole by a transaction (or a
 * batch of saves) from its begin to its end, and one that only reads, in WAL mode beside it.
 */
interface SqliteSides {
  writer: SqliteDatabase.Database
  /** None for a database in memory. */
  reader: SqliteDatabase.Database | undefined
  lock: WriterLock
  version: { value: number }
}

const sqliteUnder = new WeakMap<Executor, SqliteSides>()

/** Who holds the writing connection (a transaction, a batch of saves, one write): one at a time, the others wait in turn. */
class WriterLock {
  private turn: Promise<void> | undefined
  private free: (() => void) | undefined

  get held(): boolean {
    return this.turn !== undefined
  }

  async lock(): Promise<void> {
    while (this.turn) await this.turn
    this.turn = new Promise((resolve) => (this.free = resolve))
  }

  unlock(): void {
    const free = this.free
    this.turn = undefined
    this.free = undefined
    free?.()
  }
}

/** A plain read: it may run on the reading connection (a `with` or a read inside a write goes to the writer). */
const PLAIN_READ = /^\s*select\b/i

/**
 * Runs `read` on the reading connection while something holds the writing one, else on the writing
 * one (waiting for nothing: a read outside a transaction needs no turn of its own when the writer is free).
 * What the reading connection sees is the last commit: a transaction still open is not seen.
 */
function onReadingSide<T>(sides: SqliteSides, read: (handle: SqliteDatabase.Database) => T): T {
  return read(sides.lock.held && sides.reader ? sides.reader : sides.writer)
}

/**
 * Kysely's SQLite driver with the two connections: a transaction takes the writing connection for
 * its whole course, as in kysely's own driver, while a plain read from elsewhere meanwhile goes to
 * the reading one instead of waiting for the transaction's end. And a transaction gives the event
 * loop a turn between its statements every TRANSACTION_SLICE_MS: a large import (10,000 markers and
 * their change log) was half a second of statements in one go, during which no other call of any
 * member was answered, nor a WebSocket's ping.
 */
class SqliteSidesDriver implements Driver {
  constructor(private readonly sides: SqliteSides) {}

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    return new SidesConnection(this.sides)
  }

  async beginTransaction(connection: DatabaseConnection, _settings: TransactionSettings): Promise<void> {
    await (connection as SidesConnection).hold()
    await connection.executeQuery(CompiledQuery.raw('begin'))
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'))
    ;(connection as SidesConnection).letGo(true)
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    try {
      await connection.executeQuery(CompiledQuery.raw('rollback'))
    } finally {
      ;(connection as SidesConnection).letGo(false)
    }
  }

  async savepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`savepoint ${JSON.stringify(name)}`))
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`rollback to ${JSON.stringify(name)}`))
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`release ${JSON.stringify(name)}`))
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    ;(connection as SidesConnection).letGo(false)
  }

  async destroy(): Promise<void> {
    this.sides.reader?.close()
    this.sides.writer.close()
  }
}

/** How long a transaction runs its statements before the event loop gets a turn. */
const TRANSACTION_SLICE_MS = 15

class SidesConnection implements DatabaseConnection {
  private holding = false
  private sliceStart = 0
  private versionAtBegin = 0

  constructor(private readonly sides: SqliteSides) {}

  async hold(): Promise<void> {
    if (this.holding) return
    await this.sides.lock.lock()
    this.holding = true
    this.sliceStart = performance.now()
    this.versionAtBegin = this.sides.version.value
  }

  letGo(committed: boolean): void {
    if (!this.holding) return
    this.holding = false
    // A standing read on the reading side while this transaction changed it, and kept as of the counter's
    // new value, was read before the commit: counted once more at the end, it is read again.
    if (committed && this.sides.version.value !== this.versionAtBegin) this.sides.version.value++
    this.sides.lock.unlock()
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (this.holding) {
      if (performance.now() - this.sliceStart > TRANSACTION_SLICE_MS) {
        await new Promise((turn) => setImmediate(turn))
        this.sliceStart = performance.now()
      }
      return run<R>(this.sides.writer, query)
    }
    if (PLAIN_READ.test(query.sql) && (this.sides.reader || !this.sides.lock.held)) return onReadingSide(this.sides, (handle) => run<R>(handle, query))
    await this.sides.lock.lock()
    try {
      return run<R>(this.sides.writer, query)
    } finally {
      this.sides.lock.unlock()
    }
  }

  // eslint-disable-next-line require-yield -- kysely's SQLite driver streams selects only; nothing here streams
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming is not supported on SQLite here')
  }
}

/** One statement, as kysely's SQLite connection runs it. */
function run<R>(handle: SqliteDatabase.Database, query: Pick<CompiledQuery, 'sql' | 'parameters'>): QueryResult<R> {
  const statement = handle.prepare(query.sql)
  if (statement.reader) return { rows: statement.all(query.parameters) as R[] }
  const { changes, lastInsertRowid } = statement.run(query.parameters)
  return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] }
}

/**
 * A query's rows as arrays of its columns' values, in the select's order, when `db` is a SQLite
 * database itself (not a transaction's executor); undefined otherwise (the caller runs the query
 * through kysely). better-sqlite3 makes a row's object property by property, which for a page of
 * 5000 markers costs more than the query's own work: arrays, made into objects of one fixed shape
 * by the caller, take about two thirds of the time. Read on the reading connection while a
 * transaction holds the writing one, so that it never reads inside a transaction kysely has open.
 */
export async function sqliteRowArrays(db: Executor, query: { compile(): { sql: string; parameters: readonly unknown[] } }): Promise<unknown[][] | undefined> {
  const sides = sqliteUnder.get(db)
  if (!sides) return undefined
  const { sql, parameters } = query.compile()
  // Its own SQL text, so that the statement cache keeps it apart from kysely's (raw mode stays set on a statement).
  return onReadingSide(
    sides,
    (handle) =>
      handle
        .prepare(`${sql} /* rows as arrays */`)
        .raw(true)
        .all(...parameters) as unknown[][],
  )
}

interface QueuedWork {
  work: (trx: Executor) => Promise<unknown>
  resolve: (value: unknown) => void
  reject: (err: unknown) => void
}

// The works waiting for the next shared transaction, per SQLite connection.
const queuedWork = new WeakMap<SqliteDatabase.Database, QueuedWork[]>()

/**
 * Runs `work` in one transaction, as inTransaction does (hooks added with afterCommit run once it
 * has committed). On SQLite the work joins a group commit: one immediate transaction shared with
 * the other works queued meanwhile (one commit for many saves), each under its own savepoint, so a
 * work that throws leaves nothing and its caller gets the error while the others go on; the others'
 * results are answered once the commit has succeeded. The works' executor runs each statement at
 * once on the writing connection, which the batch holds from its begin to its commit: no turn is
 * taken per statement, so a batch of saves runs in one go of the event loop and holds the write
 * lock only while its own statements run. A work should only query: what it awaits besides its
 * statements holds every other writer.
 */
export function inSaveBatch<T>(db: Database, work: (trx: Executor) => Promise<T>): Promise<T> {
  const sqlite = db.sqlite
  if (!sqlite) return inTransaction(db, work)
  return new Promise<T>((resolve, reject) => {
    let queue = queuedWork.get(sqlite)
    if (!queue) {
      queuedWork.set(sqlite, (queue = []))
      // After the current turn of the event loop, so that the saves of requests read together share the commit.
      setImmediate(() => void runQueued(db, sqlite))
    }
    queue.push({ work, resolve: resolve as (value: unknown) => void, reject })
  })
}

async function runQueued(db: Database, sqlite: SqliteDatabase.Database): Promise<void> {
  let batch: QueuedWork[] = []
  const lock = sqliteUnder.get(db.kysely)!.lock
  try {
    await lock.lock()
    try {
      batch = queuedWork.get(sqlite) ?? []
      queuedWork.delete(sqlite)
      const done = await runBatch(sqlite, batch)
      for (const outcome of done) if (!outcome.ok) outcome.entry.reject(outcome.error)
      for (const outcome of done) {
        if (!outcome.ok) continue
        for (const hook of outcome.hooks) hook(db)
        outcome.entry.resolve(outcome.value)
      }
    } finally {
      lock.unlock()
    }
  } catch (err) {
    for (const entry of batch) entry.reject(err)
  }
}

type Outcome = { entry: QueuedWork; ok: true; value: unknown; hooks: CommitHook[] } | { entry: QueuedWork; ok: false; error: unknown }

/** The batch in one transaction, each work under its own savepoint; throws (everything rolled back) when the transaction itself fails. */
async function runBatch(sqlite: SqliteDatabase.Database, batch: QueuedWork[]): Promise<Outcome[]> {
  const outcomes: Outcome[] = []
  const executor = batchExecutor(sqlite)
  sqlite.prepare('begin immediate').run()
  try {
    for (const entry of batch) {
      sqlite.prepare('savepoint work').run()
      // The works run one after another: while one runs, the executor's commit hooks are its own.
      const hooks: CommitHook[] = []
      commitHooks.set(executor, hooks)
      try {
        outcomes.push({ entry, ok: true, value: await entry.work(executor), hooks })
      } catch (error) {
        sqlite.prepare('rollback to work').run()
        outcomes.push({ entry, ok: false, error })
      }
      sqlite.prepare('release work').run()
    }
    sqlite.prepare('commit').run()
  } catch (err) {
    if (sqlite.inTransaction) sqlite.prepare('rollback').run()
    throw err
  } finally {
    commitHooks.delete(executor)
  }
  return outcomes
}

const batchExecutors = new WeakMap<SqliteDatabase.Database, Executor>()
// The writing connection under each executor a batch gives its works.
const batchHandles = new WeakMap<Executor, SqliteDatabase.Database>()

/**
 * How a compiled statement runs at once when `db` is a work's executor in a batch of saves
 * (inSaveBatch): straight on the writing connection the batch holds, with none of kysely's turns
 * around it. Undefined for any other executor (the statement then goes through kysely).
 */
export function immediateRunner(db: Executor): (<R>(sql: string, parameters: readonly unknown[]) => QueryResult<R>) | undefined {
  const handle = batchHandles.get(db)
  return handle && (<R>(sql: string, parameters: readonly unknown[]) => run<R>(handle, { sql, parameters }))
}

/** The executor of a batch's works: kysely over the writing connection as the batch holds it (no lock, no transaction of its own). */
function batchExecutor(sqlite: SqliteDatabase.Database): Executor {
  let executor = batchExecutors.get(sqlite)
  if (!executor) {
    const connection: DatabaseConnection = {
      executeQuery: async <R>(query: CompiledQuery) => run<R>(sqlite, query),
      // eslint-disable-next-line require-yield -- as SidesConnection's
      streamQuery: async function* <R>(): AsyncIterableIterator<QueryResult<R>> {
        throw new Error('streaming is not supported on SQLite here')
      },
    }
    const driver: Driver = {
      init: async () => undefined,
      acquireConnection: async () => connection,
      beginTransaction: async () => {
        throw new Error('a save batch is a transaction already')
      },
      commitTransaction: async () => undefined,
      rollbackTransaction: async () => undefined,
      releaseConnection: async () => undefined,
      destroy: async () => undefined,
    }
    executor = new Kysely<Tables>({
      dialect: {
        createAdapter: () => new SqliteAdapter(),
        createDriver: () => driver,
        createIntrospector: (k) => new SqliteIntrospector(k),
        createQueryCompiler: () => new SqliteQueryCompiler(),
      },
    })
    batchExecutors.set(sqlite, executor)
    batchHandles.set(executor, sqlite)
  }
  return executor
}

/**
 * What a caller's standing is made of changes rarely (sessions, users, groups, memberships,
 * departments, roles, grants) while markers are saved all the time. On SQLite this process is the
 * only writer, so a counter in memory, bumped by every statement that may write anything but the
 * tables of map data listed below, says when a standing loaded before may have changed. A
 * rolled-back write bumps it too, which only costs a reload. PostgreSQL may have other writers: no
 * counter there.
 */
const teamVersions = new WeakMap<Executor, { value: number }>()

/** The counter of changes to callers' standing, or undefined when it cannot be known in this process (PostgreSQL, or a transaction's executor). */
export function teamVersion(db: Executor): number | undefined {
  return teamVersions.get(db)?.value
}

const READ_OR_TRANSACTION = /^\s*(select|begin|commit|rollback|savepoint|release|pragma)\b/i
// Writes to these tables never change a caller's standing; any other write (including a layer's delete) bumps the counter.
const MAP_DATA_WRITE =
  /^\s*(?:(?:insert|replace)(?:\s+or\s+\w+)?\s+into|update|delete\s+from)\s+"?(?:markers|markers_rtree|oplog|sync_seqs|sync_changes|notes|layer_fields|deleted_field_values|rate_hits)"?[\s(]/i
const LAYER_UPDATE = /^\s*update\s+"?layers"?\s/i

function changesStanding(source: string): boolean {
  return !READ_OR_TRANSACTION.test(source) && !MAP_DATA_WRITE.test(source) && !LAYER_UPDATE.test(source)
}

function openSqlite(file: string, version: { value: number }): SqliteDatabase.Database {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true })
  const database = new SqliteDatabase(file)
  database.pragma('journal_mode = WAL')
  // In WAL mode NORMAL syncs at checkpoints, not at every commit: a commit survives a crash of the process, and only a power cut may lose the last ones.
  database.pragma('synchronous = NORMAL')
  database.pragma('foreign_keys = ON')
  database.pragma('busy_timeout = 5000')
  cacheStatements(database, version)
  return database
}

/** The reading connection beside the writing one: read-only, its statements cached as the writer's (no write ever counts). */
function openSqliteReader(file: string): SqliteDatabase.Database {
  const database = new SqliteDatabase(file, { readonly: true })
  database.pragma('busy_timeout = 5000')
  cacheStatements(database, { value: 0 })
  return database
}

const STATEMENT_CACHE_SIZE = 500

/**
 * Kysely's SQLite driver prepares every query anew, and preparing costs more than running the small
 * queries of a save; the same SQL text gets the statement prepared before (better-sqlite3 prepares it
 * again itself when the schema changed). Kysely runs one query at a time on the connection, so a
 * statement is never in use twice at once. Bounded: the oldest SQL text leaves first.
 */
function cacheStatements(database: SqliteDatabase.Database, version: { value: number }): void {
  const prepare = database.prepare.bind(database)
  const exec = database.exec.bind(database)
  database.exec = ((source: string) => {
    version.value++
    return exec(source)
  }) as typeof database.exec
  const cache = new Map<string, SqliteDatabase.Statement>()
  database.prepare = ((source: string) => {
    let statement = cache.get(source)
    if (!statement) {
      // Every transaction takes the write lock when it begins: one that starts reading and writes later could find another writer in between (SQLITE_BUSY at once, busy_timeout does not apply to the upgrade).
      statement = prepare(/^begin$/i.test(source.trim()) ? 'begin immediate' : source)
      if (changesStanding(source)) bumpOnRun(statement, version)
      if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!)
      cache.set(source, statement)
    }
    return statement
  }) as typeof database.prepare
}

function bumpOnRun(statement: SqliteDatabase.Statement, version: { value: number }): void {
  for (const method of ['run', 'all', 'get', 'iterate'] as const) {
    const original = statement[method].bind(statement) as (...args: unknown[]) => unknown
    ;(statement as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
      version.value++
      return original(...args)
    }
  }
}

function postgresPool(options: { url: string; schema?: string; maxConnections?: number }): Pool {
  return new Pool({
    connectionString: options.url,
    max: options.maxConnections ?? 10,
    // Tests isolate themselves in a throwaway schema.
    ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
  })
}

type CommitHook = (db: Database) => void

const commitHooks = new WeakMap<Executor, CommitHook[]>()

/** Runs `work` in one transaction; a thrown error rolls everything back. Hooks added with afterCommit run once it has committed. */
export async function inTransaction<T>(db: Database, work: (trx: Executor) => Promise<T>): Promise<T> {
  const hooks: CommitHook[] = []
  const result = await db.kysely.transaction().execute((trx) => {
    commitHooks.set(trx, hooks)
    return work(trx)
  })
  for (const hook of hooks) hook(db)
  return result
}

/**
 * Runs `hook` after the transaction `trx` commits (nothing when it rolls back): what others may
 * only learn about once they can read it (live sync's push). `trx` must come from inTransaction.
 */
export function afterCommit(trx: Executor, hook: CommitHook): void {
  const hooks = commitHooks.get(trx)
  if (!hooks) throw new Error('afterCommit needs a transaction from inTransaction')
  hooks.push(hook)
}

/** A write refused by a unique index or constraint (SQLite or PostgreSQL): a concurrent twin got there first. */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === '23505'
}
