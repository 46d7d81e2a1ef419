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
