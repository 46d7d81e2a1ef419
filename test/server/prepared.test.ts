/**
 * Prepared repository queries (server/src/db/prepared.ts): built and compiled once per dialect and
 * shape, they answer every call with its own values, exactly as the query built anew would, and
 * refuse a builder that computes with an argument (its value would be the first call's for ever).
 */
import { sql, type Kysely } from 'kysely'
import type { Executor } from '../../server/src/db/connection'
import { preparedQuery } from '../../server/src/db/prepared'
import { makeTestDatabase, type TestDatabase } from './helpers'

let t: TestDatabase
beforeEach(async () => {
  t = await makeTestDatabase()
  await sql`create table things (id integer primary key, name text not null, size integer, note text)`.execute(t.db.kysely)
})
afterEach(() => t.drop())

interface ThingsTables {
  things: { id: number; name: string; size: number | null; note: string | null }
}
// The test's own table, outside the app's schema.
const things = (k: Executor) => k as unknown as Kysely<ThingsTables>
const db = () => things(t.db.kysely)

describe('a prepared query', () => {
  it('answers each call with its own arguments, as the query built anew does', async () => {
    const named = preparedQuery((k, name: string, size: number) => things(k).selectFrom('things').select(['id', 'name']).where('name', '=', name).where('size', '>=', size).orderBy('id'))
    await db()
      .insertInto('things')
      .values([
        { id: 1, name: '井', size: 1 },
        { id: 2, name: '井', size: 5 },
        { id: 3, name: '站', size: 9 },
      ])
      .execute()
    expect((await named(t.db.kysely, '井', 0)).rows).toEqual([
      { id: 1, name: '井' },
      { id: 2, name: '井' },
    ])
    expect((await named(t.db.kysely, '井', 2)).rows).toEqual([{ id: 2, name: '井' }])
    expect((await named(t.db.kysely, '站', 0)).rows).toEqual([{ id: 3, name: '站' }])
    expect((await named(t.db.kysely, '塔', 0)).rows).toEqual([])
  })

  it('inserts a row by its defined keys: another set of keys is another statement, and a left-out column takes its default', async () => {
    const insert = preparedQuery((k, row: { id: number; name: string; size?: number; note: string | null }) => things(k).insertInto('things').values(row).returningAll())
    expect((await insert(t.db.kysely, { id: 1, name: '甲', size: 2, note: null })).rows).toEqual([{ id: 1, name: '甲', size: 2, note: null }])
    expect((await insert(t.db.kysely, { id: 2, name: '乙', size: undefined, note: '备注' })).rows).toEqual([{ id: 2, name: '乙', size: null, note: '备注' }])
    expect((await insert(t.db.kysely, { id: 3, name: '丙', size: 7, note: 'x' })).rows).toEqual([{ id: 3, name: '丙', size: 7, note: 'x' }])
  })

  it('keeps the constants its builder writes', async () => {
    const insert = preparedQuery((k, id: number) => things(k).insertInto('things').values({ id, name: '常', size: 3 }).returning(['id', 'name', 'size']))
    expect((await insert(t.db.kysely, 4)).rows).toEqual([{ id: 4, name: '常', size: 3 }])
    expect((await insert(t.db.kysely, 5)).rows).toEqual([{ id: 5, name: '常', size: 3 }])
  })

  it('refuses a builder that computes a value from an argument', async () => {
    const doubled = preparedQuery((k, size: number) =>
      things(k)
        .selectFrom('things')
        .selectAll()
        .where('size', '=', size * 2),
    )
    await expect(doubled(t.db.kysely, 2)).rejects.toThrow('computes a value from an argument')
  })
})
