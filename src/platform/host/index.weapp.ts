/**
 * Host app bridge (the mini-program): there is no native host app around a mini-program,
 * so the bridge is never available — send() throws, request() rejects, nothing is ever received.
 * The H5 entry (index.h5.ts) has the real transport; see bridge.ts for the protocol.
 */
import { HostBridge, unavailableHostTransport } from './bridge'
import type { HostScheduler } from './types'

export * from './bridge'

const globalScheduler: HostScheduler = {
  setInterval: (fn, ms) => setInterval(fn, ms),
  clearInterval: (handle) => clearInterval(handle as ReturnType<typeof setInterval>),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
}

export const hostBridge = new HostBridge(unavailableHostTransport, globalScheduler)

/** Never inside the host app on this platform. */
export function isInHostApp(): boolean {
  return false
}
