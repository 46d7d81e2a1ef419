/** Where the user is (neutral entry, also weapp): Taro.getLocation with type gcj02, WeChat's own coordinates. */
import Taro from '@tarojs/taro'
import type { Locate, Position } from './types'

export type { Locate, Position } from './types'

export const locate: Locate = async (): Promise<Position> => {
  const res = await Taro.getLocation({ type: 'gcj02', isHighAccuracy: true, highAccuracyExpireTime: 5000 })
  return { lng: res.longitude, lat: res.latitude, accuracy: res.accuracy }
}
