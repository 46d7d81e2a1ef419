/** Which device the app runs on: what stores (and the request header) need of a platform. */
import type { DeviceKind } from '../../domain/device'

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
