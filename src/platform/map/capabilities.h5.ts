import { tileSources } from '../../domain/tileSources'
import type { MapCapabilities } from './types'

export type { MapCapabilities } from './types'

/**
 * With an AMap key every layer and element can be switched; the keyless map takes its tiles from
 * one source or none (底图来源's 无底图 hides them: no separate 底图 switch).
 */
export const capabilities: MapCapabilities = AMAP_KEY
  ? { satellite: true, roadnet: true, traffic: true, features: ['bg', 'road', 'building', 'poi'] }
  : { satellite: false, roadnet: false, traffic: false, features: [], tileSources: tileSources({ url: MAP_TILE_URL, attribution: '' }).map(({ id, label }) => ({ id, label })) }
