/**
 * WeChat's privacy agreement (用户隐私保护指引): since 2023 the mini-program's private APIs
 * (location, album, camera, clipboard, choosing files) fail until the user agreed to the guide the
 * operator filled in on the console, and a kind of data the guide does not declare fails always.
 * WeChat reports both in English; these are the Chinese messages with the way out.
 */
export const PRIVACY_MSG = {
  title: '隐私保护提示',
  /** What the app collects and why, shown before the user agrees. */
  intro:
    '为了在地图上显示您的位置、签到和记录标注，团队地图会使用：位置信息（定位、签到、轨迹）、相册和摄像头（标注照片、签到拍照）、剪贴板（复制邀请链接）、聊天文件（导入表格）。这些信息只用于团队协作，不会用于其他用途。',
  contractLink: '查看《隐私保护指引》',
  agree: '同意并继续',
  refuse: '拒绝',
  /** The user refused the agreement: the feature waits until they agree, the rest of the app works. */
  refused: '您未同意《隐私保护指引》，暂时无法使用该功能；再次使用时点击“同意并继续”即可',
  /** The console's guide does not declare this kind of data: only the operator can fix it. */
  undeclared: '该功能所需的信息未在小程序《隐私保护指引》中声明，暂时无法使用，请联系客服',
  contractFailed: '无法打开《隐私保护指引》，请稍后再试',
} as const

/**
 * The Chinese message for a WeChat failure caused by the privacy agreement, or null for any other
 * failure. `privacy permission is not authorized` (errno 104) after a refusal,
 * `api scope is not declared in the privacy agreement` (errno 112) for an undeclared kind.
 */
export function privacyFailureMessage(err: unknown): string | null {
  const e = (err ?? {}) as { errMsg?: unknown; errno?: unknown }
  const text = String(e.errMsg ?? err ?? '')
  if (e.errno === 112 || /api scope is not declared in the privacy agreement/i.test(text)) return PRIVACY_MSG.undeclared
  if (e.errno === 104 || /privacy permission is not authori[sz]ed/i.test(text)) return PRIVACY_MSG.refused
  return null
}
