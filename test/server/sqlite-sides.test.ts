/**
 * SQLite's two connections (server/src/db/connection.ts): while a transaction holds the writing
 * connection, a plain read from elsewhere is answered at once from the last commit, and a write
 * from elsewhere (a statement, a batch of saves) waits for the transaction's end. A database in
 * memory has one connection only: there a read waits too. A long transaction lets the event loop
 * run between its statements.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'kysely'
import { inSaveBatch, inTransaction, openDatabase, teamVersion, type Database } from '../../server/src/db/connection'

let dir: string
let db: Database

const turn = () => new Promise((resolve) => setImmediate(resolve))
const count = async () => Number((await sql<{ n: number }>`select count(*) as n from t`.execute(db.kysely)).rows[0].n)

/** A transaction that has written one row and then waits, open, until `end` is called; given `failure`, it then throws it (rolled back). */
async function openTransaction(failure?: Error): Promise<{ end: () => void; done: Promise<void> }> {
  let end!: () => void
  const held = new Promise<void>((resolve) => (end = resolve))
  let begun!: () => void
  const started = new Promise<void>((resolve) => (begun = resolve))
  const done = inTransaction(db, async (trx) => {
    await sql`insert into t (x) values (1)`.execute(trx)
    begun()
    await held
    if (failure) throw failure
  })
  await started
  return { end, done }
}

async function open(file: string): Promise<void> {
  db = openDatabase({ kind: 'sqlite', file })
  await sql`create table t (x integer)`.execute(db.kysely)
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sqlite-sides-'))
})

afterEach(async () => {
  await db.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('a database file while a transaction is open', () => {
  beforeEach(() => open(join(dir, 'sides.db')))

  it('answers a plain read at once, as of the last commit, and the transaction’s rows once it commits', async () => {
    const tx = await openTransaction()
    expect(await count()).toBe(0)
    tx.end()
    await tx.done
    expect(await count()).toBe(1)
  })

  it('makes a write from elsewhere wait for the transaction’s end, then writes it', async () => {
    const tx = await openTransaction()
    let wrote = false
    const write = sql`insert into t (x) values (2)`.execute(db.kysely).then(() => (wrote = true))
    for (let i = 0; i < 5; i++) await turn()
    expect(wrote).toBe(false)
    tx.end()
    await tx.done
    await write
    expect(await count()).toBe(2)
  })

  it('runs a batch of saves after the transaction, not inside it, and a rollback leaves only the batch', async () => {
    const tx = await openTransaction(new Error('given up'))
    const saved = inSaveBatch(db, async (trx) => Number((await sql`insert into t (x) values (3)`.execute(trx)).numAffectedRows))
    for (let i = 0; i < 5; i++) await turn()
    tx.end()
    await expect(tx.done).rejects.toThrow('given up')
    expect(await saved).toBe(1)
    const rows = await sql<{ x: number }>`select x from t`.execute(db.kysely)
    expect(rows.rows.map((r) => r.x)).toEqual([3])
  })

  it('counts a change of standing once more at the commit, so a standing read meanwhile from the last commit is read again', async () => {
    await sql`create table standing (x integer)`.execute(db.kysely)
    const before = teamVersion(db.kysely)!
    let during = 0
    await inTransaction(db, async (trx) => {
      await sql`insert into standing (x) values (1)`.execute(trx)
      during = teamVersion(db.kysely)!
    })
    expect(during).toBeGreaterThan(before)
    expect(teamVersion(db.kysely)).toBeGreaterThan(during)
  })

  it('gives the event loop turns during a long transaction', async () => {
    let ticks = 0
    let ticking = true
    const tick = () => {
      if (!ticking) return
      ticks++
      setImmediate(tick)
    }
    setImmediate(tick)
    let during = 0
    await inTransaction(db, async (trx) => {
      const start = ticks
      // Statements for well over a slice of the transaction's time.
      const until = performance.now() + 200
      while (performance.now() < until) await sql`insert into t (x) values (1)`.execute(trx)
      during = ticks - start
    })
    ticking = false
    expect(during).toBeGreaterThan(0)
  })
})

describe('a database in memory while a transaction is open', () => {
  beforeEach(() => open(':memory:'))

  it('makes a read wait for the transaction’s end: there is no second connection to read from', async () => {
    const tx = await openTransaction()
    let read: number | undefined
    const reading = count().then((n) => (read = n))
    for (let i = 0; i < 5; i++) await turn()
    expect(read).toBeUndefined()
    tx.end()
    await tx.done
    await reading
    expect(read).toBe(1)
  })
})
