/**
 * How the map draws a marker kept in the outbox (not on the server yet): grey, translucent and dashed,
 * whatever its own style, so nobody takes it for data the team already sees; points also carry a small
 * 待同步 badge. Every map engine takes its style through drawnStyle().
 */
import type { Marker, MarkerStyle } from '../../types/mapdata'

export const PENDING_LOOK = { color: '#86909C', fill_color: '#C9CDD4', opacity: 0.75, fill_opacity: 0.2 } as const

/** The badge on a pending point. */
export const PENDING_BADGE = '待同步'

/** The outbox flags the markers it shows (src/domain/outboxQueue.ts PendingFlag). */
export function isPendingMarker(m: Marker): boolean {
  return (m as Marker & { pending?: boolean }).pending === true
}

/** The style a map engine draws a marker with. */
export function drawnStyle(m: Marker): MarkerStyle {
  return isPendingMarker(m) ? { ...m.style, ...PENDING_LOOK, dashed: true } : (m.style ?? {})
}
