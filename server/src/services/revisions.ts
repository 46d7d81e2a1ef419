/**
 * The revision check of a save or delete that names the rev it started from (types/sync.ts): the
 * row is read under a lock, and a stale rev is refused with CONFLICT, the current version as the
 * error's data (null when the entity has been deleted). Nothing is written: the refusal is thrown
 * inside the transaction, which rolls back.
 */
import { ErrCode } from '../../../types/api'
import type { Executor } from '../db/connection'
import { lockedRev, type RevTable } from '../db/revisions'
import { BusinessError } from '../envelope'
import { notFound } from './permissions'

export interface ConflictMessages {
  changed: string
  deleted: string
}

/**
 * Passes when `rev` is undefined (a save without a revision behaves as before) or equals the
 * stored one. `current` presents the entity as the caller would read it.
 */
export async function requireRev(trx: Executor, table: RevTable, groupId: number, id: number, rev: number | undefined, messages: ConflictMessages, current: () => Promise<unknown>): Promise<void> {
  if (rev === undefined) return
  const stored = await lockedRev(trx, table, groupId, id)
  if (!stored) throw notFound()
  // Never a resurrection: an edit of something deleted meanwhile is a conflict, not a create.
  if (stored.deleted) throw new BusinessError(ErrCode.CONFLICT, messages.deleted, null)
  if (stored.rev !== rev) throw new BusinessError(ErrCode.CONFLICT, messages.changed, await current())
}
