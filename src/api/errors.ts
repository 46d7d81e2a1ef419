/** Typed failures of an API call (SPEC 8). */
import { MSG } from '../domain/messages'

export type ApiErrorKind = 'business' | 'unauthorized' | 'http' | 'network'

export class ApiError extends Error {
  readonly kind: ApiErrorKind
  readonly errcode?: number
  readonly status?: number
  /** The envelope's data of a business error: for CONFLICT the entity as it is now (null when it was deleted). */
  readonly data?: unknown

  constructor(kind: ApiErrorKind, message: string, opts: { errcode?: number; status?: number; data?: unknown } = {}) {
    super(message)
    this.name = 'ApiError'
    this.kind = kind
    this.errcode = opts.errcode
    this.status = opts.status
    this.data = opts.data
  }
}

/** The user-facing message of each failure, exactly as SPEC 8 words it. */
export function messageOf(kind: ApiErrorKind, errmsg?: string): string {
  switch (kind) {
    case 'business':
      return errmsg || MSG.genericError
    case 'unauthorized':
      return MSG.loggedOut
    case 'http':
      return MSG.systemError
    case 'network':
      return MSG.networkError
  }
}

/**
 * The business error codes the app reacts to. types/ is not compiled into the app bundles (only its
 * types are), so the values are restated here; test/api checks them against ErrCode.
 */
export const ERRCODE = {
  NOT_FOUND: 1002,
  FORBIDDEN: 1003,
  LIMIT_REACHED: 1004,
  CONFLICT: 1006,
  EXPIRED: 1007,
} as const
