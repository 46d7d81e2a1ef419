/**
 * GET /download (routes/download.ts): the brand of the system config and the newest Android and
 * HarmonyOS releases of app_releases, rendered by presenters/download.ts; inside WeChat the page
 * is covered by a hint to open it in the browser.
 */
import { RELEASE_PLATFORMS } from '../../../src/domain/upgrade'
import { newestRelease, type AppReleaseRow } from '../db/app-releases'
import type { Executor } from '../db/connection'
import { getSystemConfig } from '../db/system-config'
import { renderDownloadPage } from '../presenters/download'

/** WeChat's in-app browser (its user agent carries MicroMessenger). */
export function isWeChatBrowser(userAgent: string | undefined): boolean {
  return /MicroMessenger/i.test(userAgent ?? '')
}

/** The page's HTML for a visitor with this user agent. */
export async function downloadPageHtml(db: Executor, userAgent: string | undefined): Promise<string> {
  const [config, ...newest] = await Promise.all([getSystemConfig(db), ...RELEASE_PLATFORMS.map((p) => newestRelease(db, p))])
  return renderDownloadPage({
    brand: config.brand,
    releases: newest.filter((r): r is AppReleaseRow => !!r),
    inWeChat: isWeChatBrowser(userAgent),
  })
}
