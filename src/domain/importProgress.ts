/**
 * The import progress bar's share of each phase: sending the file (before the server's first
 * answer), reading it, placing addresses (done of total), checking rows (done of total), writing.
 */
import type { ImportProgress } from '../../types/mapdata'

const SPANS: Record<ImportProgress['phase'], [number, number]> = {
  reading: [10, 30],
  geocoding: [30, 60],
  checking: [60, 85],
  writing: [85, 99],
  done: [100, 100],
  cancelled: [0, 0],
}

export function importShare(progress: ImportProgress | null): number {
  if (!progress) return 5
  const [from, to] = SPANS[progress.phase]
  const part = progress.total > 0 ? Math.min(1, progress.done / progress.total) : 0
  return Math.round(from + (to - from) * part)
}
