/**
 * Navigation to a place on H5, over an injected window so that tests run it: inside our host app
 * the host opens AMap's navigation address outside the WebView (SPEC 7 `open_url`: a WebView can
 * neither start the AMap app nor keep our page while AMap's runs); in a phone browser the address
 * opens in a new tab, so that the map stays as it was behind it, or in this one where the browser
 * refuses a new tab.
 */
import { amapNavigationUri, type NavPlace } from '../../domain/directions'
import type { HostBridge } from '../host/bridge'
import { hostChannel } from '../host/channel'
import type { HostWindow } from '../host/types'
import type { DirectionsOutcome, DirectionsPlatform } from './types'

/** The parts of `window` this needs. */
export interface DirectionsWindow extends HostWindow {
  open(url: string, target: string): { opener: unknown } | null
  location: { href: string }
}

export function browserDirections(win: DirectionsWindow, loadBridge: () => Promise<Pick<HostBridge, 'send'>>): DirectionsPlatform {
  return {
    open(place: NavPlace): Promise<DirectionsOutcome> {
      const url = amapNavigationUri(place)
      if (hostChannel(win)) {
        return loadBridge()
          .then((bridge) => {
            bridge.send('open_url', { url })
            return 'opened' as const
          })
          .catch(() => 'failed' as const)
      }
      // Opened within the tap itself (no await before it): a browser opens a new tab only then.
      const tab = win.open(url, '_blank')
      if (tab) {
        // AMap's page gets no handle on ours.
        tab.opener = null
        return Promise.resolve('opened')
      }
      win.location.href = url
      return Promise.resolve('opened')
    },
  }
}
