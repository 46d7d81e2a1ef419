/** The window's size (neutral entry for TypeScript and tests; each platform has its file). */
export { screenPlatform, type ScreenPlatform } from './index.weapp'
