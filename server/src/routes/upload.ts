/**
 * POST /api/system/upload (SPEC 7): multipart with `file`, `type`, an optional `client_id` (the
 * same id again answers the first upload) and the header's userid, groupid and token as fields (a
 * file upload cannot carry a JSON header object). Answers the usual envelope with {url, size_kb, name}. GET /files/<group>/<name> serves the stored files: their
 * names are 128-bit random, so the link itself is the permission (share pages show note photos).
 */
import multipart from '@fastify/multipart'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { ErrCode } from '../../../types/api'
import { MAP_MSG } from '../../../src/domain/messages'
import { authenticate } from '../auth'
import { BusinessError, ok, sendNotFound, UnauthorizedError } from '../envelope'
import { isStorageKey, storageOf } from '../services/storage'
import { MIME_OF_EXTENSION, tooLarge, uploadFile, UPLOAD_FILE_MAX_KB, type ImageKind, type IncomingFile } from '../services/uploads'
import type { AppDeps } from './define'

export function uploadRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { db, clock } = deps
  const storage = storageOf(app, deps)

  // Multipart parsing only for the upload call (an encapsulated scope), with hard limits.
  app.register(async (scope) => {
    await scope.register(multipart, {
      limits: { fileSize: UPLOAD_FILE_MAX_KB * 1024, files: 1, fields: 10, fieldSize: 4096, parts: 12 },
    })

    scope.post('/api/system/upload', async (request) => {
      const { fields, file } = await readParts(request)
      const caller = await authenticate(db, headerOf(fields), clock.now())
      return ok(await uploadFile(db, storage, caller, file, fields.type ?? '', clock.now(), fields.client_id))
    })
  })

  app.get('/files/*', async (request: FastifyRequest<{ Params: { '*': string } }>, reply: FastifyReply) => {
    const key = request.params['*']
    if (!isStorageKey(key)) return sendNotFound(reply)
    const data = await storage.get(key)
    if (!data) return sendNotFound(reply)
    const extension = key.slice(key.lastIndexOf('.') + 1) as ImageKind['extension']
    return reply.header('content-type', MIME_OF_EXTENSION[extension]).header('x-content-type-options', 'nosniff').header('cache-control', 'public, max-age=31536000, immutable').send(data)
  })
}

interface Parts {
  fields: Record<string, string>
  file: Omit<IncomingFile, 'type'> | null
}

async function readParts(request: FastifyRequest): Promise<Parts> {
  const fields: Record<string, string> = {}
  let file: Parts['file'] = null
  if (!request.isMultipart()) return { fields: headerFieldsOf(request.body), file: null }
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        const data = await part.toBuffer()
        if (part.fieldname === 'file' && !file) file = { data, filename: part.filename ?? '' }
      } else if (typeof part.value === 'string') {
        fields[part.fieldname] = part.value
      }
    }
  } catch (err) {
    const code = (err as { code?: string }).code
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge()
    if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') throw new BusinessError(ErrCode.VALIDATION, MAP_MSG.uploadFailed)
    throw err
  }
  return { fields, file }
}

/** A JSON body's header, so that a caller without a session still hears 401 first. */
function headerFieldsOf(body: unknown): Record<string, string> {
  const header = body && typeof body === 'object' ? (body as { header?: { userid?: unknown; token?: unknown } }).header : undefined
  return header ? { userid: String(header.userid ?? ''), token: String(header.token ?? '') } : {}
}

/** userid and token as plain fields; a JSON `header` field is accepted too. */
function headerOf(fields: Record<string, string>): { userid?: string; token?: string } {
  if (fields.token) return { userid: fields.userid, token: fields.token }
  if (fields.header) {
    try {
      return JSON.parse(fields.header) as { userid?: string; token?: string }
    } catch {
      throw new UnauthorizedError()
    }
  }
  return {}
}
