/**
 * The share just made on this phone, as the share dialog's 发给微信好友 button forwards it in the
 * mini-program (name, page, card picture). WeChat asks the page synchronously when the button is
 * tapped, so the page's hook reads it from here; ShareStore (lazy) sets and clears it. Kept out of
 * the core stores so that /login does not carry it.
 */
export interface Forward {
  title: string
  path: string
  imageUrl?: string
}

const APP_FORWARD: Forward = { title: '团队地图', path: '/pages/map/index' }

let created: Forward | null = null

export function setCreatedShare(forward: Forward | null): void {
  created = forward
}

/** What a page holding the share dialog forwards: the share just made from its button, the app from the ··· menu. */
export function forwardFrom(from: string | undefined): Forward {
  return from === 'button' && created ? created : APP_FORWARD
}
