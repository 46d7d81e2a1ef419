/** Texts of the mobile app download page (GET /download, rendered by the API server). */

export const DOWNLOAD_MSG = {
  title: (brand: string): string => `${brand} App下载`,
  slogan: '团队协作的地图数据',
  android: 'Android 版',
  harmony: '鸿蒙版（HarmonyOS）',
  version: (name: string): string => `版本 ${name}`,
  released: (day: string): string => `${day} 发布`,
  notesTitle: '更新内容',
  downloadButton: '下载安装包',
  none: '暂无可下载的版本',
  noneHint: '新版本发布后即可在此下载，也可以在微信小程序中使用',
  iphone: (brand: string): string => `iPhone 用户请在微信中搜索「${brand}」小程序使用`,
  /** WeChat's in-app browser blocks APK downloads. */
  wechatOverlay: '请点击右上角「…」，选择在浏览器中打开',
  wechatOverlayHint: 'Android 手机在微信中无法直接下载安装包',
} as const
