/** Which device we run on. Neutral default: a phone (weapp-like); H5 and weapp have their own files. */
import { deviceFromUserAgent, type DeviceInfo } from './base'

export type { DeviceInfo } from './base'
export const device: DeviceInfo = deviceFromUserAgent('weapp', () => 'miniProgram')
