/**
 * How the stores get the upload platform (H5): loaded on first use, out of the chunk every page loads
 * (Taro's H5 chooseImage and uploadFile are large); pages that pick images load it when they show.
 */
import type { UploadPlatform } from './types'

export const loadUploadPlatform = (): Promise<UploadPlatform> => import('./index').then((m) => m.uploadPlatform)
