/**
 * Serves the H5 build. Paths that are not files get index.html so that the app's browser-mode
 * routes (/map, /share/view ...) load; /api/* never does and answers 404 JSON instead. Pages go
 * out with the app's Content-Security-Policy (csp.ts), which among others forbids other sites to
 * frame them. The service worker (sw.js) is asked for afresh each time; the web app manifest goes out
 * as application/manifest+json. While `npm start` still builds the app (options.building), every page is the small
 * building page (building.ts) instead, and the API already answers.
 */
import fastifyStatic from '@fastify/static'
import type { FastifyInstance } from 'fastify'
import { readFile, stat } from 'node:fs/promises'
import { join, resolve, sep } from 'node:path'
import { BUILDING_PAGE, BUILDING_PAGE_POLICY, BUILDING_REFRESH_S } from './building'
import { appContentSecurityPolicy } from './csp'
import { escapeHtml } from './presenters/download'

export interface StaticOptions {
  /** True while the H5 build is being made: its folder is missing or half written. */
  building?: () => boolean
  /** Open Graph tags for a page (a share's name and card picture on /share/view), so chat apps show a preview; null for none. */
  pageTags?: (path: string, query: URLSearchParams, origin: string) => Promise<PageTags | null>
  /** The hosts /web may frame (WEB_FRAME_HOSTS, csp.ts). */
  frameHosts?: readonly string[]
}

export interface PageTags {
  title: string
  description: string
  /** Absolute address of a picture. */
  image?: string
}

/** The page with its og: tags before </head> (chat apps read only the HTML, never run the app). */
export function withPageTags(html: string, tags: PageTags): string {
  const meta = [['og:type', 'website'], ['og:title', tags.title], ['og:description', tags.description], ...(tags.image ? [['og:image', tags.image]] : [])]
    .map(([property, content]) => `<meta property="${property}" content="${escapeHtml(content)}">`)
    .join('')
  return /<\/head>/i.test(html) ? html.replace(/<\/head>/i, `${meta}</head>`) : html.replace(/<html[^>]*>/i, (open) => `${open}<head>${meta}</head>`)
}

export async function registerStatic(app: FastifyInstance, dir: string, options: StaticOptions = {}): Promise<void> {
  const root = resolve(dir)
  const policy = pagePolicy(join(root, 'index.html'), options.frameHosts ?? [])
  await app.register(fastifyStatic, { root, serve: false })
  app.get('/*', async (request, reply) => {
    const path = request.url.split('?')[0]
    if (path === '/api' || path.startsWith('/api/')) return reply.callNotFound()
    if (options.building?.()) {
      return reply
        .code(503)
        .header('content-type', 'text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .header('retry-after', String(BUILDING_REFRESH_S))
        .header('content-security-policy', BUILDING_PAGE_POLICY)
        .send(BUILDING_PAGE)
    }
    const file = (await existingFile(root, path)) ?? 'index.html'
    if (file.endsWith('.html')) {
      const csp = await policy()
      if (csp) reply.header('content-security-policy', csp)
    }
    if (file === 'index.html' && options.pageTags) {
      const tags = await options.pageTags(path, new URLSearchParams(request.url.split('?')[1] ?? ''), `${request.protocol}://${request.host}`)
      const html = tags ? await readFile(join(root, 'index.html'), 'utf8').catch(() => null) : null
      if (tags && html) return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(withPageTags(html, tags))
    }
    // The browser asks for the worker again at every start and installs a new build's from it: never an older copy.
    if (file === SERVICE_WORKER_FILE) return reply.header('cache-control', 'no-cache').sendFile(file, { cacheControl: false })
    return reply.sendFile(file)
  })
}

/** The H5 build's service worker (config/pwa), at the root so that it serves every route. */
export const SERVICE_WORKER_FILE = 'sw.js'

/** The policy for the build's index.html, made again only when a new build replaced the file. */
function pagePolicy(indexFile: string, frameHosts: readonly string[]): () => Promise<string | null> {
  let made: { version: string; csp: string } | null = null
  return async () => {
    try {
      const s = await stat(indexFile)
      const version = `${s.mtimeMs}:${s.size}`
      if (made?.version !== version) made = { version, csp: appContentSecurityPolicy(await readFile(indexFile, 'utf8'), frameHosts) }
      return made.csp
    } catch {
      return null // no build yet: sendFile answers 404
    }
  }
}

/** The path relative to root when it names a file inside root, else null. */
async function existingFile(root: string, urlPath: string): Promise<string | null> {
  let decoded: string
  try {
    decoded = decodeURIComponent(urlPath)
  } catch {
    return null
  }
  const full = resolve(root, '.' + decoded)
  if (!full.startsWith(root + sep)) return null
  try {
    return (await stat(full)).isFile() ? full.slice(root.length + 1) : null
  } catch {
    return null
  }
}
