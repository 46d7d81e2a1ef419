/**
 * Idempotent creates by the id the phone gives them (src/domain/clientId.ts). A phone replaying its
 * outbox, or retrying after an answer lost on a weak network, sends the same create again: the
 * first one creates, every repeat answers what the first one created (as it is now) and writes
 * nothing, so no second change-log or oplog entry and nothing counted twice against a limit.
 *
 * Decisions:
 * - The id is scoped to the group and the creating member (the unique indexes of migration 0019):
 *   another member, or the same member in another group, sending the same id makes their own
 *   entity and never learns of or touches someone else's.
 * - A repeat is matched by the id alone, whatever else it carries (another layer, another name):
 *   the first create may have been moved or edited by a teammate since, so a differing payload is
 *   no proof of a different thing, and a second entity under the same id is what idempotency must
 *   rule out. The phone mints a new id for every create, so it sees the answer's current state and
 *   sends its own later edits as edits with the answer's rev.
 * - A repeat of a create whose entity has been deleted since is refused with CONFLICT and no data,
 *   as a stale save of a deleted entity is (services/revisions.ts): never a resurrection.
 * - Two twins at once: the loser's insert breaks the unique index; its transaction rolls back and
 *   the call answers the winner's row, read once the winner has committed.
 */
import { isUniqueViolation } from '../db/connection'

/**
 * Runs `create` (a transaction that answers the earlier entity itself when it finds one); when a
 * concurrent twin won the unique index, answers what `winner()` finds (the refusal if nothing).
 */
export async function createOnce<T>(create: () => Promise<T>, winner: () => Promise<T | undefined>): Promise<T> {
  try {
    return await create()
  } catch (err) {
    if (!isUniqueViolation(err)) throw err
    const won = await winner()
    if (won === undefined) throw err
    return won
  }
}
