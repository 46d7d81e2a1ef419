/**
 * How the stores get the camera platform (the mini-program): a static import, as for
 * payment (a dynamic import in code every page shares confuses Taro's weapp subpackage split).
 */
import { cameraPlatform, type CameraPlatform } from './index.weapp'

export const loadCameraPlatform = (): Promise<CameraPlatform> => Promise.resolve(cameraPlatform)
