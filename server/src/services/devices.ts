/**
 * The user's signed-in devices (their live sessions: neither revoked nor unused for
 * SESSION_IDLE_MS) and signing all but this one out. A revoked session's sockets close at the
 * sync hub's next audit (services/sync-hub.ts), within seconds.
 */
import type { SignedInDevice } from '../../../types/invitations'
import { sessionActiveSince, type Caller } from '../auth'
import type { Executor } from '../db/connection'
import { liveSessionsOfUser, revokeOtherSessions } from '../db/sessions'

export async function sessionsOfCaller(db: Executor, caller: Caller, now: Date): Promise<{ list: SignedInDevice[] }> {
  const rows = await liveSessionsOfUser(db, caller.userId, sessionActiveSince(now))
  const list = rows.map((r) => ({ id: r.id, device: r.device, os: r.os, created_at: r.created_at, last_seen_at: r.last_seen_at, current: r.id === caller.sessionId }))
  // This device first: it is the one the list is read on.
  return { list: [...list.filter((d) => d.current), ...list.filter((d) => !d.current)] }
}

export async function revokeOtherDevices(db: Executor, caller: Caller, now: Date): Promise<{ revoked: number }> {
  return { revoked: await revokeOtherSessions(db, caller.userId, caller.sessionId, now.toISOString()) }
}
