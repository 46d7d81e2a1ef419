/**
 * Keys of the map data this phone keeps for working without signal (the offline storage,
 * src/platform/offline/types.ts). Tiny on purpose: the session store (in the /login bundle) needs the
 * user's prefix to forget that user's data on logout; the rest (offlineGroupPrefix, the keys of a snapshot) lives in src/domain/offline.ts.
 */

/** Every key of one user's saved map data starts with this (the outbox keeps its own `outbox:` keys). */
export function offlineUserPrefix(userId: number): string {
  return `map:${userId}:`
}
