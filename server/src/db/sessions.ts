/** Repository of the sessions table. Only token hashes are stored. */
import type { Executor } from './connection'
import type { SessionRow } from './schema'

export async function insertSession(db: Executor, session: { token_hash: string; user_id: number; now: string; device?: string; os?: string }): Promise<void> {
  await db
    .insertInto('sessions')
    .values({ token_hash: session.token_hash, user_id: session.user_id, created_at: session.now, last_seen_at: session.now, revoked_at: null, device: session.device ?? '', os: session.os ?? '' })
    .execute()
}

/** The user's sessions neither revoked nor idle since `activeSince` (ISO), most recently used first. */
export function liveSessionsOfUser(db: Executor, userId: number, activeSince: string): Promise<SessionRow[]> {
  return db
    .selectFrom('sessions')
    .selectAll()
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('last_seen_at', '>', activeSince)
    .orderBy('last_seen_at', 'desc')
    .orderBy('id', 'desc')
    .execute()
}

/** Revokes every other live session of the user; returns how many. */
export async function revokeOtherSessions(db: Executor, userId: number, keepId: number, now: string): Promise<number> {
  const result = await db.updateTable('sessions').set({ revoked_at: now }).where('user_id', '=', userId).where('id', '!=', keepId).where('revoked_at', 'is', null).executeTakeFirst()
  return Number(result.numUpdatedRows)
}

/** Ids per query: well under SQLite's and PostgreSQL's bound on parameters, whatever the number of sockets. */
const IDS_PER_QUERY = 500

/** Of these session ids, those still live (not revoked, used since `activeSince`): a few queries for every socket a server holds. */
export async function liveSessionIdsAmong(db: Executor, ids: readonly number[], activeSince: string): Promise<Set<number>> {
  const live = new Set<number>()
  for (let i = 0; i < ids.length; i += IDS_PER_QUERY) {
    const rows = await db
      .selectFrom('sessions')
      .select('id')
      .where('id', 'in', ids.slice(i, i + IDS_PER_QUERY))
      .where('revoked_at', 'is', null)
      .where('last_seen_at', '>', activeSince)
      .execute()
    for (const r of rows) live.add(r.id)
  }
  return live
}

export function findLiveSession(db: Executor, tokenHash: string): Promise<SessionRow | undefined> {
  return db.selectFrom('sessions').selectAll().where('token_hash', '=', tokenHash).where('revoked_at', 'is', null).executeTakeFirst()
}

export async function touchSession(db: Executor, id: number, now: string): Promise<void> {
  await db.updateTable('sessions').set({ last_seen_at: now }).where('id', '=', id).execute()
}

export async function revokeSession(db: Executor, id: number, now: string): Promise<void> {
  await db.updateTable('sessions').set({ revoked_at: now }).where('id', '=', id).where('revoked_at', 'is', null).execute()
}

export async function deleteSessionsOfUser(db: Executor, userId: number): Promise<void> {
  await db.deleteFrom('sessions').where('user_id', '=', userId).execute()
}
