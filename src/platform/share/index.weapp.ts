/** Share adapter (the mini-program): WeChat's clipboard; links point at the H5 app on the API host. */
import Taro from '@tarojs/taro'
import type { SharePlatform } from './types'

export type { SharePlatform } from './types'

export const sharePlatform: SharePlatform = {
  async copyText(text) {
    try {
      await Taro.setClipboardData({ data: text })
      return true
    } catch {
      return false
    }
  },
  webOrigin: () => (typeof API_BASE === 'string' ? API_BASE : ''),
  allowTimeline(on) {
    // Taro turns showShareItems into WeChat's `menus`: which items the page's ··· menu offers.
    const done = on ? Taro.showShareMenu({ withShareTicket: false, showShareItems: ['wechatFriends', 'wechatMoment'] }) : Taro.hideShareMenu({ menus: ['shareTimeline'] })
    // An older WeChat without the menu item: the card can still be forwarded.
    void Promise.resolve(done).catch(() => undefined)
  },
}
