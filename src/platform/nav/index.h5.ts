import Taro from '@tarojs/taro'
import type { PageNavigator } from './types'

export type { PageLocation, PageNavigator } from './types'

/** H5 uses browser routing with SPEC's paths, so the address bar is the location. */
function back(): void {
  if (window.history.length > 1) void Taro.navigateBack()
  else void Taro.reLaunch({ url: '/pages/map/index' })
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
}
