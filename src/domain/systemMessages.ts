/**
 * Messages of image URL fields, the operator's system config and the member lookup (our wording;
 * SPEC is silent on these).
 */
export const FILE_URL_MSG = {
  icon: '图标只能使用本应用上传的图片，请重新上传',
  avatar: '头像只能使用本应用上传的图片，请重新上传',
  photo: '照片只能使用本应用上传的图片，请重新上传',
  fieldPhoto: (field: string): string => `「${field}」只能使用本应用上传的图片，请重新上传`,
  logo: 'Logo只能使用本应用上传的图片或https开头的图片地址',
} as const

export const SYSTEM_CONFIG_MSG = {
  operatorDisabled: '运营管理接口未启用：服务器未设置 ADMIN_TOKEN',
  operatorOnly: '仅运营人员可以修改系统配置，请提供正确的运营凭证',
  operatorTooManyTries: '运营凭证错误次数过多，请稍后再试',
  nothingToSave: '请提供要修改的配置项',
  brandRequired: '请输入品牌名称',
  brandTooLong: (max: number): string => `品牌名称最多${max}个字`,
  signRadiusRange: (min: number, max: number): string => `签到范围需为${min}到${max}米之间的整数`,
  switchInvalid: (name: string): string => `${name}需为开或关（true/false）`,
  servicePhoneInvalid: '客服电话只能包含数字和短横线，如 400-800-1234',
  serviceUrlInvalid: '客服链接需为https开头的网址',
  saved: '系统配置已保存',
} as const

export const LOOKUP_MSG = {
  keyRequired: '请输入手机号或账号',
  keyBoth: '手机号和账号只能填写一个',
  uidInvalid: '请输入正确的账号',
  phoneNotFound: '该手机号尚未注册：邀请后，对方注册并同意即加入团队',
  uidNotFound: '未找到该账号',
  tooMany: '查询过于频繁，请稍后再试',
} as const

/** The page the server shows while `npm start` builds the H5 app for the first time (server/src/building.ts). */
export const H5_BUILDING_MSG = {
  title: '正在构建前端…',
  detail: '首次启动需要构建前端，约需数分钟。本页每隔几秒自动刷新，构建完成后自动打开应用。',
} as const
