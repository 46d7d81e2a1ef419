/** Check-in (sign) messages, apart from messages.ts so that only the check-in sheet, the sign list and the server load them. */

export const SIGN_MSG = {
  /** Refused ticket: the position is outside the group's sign radius of the target. */
  outOfRange: (distance: number, radius: number): string => `当前位置距签到点${distance}米，超出签到范围${radius}米`,
  positionInvalid: '当前位置无效，请重新定位后再签到',
  targetTwice: '只能选择一个签到点（标注或任务）',
  markerNotFound: '签到点不存在或您无权查看',
  markerNoPosition: '该标注没有有效坐标，不能在此签到',
  taskNotFound: '任务不存在或已被删除',
  taskDone: '该任务已完成，不能再签到',
  ticketRequired: '请先定位获取签到信息',
  ticketInvalid: '签到信息无效，请重新签到',
  ticketNotYours: '该签到信息不属于当前账号或团队，请重新签到',
  ticketExpired: (minutes: number): string => `签到已超时（需在${minutes}分钟内提交），请重新签到`,
  ticketUsed: '该签到已提交，请勿重复提交',
  photoNotOfGroup: '照片不属于当前团队，请重新拍照',
  photoMissing: '照片文件不存在，请重新拍照',
  photoDuplicate: '同一张照片不能重复提交',
  photosTooMany: (max: number): string => `最多上传${max}张照片`,
  remarkTooLong: (max: number): string => `备注不能超过${max}个字`,
  addrTooLong: (max: number): string => `地址不能超过${max}个字`,
  notFound: '签到记录不存在或您无权查看',
  listForbidden: '您没有查看全部签到记录的权限',
  dateInvalid: '日期格式应为 YYYY-MM-DD',
  dateRange: '开始日期不能晚于结束日期',
  pageSizeTooLarge: (max: number): string => `每页最多${max}条`,
  saved: '签到成功',
  /** The target's label when a check-in is at no target. */
  freeTarget: '自由签到',
  verified: '已校验',
  verifyFailed: '校验失败',
  verifyRecord: '签到记录被修改',
  verifyPhoto: '照片被替换或已丢失',
  /** A list page checks each record's signature; its photo files are checked when asked, one record at a time. */
  checkPhotos: '校验照片',
  photosChecked: '照片已校验',
} as const
