/** The privacy agreement in the mini-program: wx.onNeedPrivacyAuthorization and wx.openPrivacyContract. */
import Taro from '@tarojs/taro'
import type { PrivacyChoice, PrivacyPlatform } from './types'

export type { PrivacyChoice, PrivacyPlatform } from './types'

type NeedListener = (resolve: (choice: PrivacyChoice) => void) => void

export const privacyPlatform: PrivacyPlatform = {
  asks: true,
  listen(onNeed) {
    // Older base libraries (before 2.32.3) have no agreement and no listener.
    const on = (Taro as unknown as { onNeedPrivacyAuthorization?: (l: NeedListener) => void }).onNeedPrivacyAuthorization
    on?.((resolve) => onNeed(resolve))
  },
  async openContract() {
    try {
      await Taro.openPrivacyContract()
      return true
    } catch {
      return false
    }
  },
}
