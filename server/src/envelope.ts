/**
 * The only place that builds the response envelope {header:{errcode,errmsg},data} (DESIGN 3, 9).
 * Business errors are HTTP 200 with an ErrCode; only a bad session is HTTP 401.
 */
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify'
import { ErrCode, type Envelope, type MarkerColumnsPage } from '../../types/api'
import { MSG } from '../../src/domain/messages'

export function ok<T>(data: T): Envelope<T> {
  return { header: { errcode: ErrCode.OK, errmsg: '' }, data }
}

const LIST_SLOT = '__list_json__'

/** The envelope of {list, total} with the list's JSON bytes put in place of a placeholder (no parse, no second serialisation). */
export function envelopeWithRawList(listJson: Buffer, total: number): Buffer {
  const envelope = JSON.stringify(ok({ list: LIST_SLOT, total }))
  const slot = JSON.stringify(LIST_SLOT)
  const at = envelope.indexOf(slot)
  return Buffer.concat([Buffer.from(envelope.slice(0, at)), listJson, Buffer.from(envelope.slice(at + slot.length))])
}

/** The envelope of a page of markers: the SPEC list's JSON bytes (envelopeWithRawList), or the columnar page (types/api.ts MarkerColumnsPage). */
export function envelopeOfMarkerPage(page: { listJson: Buffer; total: number } | { columns: MarkerColumnsPage }): Buffer {
  return 'columns' in page ? Buffer.from(JSON.stringify(ok(page.columns))) : envelopeWithRawList(page.listJson, page.total)
}

export function failure<T = null>(errcode: ErrCode, errmsg: string, data: T | null = null): Envelope<T | null> {
  return { header: { errcode, errmsg }, data }
}

/** A rule said no: answered as HTTP 200 with this errcode and Chinese message. */
export class BusinessError extends Error {
  readonly errcode: ErrCode
  /** What the error envelope carries as data (a conflict's current version); null when absent. */
  readonly data: unknown
  constructor(errcode: ErrCode, message: string, data: unknown = null) {
    super(message)
    this.errcode = errcode
    this.data = data
  }
}

/** The business error a service throws: `throw fail(ErrCode.NOT_FOUND, MSG.notFound)`. */
export function fail(errcode: ErrCode, message: string): BusinessError {
  return new BusinessError(errcode, message)
}

/** Missing, invalid or revoked session: answered as HTTP 401. */
export class UnauthorizedError extends Error {
  constructor() {
    super(MSG.loggedOut)
  }
}

export function sendNotFound(reply: FastifyReply): FastifyReply {
  return reply.code(404).send(failure(ErrCode.NOT_FOUND, MSG.notFound))
}

export function registerEnvelopeHandlers(app: FastifyInstance): void {
  app.setNotFoundHandler((_request, reply) => sendNotFound(reply))

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof BusinessError) return reply.code(200).send(failure(error.errcode, error.message, error.data))
    if (error instanceof UnauthorizedError) return reply.code(401).send(failure(ErrCode.UNAUTHORIZED, MSG.loggedOut))
    const status = error.statusCode ?? 500
    // Bodies that are not JSON, too large or of another media type: the client sent something we cannot read.
    if (status >= 400 && status < 500) {
      return reply.code(status === 413 ? 413 : 400).send(failure(ErrCode.VALIDATION, MSG.badRequest))
    }
    request.log.error({ err: error }, 'unexpected error')
    return reply.code(500).send(failure(ErrCode.INTERNAL, MSG.systemError))
  })
}
