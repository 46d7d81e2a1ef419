/**
 * Keys of the map data this phone keeps for working without signal (the offline storage,
 * src/platform/offline/types.ts). Tiny on purpose: the session store (in the /login bundle) needs the
 * user's prefix to forget that user's data on logout; the rest lives in src/domain/offline.ts.
 */

/** Every key of one user's saved map data starts with this (the outbox keeps its own `outbox:` keys). */
export function offlineUserPrefix(userId: number): string {
  return `map:${userId}:`
}

/** The keys of one user in one group (map). */
export function offlineGroupPrefix(userId: number, groupId: number): string {
  return `${offlineUserPrefix(userId)}${groupId}:`
}
