/** The window the app is drawn in, in CSS px (the bottom panel's full height, the camera's video size). */
export interface ScreenPlatform {
  windowHeight(): number
  windowWidth(): number
}
