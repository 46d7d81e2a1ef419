/**
 * Upgrade-prompt texts (SPEC 2 overlay 'new version found' with 'later' and 'upgrade now').
 * Apart from messages.ts so that only the upgrade dialog (loaded when due) and the server carry them.
 */

export const UPGRADE_MSG = {
  title: '发现新版本',
  later: '稍后',
  upgradeNow: '立即升级',
  /** The version line of the dialog. */
  versionText: (versionStr: string): string => `新版本 ${versionStr}`,
  /** When a release has no display name, its version code stands in. */
  versionCodeText: (code: number): string => `新版本（版本号 ${code}）`,
  currentVersion: (versionStr: string): string => `当前版本 ${versionStr}`,
  notesTitle: '更新内容',
  /** A release published without notes. */
  noNotes: '修复了一些问题，提升了使用体验',
  // Server validation of the check (SPEC 7 /api/system/check/upgrade {version})
  versionRequired: '请提供当前应用的版本号',
  versionInvalid: '版本号应为大于0的整数',
  platformInvalid: '仅支持安卓（android）或鸿蒙（harmony）应用检查更新',
} as const
