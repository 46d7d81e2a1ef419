import type { MapCapabilities } from './types'

export type { MapCapabilities } from './types'

/** WeChat's map: satellite and traffic layers, buildings and POIs can be switched. */
export const capabilities: MapCapabilities = { satellite: true, roadnet: false, traffic: true, features: ['building', 'poi'] }
