/** A QR code of a text as an image data URL (GIF, no canvas needed: works on H5 and in the mini-program). */
import qrcode from 'qrcode-generator'

export function qrDataUrl(text: string, cellSize = 6, margin = 12): string {
  const qr = qrcode(0, 'M')
  qr.addData(text, 'Byte')
  qr.make()
  return qr.createDataURL(cellSize, margin)
}

/** The module matrix (true = dark), for tests and for drawing it elsewhere. */
export function qrModules(text: string): boolean[][] {
  const qr = qrcode(0, 'M')
  qr.addData(text, 'Byte')
  qr.make()
  const n = qr.getModuleCount()
  return Array.from({ length: n }, (_, r) => Array.from({ length: n }, (_, c) => qr.isDark(r, c)))
}
