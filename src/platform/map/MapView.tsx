/** Neutral entry for TypeScript and tests; H5 and weapp resolve their own files. */
export { MapView } from './MapView.weapp'
export type { MapViewProps } from './types'
