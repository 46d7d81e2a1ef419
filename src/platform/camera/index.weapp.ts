/**
 * The watermark camera's platform (the mini-program): camera access is scope.camera
 * (asked before the camera opens; a refusal shows the SPEC 8 help panel), photos are saved with
 * saveImageToPhotosAlbum after downloadFile, under scope.writePhotosAlbum. The camera view itself is
 * CameraView.weapp.tsx (Taro's Camera component + a 2d canvas).
 */
import Taro from '@tarojs/taro'
import { CameraError, type CameraPlatform, type SaveImageOutcome } from './types'

export type { CameraHandle, CameraPlatform, CameraProblem, CameraViewProps, CapturedPhoto, Facing, SaveImageOutcome, ViewSize } from './types'
export { CameraError } from './types'

const errMsg = (err: unknown) => String((err as { errMsg?: string } | null)?.errMsg ?? err ?? '')
const refused = (msg: string) => /auth|deny|denied|permission/i.test(msg)

/** Whether a scope is granted, asking once when it never was; false when refused (now or before). */
export async function ensureScope(scope: 'scope.camera' | 'scope.writePhotosAlbum'): Promise<boolean> {
  let granted: boolean | undefined
  try {
    const { authSetting } = await Taro.getSetting()
    granted = (authSetting as Record<string, boolean | undefined>)[scope]
  } catch {
    granted = undefined
  }
  if (granted !== undefined) return granted
  try {
    await Taro.authorize({ scope })
    return true
  } catch {
    return false
  }
}

export const cameraPlatform: CameraPlatform = {
  source: () => 'view',
  async prepare() {
    if (!(await ensureScope('scope.camera'))) throw new CameraError('denied', 'scope.camera refused')
  },
  async hostCapture() {
    throw new CameraError('unsupported', 'no host app around a mini-program')
  },
  async saveImage(url): Promise<SaveImageOutcome> {
    if (!(await ensureScope('scope.writePhotosAlbum'))) return 'denied'
    let filePath = url
    try {
      if (/^https?:\/\//.test(url)) {
        const res = await Taro.downloadFile({ url })
        if (res.statusCode !== 200) return 'failed'
        filePath = res.tempFilePath
      }
      await Taro.saveImageToPhotosAlbum({ filePath })
      return 'saved'
    } catch (err) {
      return refused(errMsg(err)) ? 'denied' : 'failed'
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
  release: () => undefined,
}
