/**
 * The id a phone gives a create it may have to send again (an offline outbox replaying, an answer
 * lost on a weak network): the server keeps one entity per id and answers it to every repeat.
 * A UUID fits; the charset keeps it safe in URLs, logs and storage keys.
 */

export const CLIENT_ID_MIN = 8
export const CLIENT_ID_MAX = 64

const CLIENT_ID_PATTERN = /^[A-Za-z0-9_-]+$/

export function isClientId(value: string): boolean {
  return value.length >= CLIENT_ID_MIN && value.length <= CLIENT_ID_MAX && CLIENT_ID_PATTERN.test(value)
}

/**
 * A client-made id for a create (RFC 4122 version 4), so that a save sent twice (the answer was lost)
 * makes one entity on the server; what isClientId accepts.
 */
export function newClientId(random: (bytes: Uint8Array) => void = fillRandom): string {
  const b = new Uint8Array(16)
  random(b)
  b[6] = (b[6] & 0x0f) | 0x40
  b[8] = (b[8] & 0x3f) | 0x80
  let hex = ''
  for (let i = 0; i < 16; i++) hex += (b[i] + 0x100).toString(16).slice(1)
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

function fillRandom(b: Uint8Array): void {
  const c = (globalThis as { crypto?: { getRandomValues?: (a: Uint8Array) => Uint8Array } }).crypto
  // Old WebViews and some mini-program runtimes have no crypto: Math.random is enough to tell two saves apart.
  if (c?.getRandomValues) c.getRandomValues(b)
  else for (let i = 0; i < b.length; i++) b[i] = Math.floor(Math.random() * 256)
}
