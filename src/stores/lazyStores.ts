/**
 * Stores of a few pages only (teams, sharing, membership, routes, tasks, check-ins, distribution, the operation log)
 * are created on first use, from factories that their registration modules (`teamStores.ts`,
 * `vipStores.ts` ...) register when a page imports them. Their code then travels with those pages
 * instead of with every page (the /login and /map JS budgets of DESIGN 7).
 *
 * A registration module exports the set it registered, and views read lazy stores only through
 * `useStores(thatSet)`: a view that forgot the import (or the set) does not type-check, instead of
 * failing at run time.
 */
import type { RootStore } from './RootStore'

export interface LazyStore {
  reset?(): void
  dispose?(): void
}

export type LazyKey =
  'team' | 'departments' | 'roles' | 'shares' | 'shareView' | 'vip' | 'route' | 'task' | 'distribution' | 'sign' | 'oplog' | 'dataList' | 'sync' | 'offlineCache' | 'outbox' | 'print'

type Factory = (root: RootStore) => LazyStore

/** The stores one registration module made available (what `useStores` takes). */
export interface LazyStoreSet<K extends LazyKey> {
  readonly keys: readonly K[]
}

const factories = new Map<LazyKey, Factory>()

/** Registers the factories of a page's stores, each making the store RootStore's getter of that key returns. */
export function registerStores<K extends LazyKey>(made: { [P in K]: (root: RootStore) => RootStore[P] }): LazyStoreSet<K> {
  const keys = Object.keys(made) as K[]
  for (const key of keys) factories.set(key, made[key] as Factory)
  return { keys }
}

export function storeFactory(key: LazyKey): Factory | undefined {
  return factories.get(key)
}
