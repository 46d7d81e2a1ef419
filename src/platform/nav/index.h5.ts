import Taro from '@tarojs/taro'
import type { PageNavigator } from './types'

export type { PageLocation, PageNavigator } from './types'

/** H5 uses browser routing with SPEC's paths, so the address bar is the location. */
function back(): void {
  if (window.history.length > 1) void Taro.navigateBack()
  else void Taro.reLaunch({ url: '/pages/map/index' })
}

/** A page of Taro's H5 route table, which the app's entry hands the router (window.__taroAppConfig). */
interface TaroRoute {
  path: string
  /** The page module's import, first of what it returns. */
  load?: (context: unknown, params: unknown) => [Promise<unknown>, ...unknown[]]
}

/** Runs the page's own loader from Taro's route table: the router's later import of it finds it done. */
function warmPage(url: string): void {
  const page = url.split('?')[0].replace(/^\//, '')
  const routes = (window as { __taroAppConfig?: { routes?: TaroRoute[] } }).__taroAppConfig?.routes
  const load = routes?.find((r) => r.path === page)?.load
  if (!load) return
  try {
    // Without network the chunk fails to load: the page then loads as usual when opened.
    void Promise.resolve(load({}, {})[0]).catch(() => undefined)
  } catch {
    // As above: a loader that cannot run now runs again when the page is opened.
  }
}

export const taroNavigator: PageNavigator = {
  navigateTo: (url) => void Taro.navigateTo({ url }).catch(() => Taro.redirectTo({ url })),
  redirectTo: (url) => void Taro.redirectTo({ url }),
  reLaunch: (url) => void Taro.reLaunch({ url }),
  back,
  // Taro's own page stack: a page reached by address (or a reload) has no opener in it.
  backToOpener() {
    if (Taro.getCurrentPages().length <= 1) return false
    back()
    return true
  },
  location: () => ({ pathname: decodeURI(window.location.pathname), search: window.location.search.replace(/^\?/, '') }),
  replaceAddress: (pathWithQuery) => window.history.replaceState(window.history.state, '', pathWithQuery),
  warmPage,
}
