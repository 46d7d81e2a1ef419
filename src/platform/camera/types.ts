/** The watermark camera and image saving: what the check-in sheet, the photo preview and the stores need of a platform. */
import type { WatermarkText } from '../../domain/watermark'

/**
 * Why no photo came: camera access refused ('denied': the help panel of SPEC 8), a page that is not
 * https ('insecure': SPEC 8 "the camera requires https"), no camera API at all ('unsupported'), or
 * anything else ('failed': '相机拍照错误，请稍后再试').
 */
export type CameraProblem = 'denied' | 'insecure' | 'unsupported' | 'failed'

export class CameraError extends Error {
  constructor(
    readonly kind: CameraProblem,
    message: string = kind,
  ) {
    super(message)
    this.name = 'CameraError'
    Object.setPrototypeOf(this, new.target.prototype)
  }
}

/** A photo taken, watermarked and exported, ready for the uploader. */
export interface CapturedPhoto {
  /** weapp: a temp file path; H5: a blob: URL (Taro's uploadFile reads both). */
  path: string
  width: number
  height: number
  /** The name the upload carries (a JPEG). */
  fileName: string
}

/** The on-screen size of the picture the photo fills (the video: window width x window height - 200). */
export interface ViewSize {
  width: number
  height: number
}

export type Facing = 'back' | 'front'

/** Where an image went: the album (weapp, or the host app), a browser download, or nowhere. */
export type SaveImageOutcome = 'saved' | 'downloaded' | 'denied' | 'failed'

export interface CameraPlatform {
  /** 'host': the native host app's camera takes the photo (H5 inside our app); 'view': our camera view. */
  source(): 'host' | 'view'
  /** Before the camera view opens: asks for camera access where the platform asks (weapp scope.camera). Rejects CameraError. */
  prepare(): Promise<void>
  /**
   * With source() 'host': the host's camera takes one photo, and the watermark is painted on it here
   * (a picture as wide as `viewWidth` on screen, exported at 4x). Null when the user cancelled.
   * Rejects CameraError.
   */
  hostCapture(watermark: WatermarkText, viewWidth: number): Promise<CapturedPhoto | null>
  /** Saves an image (an http(s) URL) to the photo album (weapp, host app) or downloads it (a browser). */
  saveImage(url: string): Promise<SaveImageOutcome>
  /** Opens the settings where camera or album access is granted; false where none can be opened. */
  openSettings(): Promise<boolean>
  /** Frees what a captured photo holds (H5 revokes its blob URL). */
  release(photo: CapturedPhoto): void
}

/** What a camera view gives its owner once the camera runs. */
export interface CameraHandle {
  /** Whether another camera (front / back) can be switched to. */
  canSwitch: boolean
  /** Takes a photo of what the view shows, with the watermark painted at 4x (SPEC 9). Rejects CameraError. */
  capture(watermark: WatermarkText): Promise<CapturedPhoto>
}

export interface CameraViewProps {
  facing: Facing
  /** On-screen size of the picture. */
  width: number
  height: number
  onReady(handle: CameraHandle): void
  onError(error: CameraError): void
}
