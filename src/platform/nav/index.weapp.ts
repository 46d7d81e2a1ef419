/** Low-level page navigation (the mini-program): Taro's router over WeChat's page stack. */
import Taro from '@tarojs/taro'
import type { PageNavigator } from './types'

export type { PageLocation, PageNavigator } from './types'

function toQuery(options: Record<string, unknown> | undefined): string {
  if (!options) return ''
  return Object.entries(options)
    .filter(([k, v]) => v !== undefined && k !== '$taroTimestamp' && !k.startsWith('__'))
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
    .join('&')
}

const back = () => void Taro.navigateBack().catch(() => Taro.reLaunch({ url: '/pages/map/index' }))

export const taroNavigator: PageNavigator = {
  navigateTo: (url) => void Taro.navigateTo({ url }).catch(() => Taro.redirectTo({ url })),
  redirectTo: (url) => void Taro.redirectTo({ url }),
  reLaunch: (url) => void Taro.reLaunch({ url }),
  back,
  backToOpener() {
    if (Taro.getCurrentPages().length <= 1) return false
    back()
    return true
  },
  location() {
    const pages = Taro.getCurrentPages()
    const page = pages[pages.length - 1] as { route?: string; options?: Record<string, unknown> } | undefined
    return { pathname: '/' + (page?.route ?? ''), search: toQuery(page?.options) }
  },
  replaceAddress: () => undefined,
  warmPage: () => undefined,
}
