/**
 * Distribution texts (/reg, /distribution/view, /api/user/distribution/*), apart from
 * messages.ts so that only the two distribution pages (and the server) carry them.
 */

export const DIST_MSG = {
  // Registration input (the page and the server check the same rules)
  nameRequired: '请填写姓名',
  nameTooLong: (max: number): string => `姓名不能超过${max}个字`,
  companyTooLong: (max: number): string => `公司或团队名称不能超过${max}个字`,
  // The promotion code
  codeRequired: '请提供推广码',
  codeInvalid: '推广码无效',
  codeInvalidHint: '该推广码不存在，请检查链接是否完整，或联系邀请您的推广人。',
  noCodeHint: '还没有推广码？注册成为推广人，即可获得专属邀请链接和二维码。',
  goRegister: '注册成为推广人',
  enterApp: '进入应用',
  // /reg
  regTitle: '成为推广人',
  regSubtitle: '注册后获得专属邀请链接，邀请好友使用团队地图',
  regSubmit: '注册并获取推广码',
  registered: '注册成功',
  regTip: '同一手机号再次注册将找回原有的推广码',
  // /distribution/view: what an invitee sees
  inviter: (name: string): string => `${name} 邀请您使用`,
  // /distribution/view: the promoter's own page (registered on this device)
  ownTitle: '我的推广页',
  ownHint: '把邀请链接或二维码发给好友，好友通过链接登录后计入下方推广数据',
  inviteLinkTitle: '邀请链接',
  qrTip: '扫描二维码或打开链接即可注册使用',
  copyLink: '复制链接',
  useNow: '立即使用',
  registeredCount: '注册人数',
  paidCount: '付费人数',
  statsTitle: '推广数据',
  codeLabel: '推广码',
  download: '下载App',
  downloadGo: '前往下载',
  downloadHint: 'Android、鸿蒙手机可下载App使用',
  loadFailed: '加载失败，请稍后重试',
  retry: '重新加载',
} as const
