/** Share adapter (H5): the async clipboard where the page may use it, else a hidden textarea; links on this origin. */
import type { SharePlatform } from './types'

export type { SharePlatform } from './types'

function copyWithTextarea(text: string): boolean {
  const area = document.createElement('textarea')
  area.value = text
  area.setAttribute('readonly', '')
  area.style.position = 'fixed'
  area.style.opacity = '0'
  document.body.appendChild(area)
  area.select()
  try {
    return document.execCommand('copy')
  } catch {
    return false
  } finally {
    area.remove()
  }
}

export const sharePlatform: SharePlatform = {
  async copyText(text) {
    try {
      if (navigator.clipboard && window.isSecureContext) {
        await navigator.clipboard.writeText(text)
        return true
      }
    } catch {
      // fall through to the textarea (some WebViews refuse the async clipboard)
    }
    return copyWithTextarea(text)
  },
  webOrigin: () => window.location.origin,
  // The browser has no Moments menu; WeChat's browser shows the og: tags the server puts on the page.
  allowTimeline: () => undefined,
}
