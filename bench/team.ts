/** What the benches that play a team against a loopback server share: its members, their calls and the figures' arithmetic. */
import { startSession } from '../server/src/auth'
import type { Database } from '../server/src/db/connection'
import { insertOwnedGroup } from '../server/src/db/groups'
import { addJoin } from '../server/src/db/joins'
import { findOrCreateUserByPhone, selectGroupForUser } from '../server/src/db/users'

export interface Header {
  userid: number
  token: string
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]
}

export const round = (n: number, digits = 1) => Number(n.toFixed(digits))

export async function post(base: string, url: string, body: object): Promise<any> {
  const res = await fetch(base + url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  return res.json()
}

/** A VIP group of `count` managers (phones `<prefix>00000000`, ...), each signed in with the group selected: their headers, the owner's first. */
export async function teamMembers(db: Database, count: number, phonePrefix: string): Promise<Header[]> {
  const now = new Date().toISOString()
  const headers: Header[] = []
  let groupId = 0
  for (let i = 0; i < count; i++) {
    const user = await findOrCreateUserByPhone(db.kysely, `${phonePrefix}${String(i).padStart(8, '0')}`, 'bench', now)
    if (i === 0)
      groupId = (await insertOwnedGroup(db.kysely, { name: 'bench', owner_id: user.id, level: 4, vip_exp: null, marker_limit: 100_000, join_limit: 100, file_size_limit: 2097152, created_at: now })).id
    await addJoin(db.kysely, { group_id: groupId, user_id: user.id, is_manager: true, created_at: now })
    await selectGroupForUser(db.kysely, user.id, groupId, now)
    headers.push({ userid: user.id, token: await startSession(db.kysely, user.id, new Date()) })
  }
  return headers
}
