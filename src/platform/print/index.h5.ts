/**
 * The print sheet's platform (H5): inside our host app the picture goes to the host's save_img
 * (its album); in a browser the file is downloaded under its name (the title and the date), read
 * as a blob so that the name holds whatever the server's address is.
 */
import { hostChannel } from '../host/channel'
import type { HostWindow } from '../host/types'
import type { PrintPlatform, PrintSaveOutcome } from './types'

export type { PrintPlatform, PrintSaveOutcome } from './types'

const inHost = () => hostChannel(window as unknown as HostWindow) !== null

async function download(url: string, filename: string): Promise<boolean> {
  try {
    const res = await fetch(url)
    if (!res.ok) return false
    const href = URL.createObjectURL(await res.blob())
    const a = document.createElement('a')
    a.href = href
    a.download = filename
    a.rel = 'noopener'
    a.style.display = 'none'
    document.body.appendChild(a)
    a.click()
    setTimeout(() => {
      URL.revokeObjectURL(href)
      a.remove()
    }, 60_000)
    return true
  } catch {
    return false
  }
}

export const printPlatform: PrintPlatform = {
  async previewImage(url) {
    window.open(url, '_blank', 'noopener')
  },
  async savePicture(url, filename): Promise<PrintSaveOutcome> {
    if (inHost()) {
      const { hostBridge } = await import('../host')
      try {
        hostBridge.send('save_img', { url: new URL(url, window.location.href).href })
        return 'sent'
      } catch {
        return 'failed'
      }
    }
    return (await download(url, filename)) ? 'downloaded' : 'failed'
  },
  async openPdf(url, filename) {
    return (await download(url, filename)) ? 'downloaded' : 'failed'
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
}
