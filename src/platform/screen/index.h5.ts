/** The browser window's height in CSS px. */
export function windowHeight(): number {
  return typeof window !== 'undefined' ? window.innerHeight : 800
}

/** The browser window's width in CSS px. */
export function windowWidth(): number {
  return typeof window !== 'undefined' ? window.innerWidth : 375
}
