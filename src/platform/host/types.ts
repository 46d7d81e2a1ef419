/** What the host bridge needs from its platform: a way to post and drain messages, and timers. */

/** The channel to the native host. */
export interface HostTransport {
  /** True when a channel to the host exists (the page runs inside our host app). */
  available(): boolean
  /** Hands one encoded envelope to the host. */
  post(json: string): void
  /** Returns what the host pushed since the last call (JSON strings or objects) and forgets it. */
  drain(): unknown[]
}

/** Timers, injected so that tests drive time (jest fake timers) and the page uses window's. */
export interface HostScheduler {
  setInterval(fn: () => void, ms: number): unknown
  clearInterval(handle: unknown): void
  setTimeout(fn: () => void, ms: number): unknown
  clearTimeout(handle: unknown): void
}

/** The inbox the host pushes into: `window.__teammapHost.push(jsonOrObject)`. */
export interface HostInbox {
  queue: unknown[]
  push(message: unknown): void
}

interface PostTarget {
  postMessage(message: string): void
}

/** The parts of `window` the H5 transport looks at; each host platform injects one channel. */
export interface HostWindow {
  /** React Native host. */
  ReactNativeWebView?: PostTarget
  /** iOS WKWebView host: a script message handler named "teammap". */
  webkit?: { messageHandlers?: { teammap?: PostTarget } }
  /** Android host: addJavascriptInterface(..., "TeamMapHost"). */
  TeamMapHost?: PostTarget
  __teammapHost?: HostInbox
}
