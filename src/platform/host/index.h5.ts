/**
 * Host app bridge (H5): the page inside our native host app's WebView (SPEC 7).
 *
 * Protocol: the page posts JSON envelopes `{v: 1, type, id?, data}` through
 * window.ReactNativeWebView, window.webkit.messageHandlers.teammap or window.TeamMapHost (whichever
 * the host injected); the host answers by calling `window.__teammapHost.push(jsonOrObject)`, which
 * this module defines at load, and the page drains that queue every 1 s (SPEC 9) once
 * hostBridge.start() runs. In a plain browser nothing is available and send() throws.
 */
import { HostBridge, createWindowHostTransport } from './bridge'
import type { HostScheduler, HostWindow } from './types'

export * from './bridge'

const windowScheduler: HostScheduler = {
  setInterval: (fn, ms) => window.setInterval(fn, ms),
  clearInterval: (handle) => window.clearInterval(handle as number),
  setTimeout: (fn, ms) => window.setTimeout(fn, ms),
  clearTimeout: (handle) => window.clearTimeout(handle as number),
}

const transport = createWindowHostTransport(window as unknown as HostWindow)

export const hostBridge = new HostBridge(transport, windowScheduler)

/** True when the page runs inside our host app's WebView. */
export function isInHostApp(): boolean {
  return hostBridge.available
}
