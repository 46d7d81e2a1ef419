/**
 * How far an import has come, and a request to stop it, for the import dialog's progress bar:
 * reading the file (the parse worker), placing addresses (the geocoder, done of total),
 * checking rows (done of total), then writing them in one transaction. Until writing starts the
 * import can be cancelled, and then writes nothing; once writing has begun it finishes (it is one
 * short transaction, and a half-written import is what the transaction exists to prevent).
 *
 * Kept in this server's memory, by the caller and an id the app makes for the import: behind a
 * load balancer a poll may reach another server, which knows nothing of it, and the app then
 * shows the import as going on without figures (the import's own answer is what counts).
 */
import type { ImportPhase, ImportProgress } from '../../../types/mapdata'
import { IMPORT_MSG } from '../../../src/domain/importMessages'
import { ErrCode } from '../../../types/api'
import { BusinessError } from '../envelope'

interface Entry extends ImportProgress {
  cancelled: boolean
  /** When a finished entry is forgotten. */
  forgetAt?: number
}

/** How long a finished import's last state is kept for a late poll. */
const KEEP_MS = 60_000

const entries = new Map<string, Entry>()

const keyOf = (userId: number, importId: string) => `${userId}:${importId}`

function sweep(now: number): void {
  for (const [key, e] of entries) if (e.forgetAt !== undefined && e.forgetAt < now) entries.delete(key)
}

/** The tracker of one import; without an id (an older app) it tracks nothing. */
export class ImportTracker {
  private readonly entry: Entry | null

  constructor(userId: number, importId: string | undefined) {
    sweep(Date.now())
    this.entry = importId ? { phase: 'reading', done: 0, total: 0, cancelled: false } : null
    if (importId && this.entry) entries.set(keyOf(userId, importId), this.entry)
  }

  /** Moves to a phase; throws the cancellation when the user asked to stop before writing. */
  step(phase: ImportPhase, done = 0, total = 0): void {
    if (!this.entry) return
    if (this.entry.cancelled) throw new BusinessError(ErrCode.VALIDATION, IMPORT_MSG.cancelled)
    Object.assign(this.entry, { phase, done, total })
  }

  /** Whether the user asked to stop (for work that checks between its own steps). */
  get cancelled(): boolean {
    return this.entry?.cancelled ?? false
  }

  finish(): void {
    if (!this.entry) return
    this.entry.phase = this.entry.cancelled ? 'cancelled' : 'done'
    this.entry.forgetAt = Date.now() + KEEP_MS
  }
}

export function importProgress(userId: number, importId: string): ImportProgress | null {
  const e = entries.get(keyOf(userId, importId))
  return e ? { phase: e.cancelled ? 'cancelled' : e.phase, done: e.done, total: e.total } : null
}

/** Asks an import to stop; false when it is writing or done already (or unknown here). */
export function cancelImport(userId: number, importId: string): boolean {
  const e = entries.get(keyOf(userId, importId))
  if (!e || e.phase === 'writing' || e.phase === 'done' || e.phase === 'cancelled') return false
  e.cancelled = true
  return true
}
