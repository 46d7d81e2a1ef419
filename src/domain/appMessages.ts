/**
 * Messages of the about, my-info, settings, external-page and redirect screens, apart
 * from messages.ts so that only those pages load them.
 */
import type { AreaUnit } from './points'

export const APP_MSG = {
  webUrlInvalid: '链接无效',
  webUrlHint: '只能打开以 http:// 或 https:// 开头的网页链接',
  webOpenInBrowser: '在浏览器中打开',
  webFrameHint: '页面空白或无法显示时，请在浏览器中打开',
  webUnreachable: '页面无法打开',
  webUnreachableHint: '请检查网络或链接地址后重试',
  webRetry: '重试',
  redirecting: '正在跳转…',
  profileSaved: '已保存',
  avatarSaved: '头像已更新',
  avatarUploading: '上传中…',
  aboutDescription: '团队地图是面向团队的协作地图数据工具：在图层中管理点、线、面标注，为标注添加备注和照片，在地图上签到，规划路线、分派任务，并通过分享链接把地图数据交给同事和客户查看。',
  versionLabel: (version: string, client: number): string => `版本 ${version}（${client}）`,
  clusterCountHint: '默认跟随团队设置',
  /** What the 底图 switch (map_style bg) does, under its label. */
  mapBgHint: '关闭后隐藏底图，只看标注',
  settingsKeptLocally: '设置保存在本机，退出登录后恢复默认',
  lengthUnitAuto: '米 / 公里（自动）',
  /** A football pitch (about 7140 m²) shown in the chosen unit, so the choice is concrete. */
  areaUnitExample: (formatted: string): string => `示例：一个标准足球场约 ${formatted}`,
}

/** What each area unit is called in the settings. */
export const AREA_UNIT_LABELS: Record<AreaUnit, string> = {
  m2: '平方米',
  mu: '亩',
  ha: '公顷',
}

/** Map type (SPEC 3 map_style.type): 0 standard, 1 satellite. */
export const MAP_TYPE_LABELS: Record<0 | 1, string> = {
  0: '标准地图',
  1: '卫星地图',
}
