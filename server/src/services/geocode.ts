/**
 * Places for addresses, for importing a table that has addresses and no coordinates: AMap's web
 * service geocoder (restapi.amap.com, key AMAP_WEB_KEY), which answers GCJ-02 as the app stores.
 * Ten addresses a request (AMap's batch), one request at a time a little apart, under the
 * service's per-second quota for a personal key. An address AMap cannot place is null; a refused
 * or failed request fails the whole import with a message, and its reason goes to the log.
 */
import type { AddressPlaces } from '../../../src/domain/formats'
import { IMPORT_MSG } from '../../../src/domain/importMessages'
import { ErrCode } from '../../../types/api'
import { BusinessError } from '../envelope'

export interface Geocoder {
  /** `placed` is told how many are done after each request, and may throw to stop (a cancelled import). */
  geocode(addresses: string[], placed?: (done: number) => void): Promise<AddressPlaces>
}

/** The most distinct addresses one import may place (about a minute of requests at the quota). */
export const GEOCODE_MAX_ADDRESSES = 2000

/** AMap's batch size. */
const BATCH = 10
/** Between two requests: three a second at most. */
const GAP_MS = 350

interface AmapAnswer {
  status?: string
  info?: string
  geocodes?: { location?: string | unknown[] }[]
}

export class AmapGeocoder implements Geocoder {
  constructor(
    private readonly key: string,
    private readonly base = 'https://restapi.amap.com',
    private readonly log: (message: string) => void = () => undefined,
    private readonly gapMs = GAP_MS,
  ) {}

  async geocode(addresses: string[], placed: (done: number) => void = () => undefined): Promise<AddressPlaces> {
    const places: AddressPlaces = {}
    for (let i = 0; i < addresses.length; i += BATCH) {
      if (i > 0) await new Promise((r) => setTimeout(r, this.gapMs))
      const batch = addresses.slice(i, i + BATCH)
      const answer = await this.ask(batch)
      batch.forEach((address, k) => (places[address] = placeOf(answer.geocodes?.[k]?.location)))
      placed(i + batch.length)
    }
    return places
  }

  private async ask(batch: string[]): Promise<AmapAnswer> {
    const url = new URL('/v3/geocode/geo', this.base)
    url.search = new URLSearchParams({ key: this.key, address: batch.map((a) => a.replace(/\|/g, ' ')).join('|'), batch: 'true', output: 'JSON' }).toString()
    let answer: AmapAnswer
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(10_000) })
      answer = (await res.json()) as AmapAnswer
    } catch (err) {
      this.log(`AMap geocoder unreachable: ${(err as Error).message}`)
      throw new BusinessError(ErrCode.VALIDATION, IMPORT_MSG.geocodeFailed)
    }
    if (answer.status !== '1') {
      // INVALID_USER_KEY, DAILY_QUERY_OVER_LIMIT ...: the operator's to fix; the user is told to retry or add coordinates.
      this.log(`AMap geocoder refused: ${answer.info ?? 'no info'}`)
      throw new BusinessError(ErrCode.VALIDATION, IMPORT_MSG.geocodeFailed)
    }
    return answer
  }
}

/** '116.48,39.99' to [lng, lat]; AMap answers [] for an address it could not place. */
function placeOf(location: unknown): [number, number] | null {
  if (typeof location !== 'string') return null
  const [lng, lat] = location.split(',').map(Number)
  return Number.isFinite(lng) && Number.isFinite(lat) ? [lng, lat] : null
}
