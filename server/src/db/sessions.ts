/** Repository of the sessions table. Only token hashes are stored. */
import type { Executor } from './connection'
import type { SessionRow } from './schema'

export async function insertSession(db: Executor, session: { token_hash: string; user_id: number; now: string }): Promise<void> {
  await db.insertInto('sessions').values({ token_hash: session.token_hash, user_id: session.user_id, created_at: session.now, last_seen_at: session.now, revoked_at: null }).execute()
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
