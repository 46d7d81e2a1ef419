/**
 * The Content-Security-Policy of the H5 app's pages, made from the index.html the build wrote: the
 * hashes of its inline scripts (Taro's root font-size script) and the map sources it names
 * (src/index.html's teammap-map-* metas, set from AMAP_KEY and MAP_TILE_URL at build time, and the
 * other tile sources the keyless map offers), so the policy admits what this build loads and nothing else.
 */
import { createHash } from 'node:crypto'
import { AMAP_TILE_URL } from '../../src/domain/tileSources'

/** AMap JS API 2.0 and Loca: the loader's scripts, their JSONP services and tiles (*.amap.com, *.autonavi.com). */
const AMAP_SCRIPTS = ['https://*.amap.com']
const AMAP_DATA = ['https://*.amap.com', 'https://*.autonavi.com']

/** frameHosts: the sources /web may frame (WEB_FRAME_HOSTS, config.ts: `https://docs.example.com`); none, only this server's own pages. */
export function appContentSecurityPolicy(indexHtml: string, frameHosts: readonly string[] = []): string {
  const amap = metaContent(indexHtml, 'teammap-map-engine') === 'amap'
  const tiles = tileSource(metaContent(indexHtml, 'teammap-map-tiles') ?? '')
  // The keyless map also offers AMap's tiles (domain/tileSources.ts: 地图样式 → 底图来源).
  const amapTiles = metaContent(indexHtml, 'teammap-map-engine') === 'leaflet' ? tileSource(AMAP_TILE_URL) : null
  const directives: [string, ...string[]][] = [
    ['default-src', "'self'"],
    ['script-src', "'self'", ...inlineScriptHashes(indexHtml), ...(amap ? AMAP_SCRIPTS : [])],
    // Taro's components, NutUI and Leaflet set style attributes and insert <style> elements.
    ['style-src', "'self'", "'unsafe-inline'"],
    // data: Leaflet's and NutUI's inlined images; blob: camera photos and canvas exports shown before upload.
    ['img-src', "'self'", 'data:', 'blob:', ...(tiles ? [tiles] : []), ...(amapTiles ? [amapTiles] : []), ...(amap ? AMAP_DATA : [])],
    ['font-src', "'self'", 'data:'],
    // 'self' covers the API and, under CSP Level 3, ws:/wss: to this host (a live sync socket);
    // blob:/data: because uploading a photo reads its blob: URL.
    ['connect-src', "'self'", 'blob:', 'data:', ...(amap ? AMAP_DATA : [])],
    ['media-src', "'self'", 'blob:'],
    // 'self': the app's service worker (/sw.js) and its web app manifest.
    ['worker-src', "'self'", 'blob:'],
    ['manifest-src', "'self'"],
    // /web frames the operator's pages (platform/webview/WebFrame.h5.tsx): this server's and the
    // hosts the operator allows; any other page only opens in the browser, from the frame's bar.
    ['frame-src', "'self'", ...frameHosts],
    ['object-src', "'none'"],
    ['base-uri', "'self'"],
    ['form-action', "'self'"],
    // No other site may frame the app (a password prompt or a login under someone else's page).
    ['frame-ancestors', "'self'"],
  ]
  return directives.map((d) => d.join(' ')).join('; ')
}

/** 'sha256-…' of every inline <script> (no src) of the page, as the browser hashes its text. */
function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = []
  for (const m of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)) {
    if (/\bsrc\s*=/i.test(m[1]) || !m[2]) continue
    hashes.push(`'sha256-${createHash('sha256').update(m[2], 'utf8').digest('base64')}'`)
  }
  return hashes
}

function metaContent(html: string, name: string): string | null {
  for (const m of html.matchAll(/<meta\b[^>]*>/gi)) {
    if (!new RegExp(`\\bname\\s*=\\s*["']?${name}["'\\s>/]`, 'i').test(m[0])) continue
    const content = /\bcontent\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i.exec(m[0])
    return content ? unescapeHtml(content[1] ?? content[2] ?? content[3]) : ''
  }
  return null
}

/**
 * The source expression for a tile URL template: its origin, with a first label holding a
 * placeholder (`{s}.`, `webrd0{s}.`) as the `*.` wildcard. A placeholder deeper in the host cannot be
 * expressed, so the whole scheme is admitted rather than no tiles showing. Null for tiles on this
 * server (a relative template, already 'self') or a template that is not a URL.
 */
export function tileSource(template: string): string | null {
  const m = /^(https?:)?\/\/([^/?#]+)/i.exec(template.trim())
  if (!m) return null
  const scheme = (m[1] ?? '').toLowerCase()
  const host = m[2].replace(/^[^@]*@/, '').toLowerCase()
  const wildcard = host.replace(/^[a-z0-9-]*\{[a-z]+\}[a-z0-9-]*\./, '*.')
  if (wildcard.includes('{')) return scheme || 'https:'
  if (!/^(\*\.)?[a-z0-9.-]+(:\d+)?$/.test(wildcard)) return null
  return scheme ? `${scheme}//${wildcard}` : wildcard
}

function unescapeHtml(s: string): string {
  return s.replace(/&(amp|lt|gt|quot|#39|#x27);/g, (_, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", '#x27': "'" })[e]!)
}
