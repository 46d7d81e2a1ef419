/** The browser window's height in CSS px. */
export function windowHeight(): number {
  return typeof window !== 'undefined' ? window.innerHeight : 800
}
