/** Runs the navigation guard of SPEC 2 for the page being entered. */
import { guard, type GuardDecision } from '../domain/guard'
import { moduleBlock, routeLockedByTier } from '../domain/moduleGate'
import type { RootStore } from '../stores/RootStore'
import { resolveRoute } from './routes'

export function decideEntry(root: Pick<RootStore, 'platform' | 'session' | 'app'>): GuardDecision {
  const loc = root.platform.location()
  return guard({
    route: resolveRoute(loc.pathname),
    query: loc.search,
    user: root.session.user,
    device: root.platform.device.kind(),
    allowDesktop: root.app.allowDesktop,
  })
}

/** The message shown instead of the page when the user's modules do not open it, else null. */
export function moduleBlockOf(root: Pick<RootStore, 'platform' | 'session'>): string | null {
  const route = resolveRoute(root.platform.location().pathname)
  return route ? moduleBlock(route.path, root.session.user?.modules, root.session.user?.level ?? 0) : null
}

/** Whether that message is the tier's (a VIP module): the page then offers the membership. */
export function moduleLockedByTierOf(root: Pick<RootStore, 'platform' | 'session'>): boolean {
  const route = resolveRoute(root.platform.location().pathname)
  return route ? routeLockedByTier(route.path, root.session.user?.modules, root.session.user?.level ?? 0) : false
}
