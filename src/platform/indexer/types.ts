/**
 * How the map store builds its draw index over the markers: on the page at once (the mini-program,
 * tests), or with the clusters built off the page's thread (H5's cluster worker). Either way the
 * index is the one mapDraw.buildMarkerIndex gives.
 */
import type { Marker } from '../../../types/mapdata'
import type { MarkerIndex } from '../../domain/mapDraw'

/** The draw pipeline (src/domain/mapDraw), loaded with the map: passed in so that this module stays out of its chunk. */
export type DrawEngine = typeof import('../../domain/mapDraw')

export type MarkerIndexer = (engine: DrawEngine, markers: readonly Marker[]) => MarkerIndex | Promise<MarkerIndex>
