/** Where the user is (the mini-program): Taro.getLocation with type gcj02, WeChat's own coordinates. */
import Taro from '@tarojs/taro'
import { privacyFailureMessage } from '../../domain/privacy'
import { LocationError, type GeoPlatform, type Locate, type Position } from './types'

export type { GeoPlatform, Locate, Position } from './types'
export { LocationError } from './types'

/**
 * WeChat says 'getLocation:fail auth deny' (or 'authorize no response') when the user refused, and
 * 'privacy permission is not authorized' (or 'api scope is not declared ...') when the privacy
 * agreement stopped the call: checked first, as its words would read as a refusal too.
 */
function errorOf(err: unknown): LocationError {
  const privacy = privacyFailureMessage(err)
  if (privacy) return new LocationError('privacy', privacy)
  const msg = String((err as { errMsg?: string } | null)?.errMsg ?? err ?? '')
  return new LocationError(/auth|deny|permission/i.test(msg) ? 'denied' : 'unavailable', msg)
}

export const locate: Locate = async (): Promise<Position> => {
  try {
    const res = await Taro.getLocation({ type: 'gcj02', isHighAccuracy: true, highAccuracyExpireTime: 5000 })
    return { lng: res.longitude, lat: res.latitude, accuracy: res.accuracy }
  } catch (err) {
    throw errorOf(err)
  }
}

export const geoPlatform: GeoPlatform = {
  locate,
  // The mini-program has no reverse geocoder of its own (Tencent's needs a key we do not embed).
  reverseGeocode: async () => null,
  async openAuthSetting() {
    try {
      await Taro.openSetting()
      return true
    } catch {
      return false
    }
  },
  async permissionGranted() {
    try {
      const { authSetting } = await Taro.getSetting()
      const v = (authSetting as Record<string, boolean | undefined>)['scope.userLocation']
      return v === undefined ? null : v
    } catch {
      return null
    }
  },
}
