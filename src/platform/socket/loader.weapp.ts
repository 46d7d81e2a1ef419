/**
 * How the sync store gets the socket platform (the mini-program): a static import, as for pay (a
 * dynamic import in the shared module confuses Taro's weapp subpackage split; the code is small).
 */
import { socketPlatform, type SocketPlatform } from './index.weapp'

export const loadSocketPlatform = (): Promise<SocketPlatform> => Promise.resolve(socketPlatform)
