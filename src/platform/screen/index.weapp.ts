import Taro from '@tarojs/taro'

/** The mini-program window's height in px. */
export function windowHeight(): number {
  return Taro.getWindowInfo?.().windowHeight ?? Taro.getSystemInfoSync().windowHeight ?? 800
}
