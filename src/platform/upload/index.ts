/**
 * Choose an image and upload it (SPEC 7 /api/system/upload, multipart: file, type, userid,
 * groupid, token). Taro.chooseImage and Taro.uploadFile work alike on weapp and H5 (on H5 the path
 * is a blob URL that Taro turns back into the file).
 */
import Taro from '@tarojs/taro'
import type { Upload } from '../../../types/mapdata'
import { networkUploadError, parseUploadResponse } from './response'
import type { ImagePicker, UploadPlatform, UploadSender, UploadTarget } from './types'

export type { ImagePicker, UploadKind, UploadPlatform, UploadSender, UploadTarget } from './types'
export { parseUploadResponse } from './response'

export const uploadFile: UploadSender = async (filePath: string, target: UploadTarget, fileName?: string): Promise<Upload> => {
  let res: Taro.uploadFile.SuccessCallbackResult
  try {
    res = await Taro.uploadFile({
      url: target.url,
      filePath,
      name: 'file',
      formData: target.formData,
      ...(fileName ? { fileName } : {}),
      timeout: 60000,
    } as Taro.uploadFile.Option)
  } catch {
    throw networkUploadError()
  }
  return parseUploadResponse(res.statusCode, res.data)
}

export const chooseImages: ImagePicker = async (count: number): Promise<string[]> => {
  try {
    const res = await Taro.chooseImage({ count, sizeType: ['compressed'], sourceType: ['album', 'camera'] })
    return res.tempFilePaths ?? []
  } catch {
    // cancelled
    return []
  }
}

export const uploadPlatform: UploadPlatform = { send: uploadFile, chooseImages }
