/** Repository of the rate_hits table: counted calls per bucket within a rate-limit window. */
import type { Generated } from 'kysely'
import type { Executor } from './connection'

export interface RateHitsTable {
  id: Generated<number>
  bucket: string
  at: string
}

declare module './schema' {
  interface Tables {
    rate_hits: RateHitsTable
  }
}

export async function insertHit(db: Executor, bucket: string, at: string): Promise<number> {
  const row = await db.insertInto('rate_hits').values({ bucket, at }).returning('id').executeTakeFirstOrThrow()
  return row.id
}

export async function deleteHit(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('rate_hits').where('id', '=', id).execute()
}

/** Hits in the bucket after `since` (ISO). */
export async function countHits(db: Executor, bucket: string, since: string): Promise<number> {
  const row = await db
    .selectFrom('rate_hits')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('bucket', '=', bucket)
    .where('at', '>', since)
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

/** Drops hits at or before `before` (ISO) in every bucket: they no longer count anywhere. */
export async function deleteHitsBefore(db: Executor, before: string): Promise<void> {
  await db.deleteFrom('rate_hits').where('at', '<=', before).execute()
}
