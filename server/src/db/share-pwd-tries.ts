/** Repository of the share_pwd_tries table: password tries on shares within the rate-limit window. */
import type { Generated, Selectable } from 'kysely'
import type { Executor } from './connection'

export interface SharePwdTriesTable {
  seq: Generated<number>
  share_id: string
  /** sha256 of the client's address. */
  client: string
  at: string
}

declare module './schema' {
  interface Tables {
    share_pwd_tries: SharePwdTriesTable
  }
}

export type SharePwdTryRow = Selectable<SharePwdTriesTable>

/** Records a try and returns its row id (a try that turns out right or refused is removed again). */
export async function insertTry(db: Executor, shareId: string, client: string, at: string): Promise<number> {
  const row = await db.insertInto('share_pwd_tries').values({ share_id: shareId, client, at }).returning('seq').executeTakeFirstOrThrow()
  return row.seq
}

export async function deleteTry(db: Executor, seq: number): Promise<void> {
  await db.deleteFrom('share_pwd_tries').where('seq', '=', seq).execute()
}

/** The client's tries on the share since `since` (ISO) other than `seq`: how many, and when the latest was. */
export async function triesOfClientBefore(db: Executor, shareId: string, client: string, seq: number, since: string): Promise<{ count: number; last: string | null }> {
  const row = await db
    .selectFrom('share_pwd_tries')
    .select((eb) => [eb.fn.countAll().as('n'), eb.fn.max('at').as('last')])
    .where('share_id', '=', shareId)
    .where('client', '=', client)
    .where('seq', '!=', seq)
    .where('at', '>', since)
    .executeTakeFirstOrThrow()
  return { count: Number(row.n), last: (row.last as string | null) ?? null }
}

/** Drops tries older than `before` (ISO): they no longer count. */
export async function deleteTriesBefore(db: Executor, before: string): Promise<void> {
  await db.deleteFrom('share_pwd_tries').where('at', '<=', before).execute()
}

export async function deleteTriesOfShares(db: Executor, shareIds: string[]): Promise<void> {
  if (shareIds.length === 0) return
  await db.deleteFrom('share_pwd_tries').where('share_id', 'in', shareIds).execute()
}
