/**
 * The typed bridge to our native host app (SPEC 7 "Host native app messages"), over an injected
 * transport and scheduler so that it runs the same in tests, on H5 and (never available) on weapp.
 *
 * The host pushes messages into `window.__teammapHost` (see createWindowHostTransport); the page
 * drains that queue every HOST_POLL_MS = 1 s (SPEC 9), decodes each envelope, answers the pending
 * request with the same id, and hands every decoded message to the `on` handlers of its type.
 * Requests time out (HOST_REQUEST_TIMEOUT_MS per type) and are rejected by stop().
 */
import { decodeHostMessage, encodeHostMessage, HOST_POLL_MS, HOST_REPLY_TYPE, HOST_REQUEST_TIMEOUT_MS, isHostReceived, makeRequestIds } from '../../domain/hostMessages'
import type { HostEnvelope, HostReceived, HostReceivedPayloads, HostReplyData, HostRequestType, HostSent, HostSentPayloads } from '../../domain/hostMessages'
import { hostChannel, installHostInbox } from './channel'
import type { HostScheduler, HostTransport, HostWindow } from './types'

export type { HostInbox, HostScheduler, HostTransport, HostWindow } from './types'
export { hostChannel, installHostInbox } from './channel'

/** Base class so that callers can tell bridge failures from others. */
export class HostBridgeError extends Error {
  constructor(message: string) {
    super(message)
    this.name = new.target.name
    Object.setPrototypeOf(this, new.target.prototype)
  }
}

/** Sending outside the host app (plain browser, weapp). */
export class HostUnavailableError extends HostBridgeError {
  constructor(readonly type: HostSent) {
    super(`Host app bridge unavailable: cannot send "${type}" (the page is not running inside the host app)`)
  }
}

/** No reply within the request's timeout; the request is forgotten, a late reply only reaches `on` handlers. */
export class HostTimeoutError extends HostBridgeError {
  constructor(
    readonly type: HostRequestType,
    readonly id: string,
    readonly timeoutMs: number,
  ) {
    super(`Host app did not answer "${type}" (request ${id}) within ${timeoutMs} ms`)
  }
}

/** stop() was called while the request waited. */
export class HostClosedError extends HostBridgeError {
  constructor(
    readonly type: HostRequestType,
    readonly id: string,
  ) {
    super(`Host app bridge stopped before "${type}" (request ${id}) was answered`)
  }
}

export type HostHandler<T extends HostReceived> = (data: HostReceivedPayloads[T], envelope: HostEnvelope<T>) => void

export interface HostBridgeOptions {
  /** Request ids; default `h5-1`, `h5-2`, ... */
  nextId?: () => string
  /** Poll period; default HOST_POLL_MS (SPEC 9: 1 s). */
  pollMs?: number
  /** A throwing handler or transport; default console.error. The poll goes on either way. */
  onError?: (error: unknown) => void
}

export interface HostRequestOptions {
  /** Default HOST_REQUEST_TIMEOUT_MS[type]. */
  timeoutMs?: number
}

interface Pending {
  type: HostRequestType
  replyType: HostReceived
  resolve(data: unknown): void
  reject(error: Error): void
  timer: unknown
}

export class HostBridge {
  /** Messages drained but not understood (undecodable, or a Sent type coming back). */
  dropped = 0

  private readonly nextId: () => string
  private readonly pollMs: number
  private readonly onError: (error: unknown) => void
  private readonly handlers = new Map<HostReceived, Set<HostHandler<HostReceived>>>()
  private readonly pending = new Map<string, Pending>()
  private pollHandle: unknown = null

  constructor(
    private readonly transport: HostTransport,
    private readonly scheduler: HostScheduler,
    options: HostBridgeOptions = {},
  ) {
    this.nextId = options.nextId ?? makeRequestIds('h5')
    this.pollMs = options.pollMs ?? HOST_POLL_MS
    // eslint-disable-next-line no-console -- the host bridge's one diagnostic: a failure inside the native host's web view has nowhere else to go
    this.onError = options.onError ?? ((error) => console.error('[host bridge]', error))
  }

  /** True when the page runs inside the host app. */
  get available(): boolean {
    try {
      return this.transport.available()
    } catch {
      return false
    }
  }

  /** True between start() and stop(). */
  get polling(): boolean {
    return this.pollHandle !== null
  }

  /** Requests still waiting for their reply. */
  get pendingCount(): number {
    return this.pending.size
  }

  /** Fire and forget. Throws HostUnavailableError outside the host app. */
  send<T extends HostSent>(type: T, data: HostSentPayloads[T]): void {
    this.post(type, data)
  }

  /**
   * Sends with a fresh id and resolves with the data of the matching callback (HOST_REPLY_TYPE)
   * carrying that id. Starts polling if it is not running (replies only arrive by polling).
   * Rejects with HostUnavailableError, HostTimeoutError or HostClosedError.
   */
  request<T extends HostRequestType>(type: T, data: HostSentPayloads[T], options: HostRequestOptions = {}): Promise<HostReplyData<T>> {
    if (!this.available) return Promise.reject(new HostUnavailableError(type))
    const id = this.nextId()
    const timeoutMs = options.timeoutMs ?? HOST_REQUEST_TIMEOUT_MS[type]
    return new Promise<HostReplyData<T>>((resolve, reject) => {
      const timer = this.scheduler.setTimeout(() => {
        if (!this.pending.has(id)) return
        this.pending.delete(id)
        reject(new HostTimeoutError(type, id, timeoutMs))
      }, timeoutMs)
      this.pending.set(id, { type, replyType: HOST_REPLY_TYPE[type], resolve: resolve as (d: unknown) => void, reject, timer })
      try {
        this.post(type, data, id)
      } catch (error) {
        this.forget(id)
        reject(error)
        return
      }
      this.start()
    })
  }

  /** Every decoded message of this type (replies to requests included). Returns the unsubscribe. */
  on<T extends HostReceived>(type: T, handler: HostHandler<T>): () => void {
    let set = this.handlers.get(type)
    if (!set) {
      set = new Set()
      this.handlers.set(type, set)
    }
    const entry = handler as unknown as HostHandler<HostReceived>
    set.add(entry)
    return () => {
      this.handlers.get(type)?.delete(entry)
    }
  }

  /** Drains every HOST_POLL_MS from now on; calling it again changes nothing. */
  start(): void {
    if (this.pollHandle !== null) return
    this.pollHandle = this.scheduler.setInterval(() => this.poll(), this.pollMs)
  }

  /** Stops polling and rejects every waiting request with HostClosedError. start() may follow. */
  stop(): void {
    if (this.pollHandle !== null) {
      this.scheduler.clearInterval(this.pollHandle)
      this.pollHandle = null
    }
    const waiting = [...this.pending.entries()]
    this.pending.clear()
    for (const [id, p] of waiting) {
      this.scheduler.clearTimeout(p.timer)
      p.reject(new HostClosedError(p.type, id))
    }
  }

  /** One drain now (the interval calls this); returns how many messages were delivered. */
  poll(): number {
    let raws: unknown[]
    try {
      raws = this.transport.drain()
    } catch (error) {
      this.onError(error)
      return 0
    }
    let delivered = 0
    for (const raw of Array.isArray(raws) ? raws : []) {
      const envelope = decodeHostMessage(raw)
      if (!envelope || !isHostReceived(envelope.type)) {
        this.dropped++
        continue
      }
      this.deliver(envelope as HostEnvelope<HostReceived>)
      delivered++
    }
    return delivered
  }

  private deliver(envelope: HostEnvelope<HostReceived>): void {
    const { id, type, data } = envelope
    const waiting = id !== undefined ? this.pending.get(id) : undefined
    if (id !== undefined && waiting && waiting.replyType === type) {
      this.forget(id)
      waiting.resolve(data)
    }
    const set = this.handlers.get(type)
    if (!set) return
    for (const handler of [...set]) {
      try {
        handler(data, envelope)
      } catch (error) {
        this.onError(error)
      }
    }
  }

  private forget(id: string): void {
    const p = this.pending.get(id)
    if (!p) return
    this.scheduler.clearTimeout(p.timer)
    this.pending.delete(id)
  }

  private post<T extends HostSent>(type: T, data: HostSentPayloads[T], id?: string): void {
    if (!this.available) throw new HostUnavailableError(type)
    this.transport.post(encodeHostMessage<HostSent>(type, data, id))
  }
}

/** A transport for platforms without a host app (weapp, tests of the unavailable path). */
export const unavailableHostTransport: HostTransport = {
  available: () => false,
  post: () => {
    throw new Error('Host app bridge unavailable')
  },
  drain: () => [],
}

/**
 * The H5 transport over a window: posts through the React Native WebView, the iOS "teammap"
 * message handler or the Android TeamMapHost interface (the first present, looked up on every call
 * because hosts may inject late); drains `window.__teammapHost.queue`.
 */
export function createWindowHostTransport(win: HostWindow): HostTransport {
  installHostInbox(win)
  const channel = () => hostChannel(win)
  return {
    available: () => channel() !== null,
    post(json) {
      const target = channel()
      if (!target) throw new Error('Host app bridge unavailable')
      // called as a method: Android's JavaScript interfaces need their receiver
      target.postMessage(json)
    },
    drain() {
      const queue = win.__teammapHost?.queue
      return Array.isArray(queue) ? queue.splice(0) : []
    },
  }
}
