/** The window's height in CSS px (neutral entry for TypeScript and tests; each platform has its file). */
export { windowHeight, windowWidth } from './index.weapp'
