/** What the current platform's map can show (neutral entry for TypeScript and tests). */
export type { MapCapabilities } from './capabilities.types'
export { capabilities } from './capabilities.weapp'
