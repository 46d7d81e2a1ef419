/**
 * The print sheet's platform (the mini-program): previewImage shows the picture (long press
 * forwards or saves it), saveImageToPhotosAlbum saves it under scope.writePhotosAlbum (asked once;
 * refused, the page shows SPEC 8's permission dialog), and openDocument opens the PDF with its menu,
 * which forwards it to a chat. Files come by downloadFile from the job's address.
 */
import Taro from '@tarojs/taro'
import type { PrintPlatform, PrintSaveOutcome } from './types'

export type { PrintPlatform, PrintSaveOutcome } from './types'

const errMsg = (err: unknown) => String((err as { errMsg?: string } | null)?.errMsg ?? err ?? '')
const refused = (msg: string) => /auth|deny|denied|permission/i.test(msg)

/** Whether album access is granted, asking once when it never was; false when refused (now or before). */
async function albumAllowed(): Promise<boolean> {
  let granted: boolean | undefined
  try {
    const { authSetting } = await Taro.getSetting()
    granted = (authSetting as Record<string, boolean | undefined>)['scope.writePhotosAlbum']
  } catch {
    granted = undefined
  }
  if (granted !== undefined) return granted
  try {
    await Taro.authorize({ scope: 'scope.writePhotosAlbum' })
    return true
  } catch {
    return false
  }
}

async function downloaded(url: string): Promise<string | null> {
  const res = await Taro.downloadFile({ url })
  return res.statusCode === 200 ? res.tempFilePath : null
}

export const printPlatform: PrintPlatform = {
  async previewImage(url) {
    await Taro.previewImage({ urls: [url], current: url, showmenu: true })
  },
  async savePicture(url): Promise<PrintSaveOutcome> {
    if (!(await albumAllowed())) return 'denied'
    try {
      const path = await downloaded(url)
      if (!path) return 'failed'
      await Taro.saveImageToPhotosAlbum({ filePath: path })
      return 'saved'
    } catch (err) {
      return refused(errMsg(err)) ? 'denied' : 'failed'
    }
  },
  async openPdf(url) {
    try {
      const path = await downloaded(url)
      if (!path) return 'failed'
      await Taro.openDocument({ filePath: path, fileType: 'pdf', showMenu: true })
      return 'opened'
    } catch {
      return 'failed'
    }
  },
  async openSettings() {
    try {
      await Taro.openSetting()
      return true
    } catch {
      return false
    }
  },
}
