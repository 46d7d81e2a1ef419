/** Share-link messages, apart from messages.ts so that only the sharing pages load them.
 * Beyond SPEC 5's messages, which live in MSG. */

export const SHARE_MSG = {
  nameTooLong: (max: number): string => `分享名称不能超过${max}个字`,
  pwdTooLong: (max: number): string => `分享密码不能超过${max}位`,
  expInvalid: '过期时间格式不正确',
  expNever: '永久有效',
  expOver: (exp: string): string => `已过期（${exp}）`,
  expToday: '今天到期（当天24点失效）',
  expUntil: (exp: string): string => `有效期至 ${exp}`,
  expPast: '过期时间不能早于今天',
  notFound: '分享不存在或已被删除',
  /** A forwarded card or preview of a share without a name. */
  untitled: '地图分享',
  /** The preview text chat apps show under a share's link. */
  preview: (group: string, locked: boolean): string => `${group} 的地图分享${locked ? '（需密码查看）' : ''}`,
  expired: '分享已过期',
  pwdWrong: '分享密码错误',
  pwdNeeded: '请输入分享密码后查看',
  pwdTooManyTries: '密码错误次数过多，请稍后再试',
  layerNotShareable: '没有分享该图层的权限',
  markerNotShareable: '没有分享该标注的权限',
  folderNotShareable: '文件夹不能分享，请选择其中的图层',
  typeInvalid: '分享类型无效',
  maskInvalid: '分享显示设置无效',
  styleInvalid: '分享的地图样式无效',
} as const
