/** Runs the navigation guard of SPEC 2 for the page being entered. */
import { guard, type GuardDecision } from '../domain/guard'
import type { RootStore } from '../stores/RootStore'
import { resolveRoute } from './routes'

export function decideEntry(root: RootStore): GuardDecision {
  const loc = root.platform.location()
  return guard({
    route: resolveRoute(loc.pathname),
    query: loc.search,
    user: root.session.user,
    device: root.platform.device.kind(),
    allowDesktop: root.app.allowDesktop,
  })
}
