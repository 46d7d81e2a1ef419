/**
 * The one HTTP client (SPEC 7 and 8). Every call is POST JSON to `<base><path>` with the header
 * object added to the body; the envelope {header:{errcode,errmsg},data} is unwrapped here.
 * Logout policy is not ours: a 401 goes to the handler the session store registers.
 */
import type { ApiPath, ApiReq, ApiRes, Envelope, RequestHeader } from '../../types/api'
import type { NoticeType } from '../domain/notice'
import { ApiError, messageOf } from './errors'
import { decodedData } from './columns'

export interface HttpResponse {
  status: number
  data: unknown
}

/** What the platform gives us to send a request (Taro.request on both platforms; a fake in tests). */
export interface HttpTransport {
  post(url: string, body: unknown): Promise<HttpResponse>
}

export interface ApiClientDeps {
  transport: HttpTransport
  baseUrl: string
  header: () => RequestHeader
  notify: (text: string, type: NoticeType) => void
  loading: (delta: 1 | -1) => void
}

export interface CallOptions {
  /** Do not show a notice for business errors (the caller shows the message itself). */
  quiet?: boolean
  /** A background poll: no loading indicator (it would flash every few seconds) and no notice for any failure except a 401. */
  background?: boolean
  /** No notice for a network failure: the caller answers from the offline copy instead (RootStore.read). */
  quietNetwork?: boolean
  /** A network failure is not shown: the caller keeps the save in the outbox and says so itself. */
  offlineKept?: boolean
  /** The page shows this call's progress itself (the import bar, with its cancel button): no loading mask over it. */
  ownProgress?: boolean
  /**
   * Told of a successful answer's data as the server sent it, before it is decoded (types/api.ts
   * MarkerColumnsPage): a caller that keeps a few requests on the network at a time sends the next
   * one then, not after a big page's decoding.
   */
  answered?: (data: unknown) => void
}

export class ApiClient {
  private unauthorizedHandler: (() => void) | null = null

  constructor(private readonly deps: ApiClientDeps) {}

  onUnauthorized(handler: () => void): void {
    this.unauthorizedHandler = handler
  }

  /** Sends a call and returns its data; throws ApiError on any failure (after the SPEC 8 effects). */
  async request<P extends ApiPath>(path: P, body: ApiReq<P>, opts: CallOptions = {}): Promise<ApiRes<P>> {
    const { transport, baseUrl, header, notify } = this.deps
    const loading = opts.background || opts.ownProgress ? () => undefined : this.deps.loading
    loading(1)
    try {
      let res: HttpResponse
      try {
        res = await transport.post(baseUrl + path, { header: header(), ...body })
      } catch {
        throw new ApiError('network', messageOf('network'))
      }
      if (res.status === 401) {
        throw new ApiError('unauthorized', messageOf('unauthorized'), { status: 401 })
      }
      if (res.status !== 200) {
        throw new ApiError('http', messageOf('http'), { status: res.status })
      }
      const env = parseEnvelope(res.data)
      if (!env) throw new ApiError('http', messageOf('http'), { status: res.status })
      if (env.header.errcode !== 0) {
        throw new ApiError('business', messageOf('business', env.header.errmsg), { errcode: env.header.errcode, data: env.data })
      }
      opts.answered?.(env.data)
      // A malformed columnar page throws here: the call fails as a whole, as an unreadable answer does.
      return (await decodedData(body, env.data)) as ApiRes<P>
    } catch (e) {
      const err = e instanceof ApiError ? e : new ApiError('http', messageOf('http'))
      if (err.kind === 'unauthorized') {
        notify(err.message, 'warning')
        this.unauthorizedHandler?.()
      } else if (err.kind === 'business') {
        if (!opts.quiet) notify(err.message, 'danger')
      } else if (!opts.background && !((opts.quietNetwork || opts.offlineKept) && err.kind === 'network')) {
        notify(err.message, 'danger')
      }
      throw err
    } finally {
      loading(-1)
    }
  }

  /** SPEC 8: on any failure the notice shows and the call returns nothing. */
  async post<P extends ApiPath>(path: P, body: ApiReq<P>, opts: CallOptions = {}): Promise<ApiRes<P> | undefined> {
    try {
      return await this.request(path, body, opts)
    } catch {
      return undefined
    }
  }
}

function parseEnvelope(data: unknown): Envelope<unknown> | null {
  const value = typeof data === 'string' ? safeJson(data) : data
  if (!value || typeof value !== 'object') return null
  const header = (value as Envelope<unknown>).header
  if (!header || typeof header.errcode !== 'number') return null
  return value as Envelope<unknown>
}

function safeJson(s: string): unknown {
  try {
    return JSON.parse(s)
  } catch {
    return null
  }
}
