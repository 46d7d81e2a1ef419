/**
 * The app-upgrade prompt (SPEC 4 "Upgrade prompt": only on Android or HarmonyOS, once a
 * day; either button stores today's date). Only the H5 app asks — inside our Android/HarmonyOS host
 * app or an Android phone's browser; WeChat updates mini-programs itself and iOS has its store.
 */
import type { ReleasePlatform, UpgradeCheck } from '../../types/upgrade'
import { APP_VERSION_STR, CLIENT_VERSION } from './constants'
import { UPGRADE_MSG } from './upgradeMessages'

export { APP_VERSION_STR, CLIENT_VERSION }

/** Platforms with releases, as the server validates them. */
export const RELEASE_PLATFORMS = ['android', 'harmony'] as const satisfies readonly ReleasePlatform[]

/** The release platform of an H5 app on this OS (from device.osOf), or null where nobody asks. */
export function releasePlatformOf(os: string, runPlatform: string): ReleasePlatform | null {
  if (runPlatform !== 'h5') return null
  const value = os.trim().toLowerCase()
  return (RELEASE_PLATFORMS as readonly string[]).includes(value) ? (value as ReleasePlatform) : null
}

/** Whether this app asks for upgrades at all: H5 on Android or HarmonyOS (not weapp, not iOS). */
export function shouldCheckUpgrade(os: string, runPlatform: string): boolean {
  return releasePlatformOf(os, runPlatform) !== null
}

/** Once a day: due unless a button was pressed on `today` (both 'YYYY-MM-DD', Asia/Shanghai, from shanghaiDay). */
export function promptDue(lastPromptDay: string | null | undefined, today: string): boolean {
  return !lastPromptDay || lastPromptDay !== today
}

/** Whether a release's version code is above the client's. */
export function isNewerVersion(releaseVersion: number, clientVersion: number = CLIENT_VERSION): boolean {
  return Number.isInteger(releaseVersion) && releaseVersion > clientVersion
}

/** The dialog's version line, e.g. '新版本 1.0.40'. */
export function versionText(versionStr: string | null | undefined, versionCode: number): string {
  const name = (versionStr ?? '').trim()
  return name ? UPGRADE_MSG.versionText(name) : UPGRADE_MSG.versionCodeText(versionCode)
}

/** Update notes as lines: split on line breaks, trimmed, blank lines dropped. */
export function noteLines(notes: string | readonly string[] | null | undefined): string[] {
  const text = Array.isArray(notes) ? notes.join('\n') : typeof notes === 'string' ? notes : ''
  return text
    .split(/\r\n|\r|\n/)
    .map((line) => line.trim())
    .filter(Boolean)
}

/** Only a web address may be opened as the installer (never javascript: or a relative path). */
export function isDownloadUrl(url: string | null | undefined): boolean {
  return /^https?:\/\/[^\s/?#]+/i.test((url ?? '').trim())
}

/** The prompt as app state (SPEC 3 app_upgrade: show, version) with the notes and the installer. */
export interface AppUpgrade {
  show: boolean
  /** The dialog's version line ('新版本 1.0.40'). */
  version: string
  notes: string[]
  url: string
}

export const NO_UPGRADE: AppUpgrade = { show: false, version: '', notes: [], url: '' }

/**
 * What to show for the server's answer: the prompt when it names a release above the client's
 * version with a web installer address, else null (nothing to offer, or nothing that could open).
 */
export function upgradePromptOf(check: UpgradeCheck | null | undefined, clientVersion: number = CLIENT_VERSION): AppUpgrade | null {
  const latest = check?.has_update ? check.latest : null
  if (!latest || !isNewerVersion(latest.version, clientVersion) || !isDownloadUrl(latest.download_url)) return null
  const notes = noteLines(latest.upgrades)
  return {
    show: true,
    version: versionText(latest.version_str, latest.version),
    notes: notes.length ? notes : [UPGRADE_MSG.noNotes],
    url: latest.download_url.trim(),
  }
}
