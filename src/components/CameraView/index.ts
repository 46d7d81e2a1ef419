/**
 * The camera view (Taro picks CameraView.h5.tsx or CameraView.weapp.tsx by suffix) with the camera
 * contract its users need; components reach it through this module rather than platform/ itself.
 */
export { CameraView, type CameraViewProps } from '../../platform/camera/CameraView'
export { CameraError, type CameraHandle, type CameraPlatform, type CapturedPhoto, type Facing } from '../../platform/camera/types'
