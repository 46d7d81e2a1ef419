/**
 * A text WebSocket as the sync store needs it: the browser's WebSocket on H5 (and inside the native
 * host's WebView), Taro.connectSocket (wx.connectSocket's SocketTask) in the mini-program.
 */
export interface SocketConnection {
  send(text: string): void
  close(code?: number, reason?: string): void
  onOpen(fn: () => void): void
  onMessage(fn: (text: string) => void): void
  /** The socket closed (or never opened); `code` as the server or the platform gave it. */
  onClose(fn: (code: number) => void): void
  onError(fn: () => void): void
}

export interface SocketPlatform {
  /** Opens a socket to `url` (ws:// or wss://; relative on H5: resolved against the page). */
  connect(url: string): SocketConnection
}
