import type { MapCapabilities } from './types'

export type { MapCapabilities } from './types'

/** With an AMap key every layer and element can be switched; the keyless map can hide its tiles only. */
export const capabilities: MapCapabilities = AMAP_KEY
  ? { satellite: true, roadnet: true, traffic: true, features: ['bg', 'road', 'building', 'poi'] }
  : { satellite: false, roadnet: false, traffic: false, features: ['bg'] }
