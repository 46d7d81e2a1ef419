/** What the 导航 button says (src/domain/directions.ts). */
export const DIRECTIONS_MSG = {
  /** The button's text. */
  button: '导航',
  /** The place has no usable coordinates (a broken geometry, 0,0). */
  noPlace: '该位置没有有效坐标，无法导航',
  /** The phone could not open a map (WeChat's map page failed, the browser refused the address). */
  openFailed: '无法打开地图导航，请稍后再试',
  /** The name AMap shows for a place without one. */
  defaultName: '目的地',
} as const
