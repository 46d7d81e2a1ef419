/**
 * The desktop warning page (/warning): the page the desktop browser was sent away from, which its
 * QR code opens on the phone and its developer button continues to.
 */

/**
 * The page the guard names in /warning's ?from= (encoded path and query); the site's root when
 * there is none. Only a path of this site is taken: '//host' or 'https://…' in the link would make
 * the code open another site.
 */
export function warningEntryPath(from: string | undefined): string {
  let path = ''
  try {
    path = decodeURIComponent(from ?? '')
  } catch {
    // a broken escape: the site's root below
  }
  return /^\/(?![/\\])/.test(path) ? path : '/'
}
