/**
 * Check-in client messages (the check-in sheet, the watermark camera, the sign list, image
 * saving). Texts the server says too come from signMessages.ts, so both sides read the same words.
 */
import { SIGN_PHOTOS_MAX, SIGN_REMARK_MAX, SIGN_TICKET_TTL_S } from './sign'
import { SIGN_MSG } from './signMessages'

export const CHECKIN_MSG = {
  /** SPEC 8: any camera failure. */
  cameraFailed: '相机拍照错误，请稍后再试',
  /** SPEC 8: the camera-permission help panel. */
  cameraHelpTitle: '无法使用相机',
  cameraHelpIntro: '没有获得相机权限，请按以下步骤尝试：',
  cameraHelpSteps: ['重新启动应用后再试', '在系统设置中检查并允许本应用使用相机', '卸载后重新安装应用', '仍无法使用请联系客服'] as const,
  /** SPEC 8: the camera requires https (an insecure page has no camera). */
  cameraHttps: '相机需要在 https 安全连接下使用，请通过 https 地址打开本页面',
  openSettings: '去设置',
  contactService: '联系客服',
  gotIt: '我知道了',
  cameraStarting: '正在打开相机…',
  switchCamera: '切换',
  cancel: '取消',
  locating: '正在定位…',
  locateDenied: '没有定位权限，无法签到，请在设置中允许获取位置',
  locateFailed: '无法获取当前位置，请稍后再试',
  retry: '重新定位',
  /** The server measures the position and signs the ticket at the time: no check-in is kept for later. */
  needsNetwork: '签到需要网络，请联网后再签到',
  takePhoto: '拍照',
  photoRequired: '请至少拍摄一张照片',
  photosMax: SIGN_MSG.photosTooMany(SIGN_PHOTOS_MAX),
  remarkPlaceholder: '备注（选填）',
  remarkTooLong: SIGN_MSG.remarkTooLong(SIGN_REMARK_MAX),
  submit: '提交签到',
  ticketExpired: SIGN_MSG.ticketExpired(SIGN_TICKET_TTL_S / 60),
  uploadFailed: '照片上传失败，请稍后再试',
  saved: SIGN_MSG.saved,
  free: SIGN_MSG.freeTarget,
  sheetTitle: '签到',
  goSign: '去签到',
  mine: '我的签到',
  all: '全部签到',
  empty: '暂无签到记录',
  loadMore: '加载更多',
  noMore: '没有更多了',
  verified: SIGN_MSG.verified,
  verifyFailed: SIGN_MSG.verifyFailed,
  verifyReason: { record: SIGN_MSG.verifyRecord, photo: SIGN_MSG.verifyPhoto } as const,
  checkPhotos: SIGN_MSG.checkPhotos,
  photosChecked: SIGN_MSG.photosChecked,
  saveImage: '保存图片',
  imageSaved: '图片已保存',
  imageSaveFailed: '保存图片失败，请稍后再试',
  albumDenied: '没有保存到相册的权限，请在设置中允许后再试',
  imageDownloaded: '图片已开始下载',
}
