/**
 * Messages of consent and sessions: team invitations the invited person answers, sharing one's
 * position with the team, the list of signed-in devices, and the limits on public calls that could
 * be pumped or used to find out who is registered.
 */
export const INVITE_MSG = {
  title: '团队邀请',
  /** The invitation as the invited person sees it. */
  line: (inviter: string, team: string): string => `${inviter || '团队管理员'} 邀请你加入「${team}」`,
  /** Under 我的, below the team's name. */
  byLine: (inviter: string): string => `${inviter || '团队管理员'} 邀请你加入`,
  accept: '加入',
  decline: '拒绝',
  later: '稍后再说',
  /** The team page's list of people invited by phone who have not answered yet. */
  pendingHint: '对方登录并同意邀请后加入',
  more: (n: number): string => `还有${n}个团队邀请`,
  accepted: (team: string): string => `已加入「${team}」`,
  declined: '已拒绝邀请',
  notFound: '邀请已失效',
  none: '暂无邀请',
} as const

export const LOCATION_SHARE_MSG = {
  /** The quiet line on the map while the position goes to the team. */
  sharing: (team: string): string => `位置共享中 · ${team}`,
  settingTitle: '向团队共享我的位置',
  settingHint: '当前团队的成员可看到你的最新位置，离开团队后即不再可见',
  turnedOff: '已停止共享位置',
  turnedOn: '已开始共享位置',
} as const

export const DEVICES_MSG = {
  title: '登录设备',
  current: '本机',
  lastActive: (when: string): string => `最近使用 ${when}`,
  signOutOthers: '退出其他设备',
  confirm: '其他设备上的登录将失效，需要重新登录。确定退出其他设备吗？',
  done: (n: number): string => (n > 0 ? `已退出${n}台其他设备` : '没有其他设备登录'),
  onlyThis: '仅本机登录',
} as const

/** The kinds of device a session names (header.device and header.os). */
export const DEVICE_LABELS: Record<string, string> = {
  app_weapp: '微信小程序',
  app_h5: '网页',
  android: 'Android',
  ios: 'iOS',
  harmony: '鸿蒙',
}

export const RATE_MSG = {
  codeAddressCap: '该网络发送验证码过于频繁，请一小时后再试',
  codeGlobalCap: '验证码发送繁忙，请稍后再试',
  phoneLookup: '查询过于频繁，请稍后再试',
  inviteInfo: '邀请码查询过于频繁，请稍后再试',
  /** A share password tried too often from here: the next try waits. */
  sharePwdWait: (seconds: number): string => `密码错误次数过多，请${seconds}秒后再试`,
} as const
