import { tileSources } from '../../domain/tileSources'
import type { MapCapabilities } from './types'

export type { MapCapabilities } from './types'

/** With an AMap key every layer and element can be switched; the keyless map can hide its tiles or take them from another source. */
export const capabilities: MapCapabilities = AMAP_KEY
  ? { satellite: true, roadnet: true, traffic: true, features: ['bg', 'road', 'building', 'poi'] }
  : { satellite: false, roadnet: false, traffic: false, features: ['bg'], tileSources: tileSources({ url: MAP_TILE_URL, attribution: '' }).map(({ id, label }) => ({ id, label })) }
