/** H5 has no WeChat privacy agreement: the browser asks for each permission itself. */
import type { PrivacyPlatform } from './types'

export type { PrivacyChoice, PrivacyPlatform } from './types'

export const privacyPlatform: PrivacyPlatform = {
  asks: false,
  listen: () => undefined,
  openContract: async () => false,
}
