/** Neutral entry for TypeScript and tests; H5 and weapp resolve their own files. */
export { WebFrame } from './WebFrame.weapp'
export type { WebFrameProps } from './types'
