/**
 * The draw index in the mini-program: built at once on the page's thread (a WeChat worker would need
 * its own package root and a copy of supercluster; the mini-program's map shows at most 200 points anyway).
 */
import type { MarkerIndexer } from './types'

export type { DrawEngine, MarkerIndexer } from './types'

export function markerIndexer(): MarkerIndexer {
  return (engine, markers) => engine.buildMarkerIndex(markers)
}
