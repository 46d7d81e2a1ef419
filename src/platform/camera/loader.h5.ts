/** How the stores get the camera platform (H5): loaded on first use, out of the chunk every page loads. */
import type { CameraPlatform } from './types'

export const loadCameraPlatform = (): Promise<CameraPlatform> => import('./index').then((m) => m.cameraPlatform)
