import Taro from '@tarojs/taro'
import type { DeviceInfo } from './types'

/** Inside WeChat the device is always a phone (or WeChat's own desktop client, treated alike). */
export const device: DeviceInfo = {
  platform: 'weapp',
  kind: () => 'mobile',
  os: () => {
    try {
      return (Taro.getDeviceInfo?.().platform ?? Taro.getSystemInfoSync().platform ?? 'unknown').toLowerCase()
    } catch {
      return 'unknown'
    }
  },
  header: () => 'app_weapp',
  canOverrideDesktop: () => false,
}

export type { DeviceInfo } from './types'
