/**
 * Reads the answer of /api/system/upload like the API client reads every other call (SPEC 8):
 * 401 -> logged out, other non-200 -> system error, errcode != 0 -> the server's message.
 * Pure, so that tests cover it without a device.
 */
import type { Upload } from '../../../types/mapdata'
import { ApiError, messageOf } from '../../api/errors'

export function parseUploadResponse(status: number, body: unknown): Upload {
  if (status === 401) throw new ApiError('unauthorized', messageOf('unauthorized'), { status })
  if (status !== 200) throw new ApiError('http', messageOf('http'), { status })
  let env: unknown = body
  if (typeof body === 'string') {
    try {
      env = JSON.parse(body)
    } catch {
      throw new ApiError('http', messageOf('http'), { status })
    }
  }
  const header = (env as { header?: { errcode?: unknown; errmsg?: unknown } } | null)?.header
  if (!header || typeof header.errcode !== 'number') throw new ApiError('http', messageOf('http'), { status })
  if (header.errcode !== 0) throw new ApiError('business', messageOf('business', String(header.errmsg ?? '')), { errcode: header.errcode })
  const data = (env as { data?: Partial<Upload> | null }).data
  if (!data || typeof data.url !== 'string') throw new ApiError('http', messageOf('http'), { status })
  return { url: data.url, size_kb: Number(data.size_kb) || 0, name: String(data.name ?? '') }
}

/** A failure of the transport itself (no answer): the network message. */
export function networkUploadError(): ApiError {
  return new ApiError('network', messageOf('network'))
}
