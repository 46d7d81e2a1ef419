import { deviceKind, osOf } from '../../domain/device'
import type { DeviceInfo } from './types'

export type { DeviceInfo } from './types'

/** A device told apart by its user agent (H5; the neutral entry's phone). */
export function deviceFromUserAgent(platform: string, userAgent: () => string, devOverride: () => boolean = () => false): DeviceInfo {
  return {
    platform,
    kind: () => deviceKind(userAgent()),
    os: () => osOf(userAgent()),
    header: () => `app_${platform}`,
    canOverrideDesktop: devOverride,
  }
}
