/**
 * How the stores get the upload platform (the mini-program): a static import, as for
 * payment (a dynamic import in code every page shares confuses Taro's weapp subpackage split).
 */
import { uploadPlatform, type UploadPlatform } from './index'

export const loadUploadPlatform = (): Promise<UploadPlatform> => Promise.resolve(uploadPlatform)
