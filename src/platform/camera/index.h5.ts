/**
 * The watermark camera's platform (H5). In a browser the camera view (CameraView.h5.tsx) uses
 * getUserMedia, which only exists on https pages (SPEC 8: the camera requires https). Inside our
 * native host app the host's camera takes the photo (the `camera` request answered by
 * camera_callback) and the watermark is painted on it here. Saving an image: the host app's
 * save_img, or a download in a plain browser.
 */
import { hostChannel } from '../host/channel'
import type { HostWindow } from '../host/types'
import { exportWatermarked, loadImage } from './canvasExport'
import { CameraError, type CameraPlatform, type SaveImageOutcome } from './types'

export type { CameraHandle, CameraPlatform, CameraProblem, CameraViewProps, CapturedPhoto, Facing, SaveImageOutcome, ViewSize } from './types'
export { CameraError } from './types'

const inHost = () => hostChannel(window as unknown as HostWindow) !== null

/** The browser's own check: a page over plain http (other than localhost) has no camera. */
export function cameraProblemOfPage(win: { isSecureContext?: boolean; navigator: { mediaDevices?: { getUserMedia?: unknown } } }): CameraError | null {
  if (win.isSecureContext === false) return new CameraError('insecure', 'insecure context')
  if (typeof win.navigator.mediaDevices?.getUserMedia !== 'function') return new CameraError('unsupported', 'no getUserMedia')
  return null
}

function fileNameOf(url: string): string {
  const last = url.split(/[?#]/)[0].split('/').pop() || ''
  return /\.(jpe?g|png|gif|webp)$/i.test(last) ? last : `image_${Date.now()}.jpg`
}

function clickDownload(href: string, name: string): void {
  const a = document.createElement('a')
  a.href = href
  a.download = name
  a.rel = 'noopener'
  a.style.display = 'none'
  document.body.appendChild(a)
  a.click()
  setTimeout(() => a.remove(), 1000)
}

export const cameraPlatform: CameraPlatform = {
  source: () => (inHost() ? 'host' : 'view'),
  async prepare() {
    if (inHost()) return
    const problem = cameraProblemOfPage(window)
    if (problem) throw problem
  },
  async hostCapture(text, viewWidth) {
    const { hostBridge } = await import('../host')
    let reply
    try {
      reply = await hostBridge.request('camera', { count: 1, facing: 'back' })
    } catch (err) {
      throw new CameraError('failed', String(err))
    }
    if (reply.error) throw new CameraError(/auth|deny|denied|permission/i.test(reply.error) ? 'denied' : 'failed', reply.error)
    const src = reply.images[0]
    if (!src) return null
    const img = await loadImage(src)
    const photo = { width: img.naturalWidth, height: img.naturalHeight }
    if (!photo.width || !photo.height) throw new CameraError('failed', 'empty image')
    // the whole photo, as wide as the screen
    const view = { width: viewWidth, height: Math.round((viewWidth * photo.height) / photo.width) }
    return exportWatermarked(img, photo, view, text)
  },
  async saveImage(url): Promise<SaveImageOutcome> {
    if (inHost()) {
      const { hostBridge } = await import('../host')
      try {
        hostBridge.send('save_img', { url })
        return 'saved'
      } catch {
        return 'failed'
      }
    }
    const name = fileNameOf(url)
    try {
      const res = await fetch(url)
      if (!res.ok) return 'failed'
      const href = URL.createObjectURL(await res.blob())
      clickDownload(href, name)
      setTimeout(() => URL.revokeObjectURL(href), 60_000)
    } catch {
      // not readable from here (another origin without CORS): let the browser fetch it itself
      clickDownload(url, name)
    }
    return 'downloaded'
  },
  async openSettings() {
    if (!inHost()) return false
    const { hostBridge } = await import('../host')
    try {
      hostBridge.send('open_app_auth_setting', {})
      return true
    } catch {
      return false
    }
  },
  release(photo) {
    if (photo.path.startsWith('blob:')) URL.revokeObjectURL(photo.path)
  },
}
