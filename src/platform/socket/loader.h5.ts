/** How the sync store gets the socket platform (H5): loaded with the map, out of the chunk every page (and /login) loads. */
import type { SocketPlatform } from './types'

export const loadSocketPlatform = (): Promise<SocketPlatform> => import('./index').then((m) => m.socketPlatform)
