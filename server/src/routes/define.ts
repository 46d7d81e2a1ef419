/**
 * Declares POST calls: split the body's `header` from the call's fields, authenticate when the
 * call needs a session, validate the fields with zod, run the handler, wrap its result.
 */
import type { FastifyInstance } from 'fastify'
import { z, type ZodTypeAny } from 'zod'
import { ErrCode } from '../../../types/api'
import { MSG } from '../../../src/domain/messages'
import { authenticate, type Caller } from '../auth'
import type { Clock } from '../clock'
import type { Database } from '../db/connection'
import { BusinessError, ok } from '../envelope'
import { OPERATOR_TOKEN_HEADER, requireOperator } from '../services/operator'
import type { PayProvider } from '../services/pay/provider'
import type { SmsSender } from '../services/sms'
import type { CodeCaps } from '../services/public-limits'
import type { SyncHub } from '../services/sync-hub'
import type { Geocoder } from '../services/geocode'
import type { FileStorage } from '../services/storage'
import type { PrintDeps, PrintTileSource } from '../services/print'

export interface AppDeps {
  db: Database
  sms: SmsSender
  clock: Clock
  /** Seconds between two codes for one phone; SPEC-free, 60 by default (tests shorten it). */
  codeCooldownS?: number
  /** Where uploads go; a temporary folder removed on close when none is given (tests). */
  storage?: FileStorage
  /** Signs share password proofs (env SHARE_SECRET); without it a random secret kept in the database is used. */
  shareSecret?: string
  /** WeChat Pay (WXPAY_* env), the local sandbox (PAY_SANDBOX=1) or, when none is given, no payments (services/pay). */
  pay?: PayProvider
  /** The operator's credential (env ADMIN_TOKEN, services/operator.ts); without it operator calls are refused. */
  adminToken?: string
  /** Places a table's addresses on import (services/geocode.ts, env AMAP_WEB_KEY); without it such a file is refused with what to do. */
  geocoder?: Geocoder
  /** Live sync's push (services/sync-hub.ts); buildApp makes one for the database when none is given, and closes it with the app. */
  syncHub?: SyncHub
  /** The font file for share card pictures (env CARD_FONT); unset, a known system path. */
  cardFont?: string
  /** Hourly caps on sending codes per client address and in all (env SMS_HOURLY_CAP_PER_ADDRESS, SMS_HOURLY_CAP); DEFAULT_CODE_CAPS when not given. */
  codeCaps?: CodeCaps
  /** The operator's print base map (env PRINT_TILE_*, services/print.ts); null for none; unset, read from the environment. */
  printTiles?: PrintTileSource | null
  /** Print worker threads, 1 or 2 (env PRINT_WORKERS, 1 by default). */
  printWorkers?: number
  /** How print tiles are fetched (tests stand in for the tile server); unset, global fetch. */
  printFetch?: PrintDeps['fetch']
}

/** What a public call may know of its request (rate limits key on the client's address). */
export interface PublicRequest {
  ip: string
  /** The body's header object as sent (unchecked): sign-in records its device and os. */
  header: unknown
}

export interface CallDefiners {
  publicCall<S extends ZodTypeAny>(path: string, schema: S, handler: (input: z.output<S>, request: PublicRequest) => Promise<unknown>): void
  sessionCall<S extends ZodTypeAny>(path: string, schema: S, handler: (input: z.output<S>, caller: Caller) => Promise<unknown>): void
  /**
   * The operator's call (services/operator.ts): no session, the x-admin-token header instead. The
   * credential is checked before the fields, so that nobody else learns anything from the answers.
   */
  operatorCall<S extends ZodTypeAny>(path: string, schema: S, handler: (input: z.output<S>) => Promise<unknown>): void
  /** A session call whose handler builds the whole JSON envelope itself (a list serialised by the database). */
  rawSessionCall<S extends ZodTypeAny>(path: string, schema: S, handler: (input: z.output<S>, caller: Caller) => Promise<Buffer>): void
}

export function callDefiners(app: FastifyInstance, deps: AppDeps): CallDefiners {
  return {
    publicCall(path, schema, handler) {
      app.post(path, async (request) => {
        const { header, fields } = splitBody(request.body)
        return ok((await handler(validate(schema, fields), { ip: request.ip, header })) ?? null)
      })
    },
    sessionCall(path, schema, handler) {
      app.post(path, async (request) => {
        const { header, fields } = splitBody(request.body)
        const caller = await authenticate(deps.db, header, deps.clock.now())
        return ok((await handler(validate(schema, fields), caller)) ?? null)
      })
    },
    operatorCall(path, schema, handler) {
      app.post(path, async (request) => {
        const { fields } = splitBody(request.body)
        await requireOperator(deps.db.kysely, deps.adminToken, request.headers[OPERATOR_TOKEN_HEADER], request.ip, deps.clock.now())
        return ok((await handler(validate(schema, fields))) ?? null)
      })
    },
    rawSessionCall(path, schema, handler) {
      app.post(path, async (request, reply) => {
        const { header, fields } = splitBody(request.body)
        const caller = await authenticate(deps.db, header, deps.clock.now())
        return reply.type('application/json; charset=utf-8').send(await handler(validate(schema, fields), caller))
      })
    },
  }
}

export function splitBody(body: unknown): { header: unknown; fields: unknown } {
  if (body === undefined || body === null) return { header: undefined, fields: {} }
  if (typeof body !== 'object' || Array.isArray(body)) return { header: undefined, fields: body }
  const { header, ...fields } = body as Record<string, unknown>
  return { header, fields }
}

/** Our messages (required_error, refinements) pass; zod's English defaults become a Chinese one. */
const chineseFallback: z.ZodErrorMap = (issue, ctx) => ({
  message: ctx.defaultError === z.defaultErrorMap(issue, ctx).message ? MSG.badRequest : ctx.defaultError,
})

/** Parses the fields or throws VALIDATION with the first problem's Chinese message. */
export function validate<S extends ZodTypeAny>(schema: S, fields: unknown): z.output<S> {
  const result = schema.safeParse(fields, { errorMap: chineseFallback })
  if (!result.success) throw new BusinessError(ErrCode.VALIDATION, result.error.issues[0]?.message ?? MSG.badRequest)
  return result.data
}
