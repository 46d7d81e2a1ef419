/**
 * Finding the host app's channel without loading the bridge: modules that only need to know
 * whether the page runs inside our host app (location, payment) ask here, and load the bridge on
 * demand when it does.
 */
import type { HostInbox, HostWindow } from './types'

/** The channel the host injected (React Native, iOS "teammap" handler, Android TeamMapHost), or null. */
export function hostChannel(win: HostWindow): { postMessage(message: string): void } | null {
  if (typeof win.ReactNativeWebView?.postMessage === 'function') return win.ReactNativeWebView
  const ios = win.webkit?.messageHandlers?.teammap
  if (typeof ios?.postMessage === 'function') return ios
  if (typeof win.TeamMapHost?.postMessage === 'function') return win.TeamMapHost
  return null
}

/**
 * Makes sure `win.__teammapHost` is an inbox the host can push into, keeping anything the host
 * queued before the page loaded.
 */
export function installHostInbox(win: HostWindow): HostInbox {
  const existing = win.__teammapHost as Partial<HostInbox> | undefined
  const inbox = (existing && typeof existing === 'object' ? existing : {}) as HostInbox
  if (!Array.isArray(inbox.queue)) inbox.queue = []
  if (typeof inbox.push !== 'function') {
    inbox.push = (message: unknown) => {
      inbox.queue.push(message)
    }
  }
  win.__teammapHost = inbox
  return inbox
}
