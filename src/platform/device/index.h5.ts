import { deviceFromUserAgent } from './base'

/** A developer on localhost (or a development build) may continue on a desktop browser. */
function devOverrideAllowed(): boolean {
  if (process.env.NODE_ENV === 'development') return true
  const host = typeof location !== 'undefined' ? location.hostname : ''
  return host === 'localhost' || host === '127.0.0.1' || host === '[::1]'
}

export const device = deviceFromUserAgent('h5', () => (typeof navigator !== 'undefined' ? navigator.userAgent : ''), devOverrideAllowed)

export type { DeviceInfo } from './types'
