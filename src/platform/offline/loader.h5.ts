/** How the offline cache gets the offline platform (H5): loaded with the map, out of the chunk every page (and /login) loads. */
import type { OfflinePlatform } from './types'

export const loadOfflinePlatform = (): Promise<OfflinePlatform> => import('./index').then((m) => m.deviceOffline())
