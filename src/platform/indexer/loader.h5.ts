/** How the map store gets the index builder (H5): loaded with the draw pipeline, out of the chunk every page (and /login) loads. */
import type { MarkerIndexer } from './types'

export const loadMarkerIndexer = (): Promise<MarkerIndexer> => import('./index').then((m) => m.markerIndexer())
