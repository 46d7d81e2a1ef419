/** Uploads (SPEC 7 /api/system/upload): the types shared by the adapter, the stores and tests. */
import type { Upload } from '../../../types/mapdata'

/** Where a file goes and the multipart fields sent with it (type, userid, groupid, token). */
export interface UploadTarget {
  url: string
  formData: Record<string, string>
}

/** Sends one local file (a temp path on weapp, a blob URL on H5); throws ApiError with the SPEC 8 message. */
export type UploadSender = (filePath: string, target: UploadTarget, fileName?: string) => Promise<Upload>

/** Lets the user pick images (camera or album); resolves to local paths, empty when cancelled. */
export type ImagePicker = (count: number) => Promise<string[]>

/** Picking images and sending files: what pages and stores reach through RootStore.platform. */
export interface UploadPlatform {
  send: UploadSender
  chooseImages: ImagePicker
}

/** What the upload kinds are called in the `type` field. */
export type UploadKind = 'note' | 'field' | 'icon' | 'sign'
