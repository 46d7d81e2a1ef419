import type { ScreenPlatform } from './types'

export type { ScreenPlatform } from './types'

export const screenPlatform: ScreenPlatform = {
  /** The browser window's height in CSS px. */
  windowHeight: () => (typeof window !== 'undefined' ? window.innerHeight : 800),
  /** The browser window's width in CSS px. */
  windowWidth: () => (typeof window !== 'undefined' ? window.innerWidth : 375),
}
