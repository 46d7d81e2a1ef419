/**
 * The external page (/web?url=...) and the redirect helper (/redirect/{path}) of SPEC 2: which
 * address may open, and where a redirect link leads. Pure: the pages pass what the router knows.
 */
import { APP_MSG } from './appMessages'

/** Longer addresses are not links a person shares. */
export const WEB_URL_MAX = 2048

const WEB_URL_RE = /^https?:\/\/(\[[0-9a-f:.]+\]|[^\s/?#@:[\]\\]+)(:\d{1,5})?([/?#][^\s]*)?$/i
const SCHEME_RE = /^https?:\/\//i

/** An http(s) address with a host and nothing that cannot be part of a link. */
export function isWebUrl(url: string): boolean {
  // eslint-disable-next-line no-control-regex -- control characters cannot be part of a link
  return url.length <= WEB_URL_MAX && !/[\u0000-\u001f\u007f]/.test(url) && WEB_URL_RE.test(url)
}

function decodeOnce(s: string): string {
  try {
    return decodeURIComponent(s)
  } catch {
    return s
  }
}

export type WebTarget = { ok: true; url: string } | { ok: false; message: string }

/**
 * The page /web shows, from its `url` parameter. The parameter may arrive encoded once (H5) or
 * twice (the mini-program passes page options on raw): it is decoded until it reads as an address,
 * at most twice, and never once it does (a '%' inside a real address stays).
 */
export function webTarget(param: string | null | undefined): WebTarget {
  let url = (param ?? '').trim()
  for (let i = 0; i < 2 && url && !SCHEME_RE.test(url); i++) url = decodeOnce(url).trim()
  return isWebUrl(url) ? { ok: true, url } : { ok: false, message: APP_MSG.webUrlInvalid }
}

/** 'example.com' from 'https://example.com:8443/a?b': shown above the page. */
export function hostOf(url: string): string {
  const m = WEB_URL_RE.exec(url)
  return m ? m[1] : ''
}

/** What the redirect helper needs to know of a route (the router's RouteDef fits). */
export interface KnownRoute {
  path: string
  page: string | null
  redirect?: string
}

export type RedirectDecision = { to: string } | { notFound: true }

const REDIRECT_PREFIX = '/redirect'

/** One value of a query string ('a=1&b=2'), undecoded; null when absent. */
function rawParam(search: string, name: string): string | null {
  for (const pair of search.split('&')) {
    const i = pair.indexOf('=')
    if ((i < 0 ? pair : pair.slice(0, i)) === name) return i < 0 ? '' : pair.slice(i + 1)
  }
  return null
}

function withoutParam(search: string, name: string): string {
  return search
    .split('&')
    .filter((pair) => pair && (pair.indexOf('=') < 0 ? pair : pair.slice(0, pair.indexOf('='))) !== name)
    .join('&')
}

function cleanPath(path: string): string {
  const p = ('/' + path).replace(/\/{2,}/g, '/')
  return p.length > 1 && p.endsWith('/') ? p.slice(0, -1) : p
}

/**
 * Where /redirect/{path}?query leads (SPEC 2, query kept): to {path}?query when {path} is a screen
 * of this build; to /map for /redirect alone; to the not-found page for anything else (another
 * redirect included, so that a link cannot loop). `pathname` is the address on H5
 * ('/redirect/share/view'); in the mini-program it is the page route and {path} comes as `path=`.
 */
export function redirectTarget(pathname: string, search: string, routes: readonly KnownRoute[]): RedirectDecision {
  const query = search.replace(/^\?/, '')
  const clean = cleanPath(pathname.split('?')[0].split('#')[0])
  let rest: string
  let kept = query
  if (clean === REDIRECT_PREFIX || clean.startsWith(REDIRECT_PREFIX + '/')) {
    rest = clean.slice(REDIRECT_PREFIX.length)
  } else {
    // Encoded once or (page options passed on raw) twice.
    rest = rawParam(query, 'path') ?? ''
    for (let i = 0; i < 2 && rest && !rest.startsWith('/'); i++) rest = decodeOnce(rest)
    kept = withoutParam(query, 'path')
  }
  const target = cleanPath(rest)
  const suffix = kept ? `?${kept}` : ''
  if (target === '/') return { to: `/map${suffix}` }
  if (target === REDIRECT_PREFIX || target.startsWith(REDIRECT_PREFIX + '/')) return { notFound: true }
  const route = routes.find((r) => r.path === target)
  if (!route || (!route.page && !route.redirect)) return { notFound: true }
  return { to: `${target}${suffix}` }
}
