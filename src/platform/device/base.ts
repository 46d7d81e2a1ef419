import { deviceKind, osOf, type DeviceKind } from '../../domain/device'

export interface DeviceInfo {
  /** 'h5' | 'weapp' */
  platform: string
  kind(): DeviceKind
  os(): string
  /** The header's `device` field: 'app_' + platform (SPEC 7). */
  header(): string
  /** Whether a developer may choose to continue on a desktop browser. */
  canOverrideDesktop(): boolean
}

export function deviceFromUserAgent(platform: string, userAgent: () => string, devOverride: () => boolean = () => false): DeviceInfo {
  return {
    platform,
    kind: () => deviceKind(userAgent()),
    os: () => osOf(userAgent()),
    header: () => `app_${platform}`,
    canOverrideDesktop: devOverride,
  }
}
