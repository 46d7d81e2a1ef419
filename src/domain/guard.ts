/**
 * The navigation guard of SPEC section 2 as one pure decision. It runs on every page entry
 * (H5 and weapp) with the target route, the session and the device kind.
 */
import type { DeviceKind } from './device'

export interface GuardRoute {
  path: string
  access: 'public' | 'login' | 'none'
  skipChecks: boolean
  redirect?: string
}

export interface GuardUser {
  id?: number
  select_groupid?: number
  nickname?: string
}

export interface GuardInput {
  /** The route being opened, or undefined when no route matches the path. */
  route: GuardRoute | undefined
  /** The query string of the navigation without '?', kept on redirects. */
  query?: string
  user: GuardUser | null
  device: DeviceKind
  /** Development-only escape hatch: a developer chose to continue on a desktop browser. */
  allowDesktop?: boolean
}

export type GuardDecision = { action: 'allow' } | { action: 'redirect'; to: string; reason: GuardReason }

export type GuardReason = 'alias' | 'not-found' | 'device' | 'login-required' | 'no-group' | 'no-nickname' | 'already-set-up'

export const PATHS = {
  map: '/map',
  login: '/login',
  guide: '/guide',
  init: '/guide/init',
  warning: '/warning',
  notFound: '/404',
} as const

export function withQuery(path: string, query?: string): string {
  const q = (query ?? '').replace(/^\?/, '')
  return q ? `${path}?${q}` : path
}

export function guard(input: GuardInput): GuardDecision {
  const { route, query, user, device } = input
  const go = (to: string, reason: GuardReason, keepQuery = true): GuardDecision => ({
    action: 'redirect',
    to: keepQuery ? withQuery(to, query) : to,
    reason,
  })

  if (!route) return go(PATHS.notFound, 'not-found', false)
  if (route.redirect) return go(route.redirect, 'alias')
  // Login, reg, distribution view, share view and web view skip the device and group checks.
  if (route.skipChecks) return { action: 'allow' }

  // The page being opened, for a way back to it: the warning page shows it as a QR code to scan
  // with the phone, the login page returns to it.
  const back = encodeURIComponent(withQuery(route.path, query))
  if (device !== 'mobile' && !input.allowDesktop) return go(`${PATHS.warning}?from=${back}`, 'device', false)

  const loggedIn = !!user && !!user.id
  if (!loggedIn) {
    // A user with no id navigates unchanged; a page that needs a session sends them to sign in
    // and back here afterwards.
    if (route.access === 'login') return go(`${PATHS.login}?redirect=${back}`, 'login-required', false)
    return { action: 'allow' }
  }

  const hasGroup = !!user!.select_groupid
  const onGuide = route.path === PATHS.guide
  const onInit = route.path === PATHS.init
  if (!hasGroup) return onGuide ? { action: 'allow' } : go(PATHS.guide, 'no-group')
  if (!user!.nickname) return onInit ? { action: 'allow' } : go(PATHS.init, 'no-nickname')
  if (onGuide || onInit) return go(PATHS.map, 'already-set-up')
  return { action: 'allow' }
}
