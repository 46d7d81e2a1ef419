/** Neutral entry for TypeScript and tests; H5 and weapp resolve their own files. */
export { CameraView } from './CameraView.weapp'
export type { CameraViewProps } from './types'
