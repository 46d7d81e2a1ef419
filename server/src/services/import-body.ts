/**
 * The body of /api/marker/import, read so that nobody without a session costs the server more
 * than a small read: the body is streamed in, and its `header` (sent first by the app's client) is
 * checked as soon as its first bytes are in; a wrong session is refused (401) at once, before the
 * rest of a file of up to ~32 MB is read, parsed or queued. A body whose header does not come first
 * (an older client) is read only as far as a small one goes: small bodies are parsed here as every
 * other call's, and the call checks the session as usual; larger ones are refused.
 */
import type { FastifyRequest } from 'fastify'
import type { Readable } from 'node:stream'
import { authenticate, type Caller } from '../auth'
import type { Clock } from '../clock'
import type { Database } from '../db/connection'
import { UnauthorizedError } from '../envelope'
import { parseJsonOffThread } from './file-parser'
import { mapCaller } from './permissions'

/** Bodies up to this size are parsed on the main thread (a few ms at most), and may carry their header anywhere. */
export const INLINE_BODY_BYTES = 256 * 1024
/** How far into the body its header must have ended to be read before the rest. */
const HEADER_PREFIX_BYTES = 16 * 1024
/**
 * `{"header":{...}` at the start of the body, maybe after a few plain fields (`"layer_id":3,`):
 * the header's own fields are flat strings and numbers.
 */
const LEADING_HEADER = /^\s*\{(?:\s*"\w+"\s*:\s*(?:"[^"\\]*"|-?[\d.eE+-]+|true|false|null)\s*,)*\s*"header"\s*:\s*(\{[^{}]*\})/

const tooLarge = () => Object.assign(new Error('the body is too large'), { statusCode: 413 })
const notJson = () => Object.assign(new Error('the body is not JSON'), { statusCode: 400 })

/** The header object at the start of the body, or null when the body does not begin with one. */
export function leadingHeader(prefix: string): unknown {
  const match = LEADING_HEADER.exec(prefix)
  if (!match) return null
  try {
    return JSON.parse(match[1])
  } catch {
    return null
  }
}

export interface ImportBodyReader {
  db: Database
  clock: Clock
  bodyLimit: number
  /** The app's own JSON parser (prototype poisoning refused as for every call). */
  parseInline(text: string): Promise<unknown>
}

/** Reads and parses the body, refusing a wrong session before the body is read through. */
export async function readImportBody(request: FastifyRequest, payload: Readable, reader: ImportBodyReader): Promise<unknown> {
  const declared = Number(request.headers['content-length'])
  if (Number.isFinite(declared) && declared > reader.bodyLimit) throw tooLarge()
  const chunks: Buffer[] = []
  let received = 0
  // undefined: not looked for yet; null: the body does not begin with its header.
  let caller: Caller | null | undefined
  try {
    for await (const chunk of payload as AsyncIterable<Buffer>) {
      received += chunk.length
      if (received > reader.bodyLimit) throw tooLarge()
      chunks.push(chunk)
      if (caller === undefined && (received >= HEADER_PREFIX_BYTES || LEADING_HEADER.test(chunks[0].toString('utf8', 0, Math.min(chunks[0].length, HEADER_PREFIX_BYTES))))) {
        caller = await callerOfPrefix(Buffer.concat(chunks).toString('utf8', 0, Math.min(received, HEADER_PREFIX_BYTES)), reader)
      }
      if (caller === null && received > INLINE_BODY_BYTES) throw new UnauthorizedError()
    }
  } catch (err) {
    // The rest of the upload is not wanted: drop it as it comes rather than hold it.
    payload.resume()
    throw err
  }
  const body = Buffer.concat(chunks, received)
  if (received <= INLINE_BODY_BYTES) return reader.parseInline(body.toString('utf8'))
  if (!caller) throw new UnauthorizedError()
  return parseJsonOffThread(await queueOwner(reader.db, caller), body).catch(() => {
    throw notJson()
  })
}

/** The session named by a leading header (UnauthorizedError when it names none), or null without one. */
async function callerOfPrefix(prefix: string, reader: ImportBodyReader): Promise<Caller | null> {
  const header = leadingHeader(prefix)
  if (header === null) return null
  return authenticate(reader.db, header, reader.clock.now())
}

/** Parse tasks take turns by group (file-parser.ts): the caller's selected group, or the user alone without one. */
export async function queueOwner(db: Database, caller: Caller): Promise<string> {
  try {
    return `group:${(await mapCaller(db.kysely, caller)).groupId}`
  } catch {
    return `user:${caller.userId}`
  }
}
