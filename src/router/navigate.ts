/** Navigation by SPEC path: the only way stores and pages move between screens. */
import type { PageNavigator } from '../platform/nav/types'
import { pageUrlOf } from './routes'

export type NavMode = 'navigate' | 'redirect' | 'relaunch'
export type Navigate = (pathWithQuery: string, mode?: NavMode) => void

export function createNavigate(nav: PageNavigator): Navigate {
  return (pathWithQuery, mode = 'navigate') => {
    const url = pageUrlOf(pathWithQuery)
    if (mode === 'relaunch') nav.reLaunch(url)
    else if (mode === 'redirect') nav.redirectTo(url)
    else nav.navigateTo(url)
  }
}
