/**
 * GET /api/share/card/{id}.png (routes/share.ts): the picture of a forwarded share card, drawn from
 * the share's own live data (share-card-svg.ts) and rendered to PNG with resvg. A card is keyed by
 * a hash of everything it shows, so any change to the shared data makes a new one (and a new
 * ETag); the last CARD_CACHE_SIZE are kept in memory, since rendering costs some 20-50 ms of CPU.
 * Chinese text needs a CJK font file: CARD_FONT, else the first of the known Debian/Ubuntu paths.
 */
import { Resvg } from '@resvg/resvg-js'
import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import type { Marker } from '../../../types/mapdata'
import type { Executor } from '../db/connection'
import { BusinessError } from '../envelope'
import { SHARE_MSG } from '../../../src/domain/shareMessages'
import type { PageTags } from '../static'
import { getSystemConfig } from '../db/system-config'
import { routesOfShare } from './routes'
import { liveShare, sharedMarkersPage } from './shares'
import { decodeMarkerColumns } from '../../../src/domain/markerColumns'
import { SHARE_KIND } from '../../../src/domain/share'
import { shareDataIds } from '../presenters/shares'
import { CARD_WIDTH, shareCardSvg, type CardInput } from './share-card-svg'

/** At most this many markers are drawn: a card is 500 px wide, more would not show. */
export const CARD_MAX_MARKERS = 3000
export const CARD_CACHE_SIZE = 200

/** Where Debian and Ubuntu put the CJK fonts the card can use (fonts-wqy-zenhei first, as .ci/run installs it). */
export const KNOWN_CARD_FONTS = [
  '/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc',
  '/usr/share/fonts/truetype/wqy/wqy-microhei.ttc',
  '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc',
  '/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc',
]

/** The font file for the cards' text: the configured one when it exists, else a known one; null without any. */
export function cardFontFile(configured: string | undefined, exists: (path: string) => boolean = existsSync): string | null {
  if (configured && exists(configured)) return configured
  return KNOWN_CARD_FONTS.find((path) => exists(path)) ?? null
}

export interface ShareCard {
  png: Buffer
  etag: string
}

export interface ShareCards {
  /** The card of a live share; throws the share's NOT_FOUND or EXPIRED as the share view does. */
  card(id: string, now: Date): Promise<ShareCard>
}

export function shareCards(db: Executor, options: { font?: string; log?: (line: string) => void } = {}): ShareCards {
  const font = cardFontFile(options.font)
  if (!font) options.log?.('share cards: no CJK font found, cards are drawn without text; install fonts-wqy-zenhei or set CARD_FONT to a .ttf/.ttc/.otf file')
  else if (options.font && font !== options.font) options.log?.(`share cards: CARD_FONT ${options.font} does not exist, using ${font}`)
  const cache = new Map<string, Buffer>()

  const render = (svg: string): Buffer =>
    new Resvg(svg, {
      fitTo: { mode: 'width', value: CARD_WIDTH },
      font: { loadSystemFonts: false, fontFiles: font ? [font] : [], defaultFontFamily: 'WenQuanYi Zen Hei' },
    })
      .render()
      .asPng()

  return {
    async card(id, now) {
      const share = await liveShare(db, id, now)
      const { row } = share
      const locked = row.need_pwd === 1
      const config = await getSystemConfig(db)
      let markers: Marker[] = []
      let routes: CardInput['routes'] = []
      if (!locked) {
        const page = await sharedMarkersPage(db, share, {}, { pageindex: 1, pagesize: CARD_MAX_MARKERS }, 'columns')
        if ('columns' in page) markers = decodeMarkerColumns(page.columns).list
        if (row.type === SHARE_KIND.route) routes = (await routesOfShare(db, row.group_id, shareDataIds(row))).map((r) => r.stops.map((s) => ({ lng: s.lng, lat: s.lat })))
      }
      const input: CardInput = {
        name: row.name,
        brand: config.brand ?? '',
        locked,
        markers: markers.map((m) => ({ type: m.type, points: m.points, style: m.style, width: m.width, radius: m.radius })),
        routes,
      }
      const svg = shareCardSvg(input)
      const etag = `"${createHash('sha1')
        .update(font ?? '')
        .update(svg)
        .digest('base64url')}"`
      let png = cache.get(etag)
      if (png) {
        // Most recently used last: the first key is the one to forget.
        cache.delete(etag)
      } else {
        png = render(svg)
        if (cache.size >= CARD_CACHE_SIZE) cache.delete(cache.keys().next().value!)
      }
      cache.set(etag, png)
      return { png, etag }
    },
  }
}

/** og: tags of /share/view?id=: a live share's name and card picture (a lock for a password share); a gone share says so, without a picture. */
export function shareViewTags(db: Executor, now: () => Date): (path: string, query: URLSearchParams, origin: string) => Promise<PageTags | null> {
  return async (path, query, origin) => {
    const id = query.get('id')
    if (path.replace(/\/+$/, '') !== '/share/view' || !id) return null
    try {
      const { row, group } = await liveShare(db, id, now())
      return {
        title: row.name || SHARE_MSG.untitled,
        description: SHARE_MSG.preview(group.name, row.need_pwd === 1),
        image: `${origin}/api/share/card/${encodeURIComponent(id)}.png`,
      }
    } catch (err) {
      if (err instanceof BusinessError) return { title: SHARE_MSG.untitled, description: err.message }
      throw err
    }
  }
}
