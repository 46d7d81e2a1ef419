import Taro from '@tarojs/taro'

/** The mini-program window's height in px. */
export function windowHeight(): number {
  return Taro.getWindowInfo?.().windowHeight ?? Taro.getSystemInfoSync().windowHeight ?? 800
}

/** The mini-program window's width in px. */
export function windowWidth(): number {
  return Taro.getWindowInfo?.().windowWidth ?? Taro.getSystemInfoSync().windowWidth ?? 375
}
