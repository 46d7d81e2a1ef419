/**
 * Which URLs may be stored where a viewer's device will load them as an image (marker icons, photo
 * field values, note photos, avatars, the brand logo). Anything else is refused: a `javascript:` or
 * `data:` value, or an outside address that every viewer's browser would fetch (share views
 * included, so a stranger's tracking pixel would see who opens a share).
 */

/**
 * Exactly what /api/system/upload answers: '/files/<group id>/<32 hex>.<image extension>' (the
 * server's storage keys, served by GET /files/*). Relative on purpose: clients prefix their API host.
 */
const OWN_FILE_URL = /^\/files\/[1-9]\d{0,9}\/[0-9a-f]{32}\.(jpg|png|gif|webp)$/

/** Longest URL kept in an image field. */
export const IMAGE_URL_MAX = 500

export function isOwnFileUrl(url: unknown): url is string {
  return typeof url === 'string' && OWN_FILE_URL.test(url)
}

/**
 * An absolute https address: a host name (letters, digits, dots, hyphens), an optional port, then a
 * path or query without spaces, quotes or angle brackets. No user:password@ part. A regex and not
 * `new URL`: the mini-program runtime has no URL class.
 */
const HTTPS_URL = /^https:\/\/([a-z0-9]([a-z0-9-]*[a-z0-9])?\.)*[a-z0-9]([a-z0-9-]*[a-z0-9])?(:\d{1,5})?([/?#][^\s"'<>\\`]*)?$/i

export function isHttpsUrl(url: unknown): url is string {
  return typeof url === 'string' && url.length <= IMAGE_URL_MAX && HTTPS_URL.test(url)
}

/** The operator's brand logo: an uploaded file or an https address they chose. */
export function isLogoUrl(url: unknown): url is string {
  return isOwnFileUrl(url) || isHttpsUrl(url)
}
