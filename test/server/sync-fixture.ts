/** A push-socket client for tests: a ws WebSocket whose messages can be awaited one by one. */
import type WebSocket from 'ws'
import type { SyncServerMessage } from '../../types/sync'
import type { Auth } from './helpers'

// A failure guard only: tests wait on messages, never on time.
const GUARD_MS = 15_000

export interface SocketProbe {
  ws: WebSocket
  send(message: object): void
  hello(auth: Auth): void
  /** The next message (from now or already received and not yet taken) that matches. */
  next<T extends SyncServerMessage['type']>(type: T, match?: (m: Extract<SyncServerMessage, { type: T }>) => boolean): Promise<Extract<SyncServerMessage, { type: T }>>
  closed(): Promise<number>
  close(): Promise<void>
}

export function probe(ws: WebSocket): SocketProbe {
  const received: SyncServerMessage[] = []
  let waiters: (() => void)[] = []
  let closeCode: number | undefined
  const wake = () => {
    const list = waiters
    waiters = []
    list.forEach((w) => w())
  }
  ws.on('message', (data) => {
    received.push(JSON.parse(String(data)) as SyncServerMessage)
    wake()
  })
  ws.on('close', (code) => {
    closeCode = code
    wake()
  })
  const until = <T>(find: () => T | undefined, what: string): Promise<T> =>
    new Promise((resolve, reject) => {
      const guard = setTimeout(() => reject(new Error(`no ${what} within ${GUARD_MS} ms; received ${JSON.stringify(received)}`)), GUARD_MS)
      const check = () => {
        const found = find()
        if (found !== undefined) {
          clearTimeout(guard)
          resolve(found)
        } else waiters.push(check)
      }
      check()
    })
  return {
    ws,
    send: (message) => ws.send(JSON.stringify(message)),
    hello(auth) {
      ws.send(JSON.stringify({ type: 'hello', token: auth.token, userid: Number(auth.userid) }))
    },
    next(type, match) {
      return until<SyncServerMessage>(() => {
        const at = received.findIndex((m) => m.type === type && (!match || match(m as never)))
        return at < 0 ? undefined : received.splice(at, 1)[0]
      }, type) as never
    },
    closed: () => until(() => closeCode, 'close'),
    async close() {
      if (closeCode !== undefined) return
      ws.close()
      await until(() => closeCode, 'close')
    },
  }
}
