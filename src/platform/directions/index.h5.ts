/**
 * Navigation to a place (H5): AMap's navigation address through our host app's `open_url`, or in a
 * browser tab (browser.ts). The host bridge loads only on a tap inside the host app.
 */
import { browserDirections, type DirectionsWindow } from './browser'

export type { DirectionsOutcome, DirectionsPlatform } from './types'

export const directionsPlatform = browserDirections(window as unknown as DirectionsWindow, () => import('../host').then((m) => m.hostBridge))
