/**
 * How the offline cache gets the offline platform (the mini-program): a static import, as for the
 * socket (a dynamic import in the shared module confuses Taro's weapp subpackage split; the code is small).
 */
import { deviceOffline } from './index.weapp'
import type { OfflinePlatform } from './types'

export const loadOfflinePlatform = (): Promise<OfflinePlatform> => Promise.resolve(deviceOffline())
