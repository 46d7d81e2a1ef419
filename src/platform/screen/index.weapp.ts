import Taro from '@tarojs/taro'
import type { ScreenPlatform } from './types'

export type { ScreenPlatform } from './types'

export const screenPlatform: ScreenPlatform = {
  /** The mini-program window's height in px. */
  windowHeight: () => Taro.getWindowInfo?.().windowHeight ?? Taro.getSystemInfoSync().windowHeight ?? 800,
  /** The mini-program window's width in px. */
  windowWidth: () => Taro.getWindowInfo?.().windowWidth ?? Taro.getSystemInfoSync().windowWidth ?? 375,
}
