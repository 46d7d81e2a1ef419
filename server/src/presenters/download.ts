/** The /download page (routes/download.ts): the brand and the newest releases as self-contained HTML, every text escaped. */
import type { ReleasePlatform } from '../../../types/upgrade'
import { DEFAULT_SYSTEM_CONFIG } from '../../../src/domain/constants'
import { DOWNLOAD_MSG } from '../../../src/domain/downloadMessages'
import { isDownloadUrl, noteLines } from '../../../src/domain/upgrade'
import type { AppReleaseRow } from '../db/app-releases'

const PLATFORM_NAMES: Record<ReleasePlatform, string> = { android: DOWNLOAD_MSG.android, harmony: DOWNLOAD_MSG.harmony }

/** Text placed in HTML (element content or a quoted attribute). */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)
}

/** The release day in Asia/Shanghai (DESIGN 9), e.g. '2025-06-01'. */
function shanghaiDay(iso: string): string {
  const t = Date.parse(iso)
  return Number.isNaN(t) ? '' : new Date(t + 8 * 3600_000).toISOString().slice(0, 10)
}

export interface DownloadPage {
  brand: string
  releases: AppReleaseRow[]
  inWeChat: boolean
}

function releaseCard(row: AppReleaseRow): string {
  const notes = noteLines(row.notes)
  const day = shanghaiDay(row.created_at)
  const url = row.download_url.trim()
  return `<section class="card" data-platform="${escapeHtml(row.platform)}">
<div class="card-head"><h2>${escapeHtml(PLATFORM_NAMES[row.platform] ?? row.platform)}</h2><span class="version">${escapeHtml(DOWNLOAD_MSG.version(row.version_name || String(row.version_code)))}</span></div>
${day ? `<p class="muted">${escapeHtml(DOWNLOAD_MSG.released(day))}</p>` : ''}
${notes.length ? `<h3>${escapeHtml(DOWNLOAD_MSG.notesTitle)}</h3><ul class="notes">${notes.map((n) => `<li>${escapeHtml(n)}</li>`).join('')}</ul>` : ''}
${isDownloadUrl(url) ? `<a class="button" href="${escapeHtml(url)}" rel="noopener">${escapeHtml(DOWNLOAD_MSG.downloadButton)}</a>` : ''}
</section>`
}

const STYLE = `*{box-sizing:border-box}body{margin:0;font-family:-apple-system,BlinkMacSystemFont,"PingFang SC","Microsoft YaHei",sans-serif;background:#f5f6f8;color:#1d2129;-webkit-text-size-adjust:100%}
.hero{display:flex;flex-direction:column;align-items:center;padding:48px 24px 28px;background:linear-gradient(180deg,#e8f3ff 0%,#f5f6f8 100%)}
.logo{width:72px;height:72px;border-radius:18px;background:#165dff;color:#fff;font-size:34px;font-weight:600;display:flex;align-items:center;justify-content:center}
h1{margin:14px 0 4px;font-size:22px}.muted{color:#86909c;font-size:13px;margin:4px 0}
main{padding:0 16px 32px;max-width:560px;margin:0 auto}
.card{background:#fff;border-radius:12px;padding:16px;margin-bottom:14px;box-shadow:0 4px 16px rgba(22,93,255,.06)}
.card-head{display:flex;align-items:baseline;justify-content:space-between;gap:8px}.card h2{margin:0;font-size:17px}
.version{color:#165dff;font-size:14px;white-space:nowrap}.card h3{margin:12px 0 4px;font-size:14px;color:#4e5969}
.notes{margin:0;padding-left:20px;color:#4e5969;font-size:14px;line-height:1.7;overflow-wrap:anywhere}
.button{display:block;margin-top:14px;padding:11px 0;border-radius:22px;background:#165dff;color:#fff;text-align:center;text-decoration:none;font-size:16px}
.empty{text-align:center;padding:32px 16px}.empty p{margin:6px 0}.empty strong{font-size:16px}
.foot{text-align:center;color:#86909c;font-size:12px;margin-top:8px}
.wechat{position:fixed;inset:0;background:rgba(0,0,0,.86);color:#fff;z-index:10;padding:16px 20px;text-align:right}
.wechat .arrow{font-size:44px;line-height:1;margin-right:6px}.wechat p{margin:12px 0 0;font-size:18px;line-height:1.6}.wechat .hint{font-size:14px;opacity:.8}`

/** The page's HTML (pure, for tests). */
export function renderDownloadPage({ brand, releases, inWeChat }: DownloadPage): string {
  const name = brand.trim() || DEFAULT_SYSTEM_CONFIG.brand
  const body = releases.length
    ? releases.map(releaseCard).join('\n')
    : `<section class="card empty"><p><strong>${escapeHtml(DOWNLOAD_MSG.none)}</strong></p><p class="muted">${escapeHtml(DOWNLOAD_MSG.noneHint)}</p></section>`
  const overlay = inWeChat
    ? `<div class="wechat" role="dialog"><div class="arrow">&#x2197;</div><p>${escapeHtml(DOWNLOAD_MSG.wechatOverlay)}</p><p class="hint">${escapeHtml(DOWNLOAD_MSG.wechatOverlayHint)}</p></div>`
    : ''
  return `<!doctype html>
<html lang="zh-CN">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1,viewport-fit=cover">
<title>${escapeHtml(DOWNLOAD_MSG.title(name))}</title>
<style>${STYLE}</style>
</head>
<body>
<header class="hero"><div class="logo">${escapeHtml(Array.from(name)[0] ?? '')}</div><h1>${escapeHtml(name)}</h1><p class="muted">${escapeHtml(DOWNLOAD_MSG.slogan)}</p></header>
<main>
${body}
<p class="foot">${escapeHtml(DOWNLOAD_MSG.iphone(name))}</p>
</main>
${overlay}
</body>
</html>
`
}
