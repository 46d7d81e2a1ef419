/** H5: the browser gives WGS-84 (Taro's H5 getLocation supports only that); convert to GCJ-02, the stored form. */
import Taro from '@tarojs/taro'
import { wgs84ToGcj02 } from '../../domain/geo'
import type { Locate, Position } from './types'

export type { Locate, Position } from './types'

export const locate: Locate = async (): Promise<Position> => {
  const res = await Taro.getLocation({ type: 'wgs84', isHighAccuracy: true, highAccuracyExpireTime: 8000 })
  const p = wgs84ToGcj02({ lng: res.longitude, lat: res.latitude })
  return { lng: p.lng, lat: p.lat, accuracy: res.accuracy }
}
