/**
 * How the map store gets the index builder (the mini-program): a static import, as for the offline
 * platform (a dynamic import in the shared module confuses Taro's weapp subpackage split; the code is small).
 */
import { markerIndexer } from './index.weapp'
import type { MarkerIndexer } from './types'

export const loadMarkerIndexer = (): Promise<MarkerIndexer> => Promise.resolve(markerIndexer())
