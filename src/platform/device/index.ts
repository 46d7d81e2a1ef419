/** Which device we run on. Neutral default: a phone (weapp-like); H5 and weapp have their own files. */
import { deviceFromUserAgent } from './base'
import type { DeviceInfo } from './types'

export type { DeviceInfo } from './types'
export const device: DeviceInfo = deviceFromUserAgent('weapp', () => 'miniProgram')
