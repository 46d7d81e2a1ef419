/**
 * The keyless H5 map's base-map sources the user may choose among (the 底图来源 choice of the 地图样式
 * sheet): the build's own tiles (OpenStreetMap unless MAP_TILE_URL names others), AMap's tiles,
 * which load where OpenStreetMap is blocked, and no tiles at all. Stored coordinates are GCJ-02:
 * a source on that datum (AMap's) must be drawn without the GCJ-02 to WGS-84 shift that OSM needs.
 * Pure and small: the app store keeps the choice, so this is in every page's bundle.
 */

export type TileSourceId = 'osm' | 'amap' | 'none'

export interface TileSource {
  id: TileSourceId
  /** What the choice is called (Chinese). */
  label: string
  /** Leaflet URL template ({s} subdomain, {z}/{x}/{y}); empty for no tiles. */
  url: string
  /** The letters or digits {s} takes. */
  subdomains: string
  /** Shown in the map's corner (plain text; Leaflet shows it as HTML, so it holds no markup). */
  attribution: string
  /** The tiles are drawn on GCJ-02 (AMap's grid): markers go on them unshifted. */
  gcj02: boolean
  /** The deepest zoom the provider has tiles for; deeper zooms enlarge those. */
  maxNativeZoom: number
}

/** The build's tiles unless the user chose otherwise on this device. */
export const DEFAULT_TILE_SOURCE: TileSourceId = 'osm'

/** AMap's public road-map tiles (style 8: roads and names in Chinese), four hosts webrd01-04. */
export const AMAP_TILE_URL = 'https://webrd0{s}.is.autonavi.com/appmaptile?lang=zh_cn&size=1&scale=1&style=8&x={x}&y={y}&z={z}'

const TILE_SOURCE_IDS: readonly TileSourceId[] = ['osm', 'amap', 'none']

export function isTileSourceId(v: unknown): v is TileSourceId {
  return typeof v === 'string' && (TILE_SOURCE_IDS as readonly string[]).includes(v)
}

/** Whether a tile URL template is on GCJ-02: AMap's hosts (autonavi.com, amap.com) are. */
export function isGcj02Tiles(url: string): boolean {
  const host = /^(?:https?:)?\/\/([^/?#]+)/i.exec(url.trim())?.[1].toLowerCase() ?? ''
  return /(^|[.}])(autonavi|amap)\.com(:\d+)?$/.test(host)
}

/**
 * Every source, in the order offered. `build` is the build's own tiles (MAP_TILE_URL and the
 * attribution made for it): named OpenStreetMap when they are OSM's.
 */
export function tileSources(build: { url: string; attribution: string }): TileSource[] {
  const osm = /(^|\/\/|\.)openstreetmap\.org\//i.test(build.url)
  return [
    { id: 'osm', label: osm ? 'OpenStreetMap' : '默认底图', url: build.url, subdomains: 'abc', attribution: build.attribution, gcj02: isGcj02Tiles(build.url), maxNativeZoom: 19 },
    { id: 'amap', label: '高德', url: AMAP_TILE_URL, subdomains: '1234', attribution: '© 高德地图', gcj02: true, maxNativeZoom: 18 },
    { id: 'none', label: '无底图', url: '', subdomains: '', attribution: '', gcj02: false, maxNativeZoom: 19 },
  ]
}

/** The source for a remembered choice; anything unknown (an older app's value, a typo) is the default. */
export function tileSourceOf(id: unknown, build: { url: string; attribution: string }): TileSource {
  const all = tileSources(build)
  return all.find((s) => s.id === id) ?? all.find((s) => s.id === DEFAULT_TILE_SOURCE)!
}
