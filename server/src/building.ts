/**
 * The page the server answers for the app's pages while `npm start` is still building the H5 app
 * (scripts/start.mjs): the API already works, and a browser opening the app sees that the build is
 * under way instead of a refused connection. It has no script (it refreshes itself with a meta
 * refresh) and nothing from outside, so its policy admits only its own <style>.
 */
import { createHash } from 'node:crypto'
import { H5_BUILDING_MSG } from '../../src/domain/systemMessages'

/** Seconds between the page's reloads: the build takes minutes, a reload is one small request. */
export const BUILDING_REFRESH_S = 5

const STYLE =
  'body{margin:0;font-family:-apple-system,BlinkMacSystemFont,"PingFang SC","Microsoft YaHei",sans-serif;background:#f5f6f8;color:#1d2129}' +
  'main{max-width:480px;margin:0 auto;padding:120px 24px;text-align:center}' +
  'h1{margin:0 0 16px;font-size:22px;font-weight:600;color:#165dff}' +
  'p{margin:0;font-size:15px;line-height:1.6;color:#4e5969}'

export const BUILDING_PAGE =
  '<!doctype html><html lang="zh-CN"><head><meta charset="utf-8">' +
  '<meta name="viewport" content="width=device-width,initial-scale=1">' +
  `<meta http-equiv="refresh" content="${BUILDING_REFRESH_S}">` +
  `<title>${H5_BUILDING_MSG.title}</title><style>${STYLE}</style></head>` +
  `<body><main><h1>${H5_BUILDING_MSG.title}</h1><p>${H5_BUILDING_MSG.detail}</p></main></body></html>`

export const BUILDING_PAGE_POLICY = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(STYLE, 'utf8').digest('base64')}'`,
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'self'",
].join('; ')
