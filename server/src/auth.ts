/**
 * Sessions: opaque random tokens (not JWT), stored as sha256 hashes, revocable (DESIGN 9). The
 * token travels in the body's `header` object beside header.userid, which must name its user.
 */
import { createHash, randomBytes } from 'node:crypto'
import type { Database, Executor } from './db/connection'
import { findLiveSession, insertSession, revokeSession, touchSession } from './db/sessions'
import { StandingCache } from './db/standing-cache'
import type { SessionRow } from './db/schema'
import { UnauthorizedError } from './envelope'

export interface Caller {
  userId: number
  sessionId: number
  token: string
}

// Writing last_seen_at on every call would make every read a write.
const TOUCH_INTERVAL_MS = 5 * 60_000

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex')
}

/** Creates a session for the user and returns its token (shown once, never stored). */
export async function startSession(db: Executor, userId: number, now: Date, device?: { device: string; os: string }): Promise<string> {
  const token = randomBytes(32).toString('base64url')
  await insertSession(db, { token_hash: hashToken(token), user_id: userId, now: now.toISOString(), device: device?.device, os: device?.os })
  return token
}

/** A token unused this long no longer works: a lost phone's session ends by itself. */
export const SESSION_IDLE_MS = 30 * 24 * 3600_000

/** The last use a session must have had after to still work at `now` (ISO). */
export function sessionActiveSince(now: Date): string {
  return new Date(now.getTime() - SESSION_IDLE_MS).toISOString()
}

// A revoked session is a write to sessions, which drops what was kept (db/standing-cache.ts).
const liveSessions = new StandingCache<string, SessionRow | undefined>()

/** The caller named by the body's header, or UnauthorizedError (HTTP 401). */
export async function authenticate(db: Database, header: unknown, now: Date): Promise<Caller> {
  const { token, userid } = (header && typeof header === 'object' ? header : {}) as { token?: unknown; userid?: unknown }
  if (typeof token !== 'string' || token === '') throw new UnauthorizedError()
  const tokenHash = hashToken(token)
  const session = await liveSessions.get(db.kysely, tokenHash, () => findLiveSession(db.kysely, tokenHash))
  if (!session || String(userid) !== String(session.user_id)) throw new UnauthorizedError()
  // Unused for SESSION_IDLE_MS: revoked, so that it stays ended (and leaves the devices list).
  if (session.last_seen_at <= sessionActiveSince(now)) {
    await revokeSession(db.kysely, session.id, now.toISOString())
    throw new UnauthorizedError()
  }
  if (now.getTime() - Date.parse(session.last_seen_at) >= TOUCH_INTERVAL_MS) {
    await touchSession(db.kysely, session.id, now.toISOString())
  }
  return { userId: session.user_id, sessionId: session.id, token }
}
