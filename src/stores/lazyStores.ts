/**
 * Stores of a few pages only (teams, sharing, membership) are created on first use, from factories that their
 * pages register by importing `teamStores.ts` / `shareStores.ts`. Their code then travels with those
 * pages instead of with every page (the /login and /map JS budgets of DESIGN 7).
 */
import type { RootStore } from './RootStore'

export interface LazyStore {
  reset?(): void
  dispose?(): void
}

export type LazyKey = 'team' | 'departments' | 'roles' | 'shares' | 'shareView' | 'vip' | 'route' | 'task' | 'distribution' | 'sign'

const factories = new Map<LazyKey, (root: RootStore) => LazyStore>()

export function registerStore(key: LazyKey, factory: (root: RootStore) => LazyStore): void {
  factories.set(key, factory)
}

export function storeFactory(key: LazyKey): ((root: RootStore) => LazyStore) | undefined {
  return factories.get(key)
}
