/** The sync socket on H5 and in the host app's WebView: the browser's own WebSocket. */
export type { SocketConnection, SocketPlatform } from './types'
import type { SocketConnection, SocketPlatform } from './types'

/** A relative address (the API on the page's own origin) becomes ws(s)://<host>/… */
function absolute(url: string): string {
  if (/^wss?:\/\//i.test(url)) return url
  return new URL(url, window.location.href).href.replace(/^http/i, 'ws')
}

export const socketPlatform: SocketPlatform = {
  connect(url): SocketConnection {
    const ws = new WebSocket(absolute(url))
    return {
      send: (text) => {
        if (ws.readyState === WebSocket.OPEN) ws.send(text)
      },
      close: (code, reason) => ws.close(code ?? 1000, reason),
      onOpen: (fn) => ws.addEventListener('open', () => fn()),
      onMessage: (fn) => ws.addEventListener('message', (e) => typeof e.data === 'string' && fn(e.data)),
      onClose: (fn) => ws.addEventListener('close', (e) => fn(e.code)),
      onError: (fn) => ws.addEventListener('error', () => fn()),
    }
  },
}
