/**
 * What the map draws (issue 4), as pure functions over stored GCJ-02 coordinates: an index of the
 * markers in memory (points for clustering and sampling, lines and areas with their bounds), and
 * for a view the clusters, the point markers (at most 200, sampled randomly but stably), the lines
 * and areas in view, or the heat cells. Every renderer (WeChat map, AMap, Leaflet) draws this list.
 * Clustering is supercluster's algorithm in this module's own build (PointClusters, below), which
 * indexes 100,000 markers within the 300-ms budget of DESIGN 7 where supercluster alone does not.
 */
import type { Marker } from '../../types/mapdata'
import { CLUSTER_MIN_ITEMS, CLUSTER_OPTIONS, HEATMAP_OPTIONS, LOADING_DASHED_THRESHOLD, LOADING_SOLID_THRESHOLD, MAX_VISIBLE_POINTS } from './constants'
import { boundsOf, isZeroPoint, type BBox, type LngLat } from './points'

/** The visible rectangle in GCJ-02 and the zoom level (web-mercator levels, 2-22). */
export interface Viewport {
  west: number
  south: number
  east: number
  north: number
  zoom: number
}

export interface Shape {
  marker: Marker
  parts: LngLat[][]
  bbox: BBox
  dashed: boolean
}

export interface ClusterItem {
  /** Stable while the cluster stays the same at this zoom (renderers diff by it). */
  key: string
  clusterId: number
  /** Which cluster index it comes from: the whole data (zoom 2-16) or the street-level one around the view. */
  level: 'low' | 'high'
  lng: number
  lat: number
  count: number
  /** SPEC 9: k abbreviations from 1000 (supercluster's point_count_abbreviated). */
  label: string
}

export interface HeatCell {
  lng: number
  lat: number
  count: number
  /** 0 to 0.8 (SPEC 9 heatmap opacity), count scaled against the max of 100. */
  opacity: number
  /** The heatmap radius (25 px) in metres at this zoom and latitude, for maps that draw in metres. */
  radiusMeters: number
}

export interface DrawList {
  clusters: ClusterItem[]
  points: Marker[]
  shapes: Shape[]
  /** Heat cells instead of point markers when the heatmap is on; null when it is off. */
  heat: HeatCell[] | null
  /** How many point markers are in view (clustered or not). */
  pointsInView: number
}

export interface MarkerIndex {
  /** Point markers and their coordinates, in parallel arrays. */
  points: Marker[]
  lng: Float64Array
  lat: Float64Array
  /** Point positions ordered by a seeded hash of the marker id: the stable random order of sampling. */
  order: Uint32Array
  /** Rank of each point position in that order (lower is drawn first). */
  rank: Uint32Array
  /** Clusters of all points for zoom 2 to 16; its finest level (the points themselves) answers range queries. */
  clusters: PointClusters
  shapes: Shape[]
  /** Clusters for zoom 17-22 around the last street-level view (built on demand, see highZoomClusters). */
  high: { bbox: BBox; clusters: PointClusters } | null
}

/**
 * Above this zoom the clusters are built on demand for the area around the view: building every
 * level up to 22 for all points costs about twice as much (measured with supercluster: 0.9 s
 * against 0.44 s for 90,000 points here), and at street level a view holds few points.
 */
export const LOW_MAX_ZOOM = 16

/**
 * The radius is measured against a 256-px tile: the maps here (WeChat, AMap, Leaflet) count zoom
 * levels in 256-px tiles, so that a radius of 20 is 20 screen pixels (supercluster's default extent
 * is 512).
 */
const CLUSTER_EXTENT = 256

/** Web-mercator x of a longitude, 0..1 across the world. */
function mercX(lng: number): number {
  return lng / 360 + 0.5
}

/** Web-mercator y of a latitude, 0 (north) to 1 (south), clamped as supercluster does. */
function mercY(lat: number): number {
  const sin = Math.sin((lat * Math.PI) / 180)
  const y = 0.5 - (0.25 * Math.log((1 + sin) / (1 - sin))) / Math.PI
  return y < 0 ? 0 : y > 1 ? 1 : y
}

function mercLng(x: number): number {
  return (x - 0.5) * 360
}

function mercLat(y: number): number {
  const y2 = ((180 - y * 360) * Math.PI) / 180
  return (360 * Math.atan(Math.exp(y2))) / Math.PI - 90
}

/** SPEC 9: badge labels abbreviated with k from 1000 (as supercluster's point_count_abbreviated). */
export function abbreviateCount(count: number): string {
  return count >= 10000 ? `${Math.round(count / 1000)}k` : count >= 1000 ? `${Math.round(count / 100) / 10}k` : String(count)
}

/**
 * A hash grid over the items of one level: cells of a fixed size, each a linked list of items. With
 * cells twice the cluster radius wide, the neighbours of an item are in its own cell and the 3 towards
 * its corner of it; building it is one pass (no sort), which is what makes the index cheap to build.
 * A slot is 3 ints (cell x, cell y, first item) so that a lookup touches one place in memory.
 */
interface Grid {
  cell: number
  mask: number
  slots: Int32Array
  /**
   * 16 bits per item, one set for each used cell (by another hash): most cells looked up at street
   * level are empty, and this answers nearly all of them from a small array.
   */
  present: Uint32Array
  presentMask: number
  next: Int32Array
}

function cellHash(cx: number, cy: number): number {
  return Math.imul(cx, 0x9e3779b1) ^ Math.imul(cy, 0x85ebca77)
}

function presenceHash(cx: number, cy: number): number {
  const h = Math.imul(cx ^ Math.imul(cy, 0x27d4eb2f), 0x165667b1)
  return h ^ (h >>> 15)
}

/** Over n items at xy (x, y interleaved). */
function buildGrid(xy: Float64Array, n: number, cell: number): Grid {
  let size = 16
  while (size * 0.75 < n) size *= 2
  const mask = size - 1
  const slots = new Int32Array(size * 3)
  for (let h = 2; h < slots.length; h += 3) slots[h] = -1
  let bits = 32
  while (bits < n * 16) bits *= 2
  const present = new Uint32Array(bits >>> 5)
  const presentMask = bits - 1
  const next = new Int32Array(Math.max(n, 1))
  // Backwards, so that every cell lists its items in their order.
  for (let i = n - 1; i >= 0; i--) {
    const gx = Math.floor(xy[2 * i] / cell)
    const gy = Math.floor(xy[2 * i + 1] / cell)
    let h = (cellHash(gx, gy) & mask) * 3
    while (slots[h + 2] !== -1 && (slots[h] !== gx || slots[h + 1] !== gy)) h = h + 3 === slots.length ? 0 : h + 3
    if (slots[h + 2] === -1) {
      slots[h] = gx
      slots[h + 1] = gy
      const p = presenceHash(gx, gy) & presentMask
      present[p >>> 5] |= 1 << (p & 31)
    }
    next[i] = slots[h + 2]
    slots[h + 2] = i
  }
  return { cell, mask, slots, present, presentMask, next }
}

/** The first item of a cell, -1 when it is empty. */
function cellHead(g: Grid, gx: number, gy: number): number {
  const p = presenceHash(gx, gy) & g.presentMask
  if (!(g.present[p >>> 5] & (1 << (p & 31)))) return -1
  const { slots } = g
  let h = (cellHash(gx, gy) & g.mask) * 3
  while (slots[h + 2] !== -1) {
    if (slots[h] === gx && slots[h + 1] === gy) return slots[h + 2]
    h = h + 3 === slots.length ? 0 : h + 3
  }
  return -1
}

/** Cluster numbers are never reused in a session (a rebuilt street-level index must not repeat the keys renderers diff by). */
let clusterSeq = 0

/** Scratch arrays of one load, as long as its points. */
interface Work {
  taken: Uint8Array
  near: Int32Array
  xy: Float64Array
  count: Int32Array
  ref: Int32Array
}

/** The items of one zoom level: clusters and single points, in web-mercator units. */
interface Level {
  n: number
  /** x and y of each item, interleaved. */
  xy: Float64Array
  /** Points in the item: 1 for a single point. */
  count: Int32Array
  /** A single point's position in the source, or a cluster's id. */
  ref: Int32Array
  /** Over the items, with cells twice the radius of the zoom below (the clustering of this level into it). */
  grid: Grid
}

/**
 * Greedy clustering of points across zoom levels, the algorithm of supercluster (radius in px of a
 * 256-px tile, min points; from the finest level up, each point or cluster not yet taken gathers the
 * others within the radius, and becomes a cluster at its weighted centre when they hold at least min
 * points, else they all stay as they are), with neighbours found through hash grids in flat typed
 * arrays instead of a KD-tree per level and an object per point (bench/markers.ts prints both builds:
 * several times faster than supercluster alone). Which neighbours end up together can differ from
 * supercluster's (it visits them in its KD-tree's order); the number of clusters per zoom stays
 * within a few percent (test/unit/mapDraw.test.ts). A cluster's id carries the zoom it formed at,
 * which is where it falls apart when tapped.
 */
export class PointClusters {
  private readonly levels: Level[] = []

  constructor(private readonly options: { radius: number; minPoints: number; minZoom: number; maxZoom: number; extent: number }) {}

  /** Points by web-mercator x and y (interleaved), and what each stands for (a position in the marker index). */
  load(xy: Float64Array, ref: Int32Array): this {
    const { minZoom, maxZoom } = this.options
    const n = ref.length
    let level: Level = { n, xy, count: new Int32Array(n).fill(1), ref, grid: buildGrid(xy, n, 2 * this.radiusAt(maxZoom)) }
    this.levels[maxZoom + 1] = level
    // Working space for every level (no level has more items than the points): only what is kept is allocated per level.
    const work: Work = { taken: new Uint8Array(n), near: new Int32Array(Math.max(n, 1)), xy: new Float64Array(2 * n), count: new Int32Array(n), ref: new Int32Array(n) }
    for (let z = maxZoom; z >= minZoom; z--) {
      level = this.cluster(level, z, work)
      this.levels[z] = level
    }
    return this
  }

  private radiusAt(zoom: number): number {
    return this.options.radius / (this.options.extent * 2 ** zoom)
  }

  /** The items at `zoom`, from the items at zoom + 1 and their grid (cells twice this zoom's radius). */
  private cluster(src: Level, zoom: number, work: Work): Level {
    const { minPoints } = this.options
    const r = this.radiusAt(zoom)
    const r2 = r * r
    const { n, xy, count, ref, grid } = src
    const { next, cell } = grid
    const { taken, near, xy: oxy, count: oc, ref: or } = work
    taken.fill(0, 0, n)
    let m = 0
    for (let i = 0; i < n; i++) {
      if (taken[i]) continue
      taken[i] = 1
      const xi = xy[2 * i]
      const yi = xy[2 * i + 1]
      // The neighbours are in this cell and the 3 towards the item's corner of it.
      const fx = xi / cell
      const fy = yi / cell
      const gx = Math.floor(fx)
      const gy = Math.floor(fy)
      const sx = fx - gx < 0.5 ? -1 : 1
      const sy = fy - gy < 0.5 ? -1 : 1
      let points = count[i]
      let found = 0
      // A cell lists its items in order, and every item before this one has been taken: in its own
      // cell only those after it can be free.
      for (let c = 0; c < 4; c++)
        for (let k = c === 0 ? next[i] : cellHead(grid, c & 1 ? gx + sx : gx, c & 2 ? gy + sy : gy); k !== -1; k = next[k]) {
          if (taken[k]) continue
          const ex = xy[2 * k] - xi
          const ey = xy[2 * k + 1] - yi
          if (ex * ex + ey * ey <= r2) {
            near[found++] = k
            points += count[k]
          }
        }
      if (found > 0 && points >= minPoints) {
        let wx = xi * count[i]
        let wy = yi * count[i]
        for (let j = 0; j < found; j++) {
          const k = near[j]
          taken[k] = 1
          wx += xy[2 * k] * count[k]
          wy += xy[2 * k + 1] * count[k]
        }
        oxy[2 * m] = wx / points
        oxy[2 * m + 1] = wy / points
        oc[m] = points
        clusterSeq = (clusterSeq + 1) % 2 ** 26
        or[m] = clusterSeq * 32 + zoom
        m++
      } else {
        oxy[2 * m] = xi
        oxy[2 * m + 1] = yi
        oc[m] = count[i]
        or[m] = ref[i]
        m++
        for (let j = 0; j < found; j++) {
          const k = near[j]
          taken[k] = 1
          oxy[2 * m] = xy[2 * k]
          oxy[2 * m + 1] = xy[2 * k + 1]
          oc[m] = count[k]
          or[m] = ref[k]
          m++
        }
      }
    }
    const lxy = oxy.slice(0, 2 * m)
    return { n: m, xy: lxy, count: oc.slice(0, m), ref: or.slice(0, m), grid: buildGrid(lxy, m, 2 * this.radiusAt(zoom - 1)) }
  }

  /** The level drawn at a zoom (as supercluster: whole zooms, limited to the levels built). */
  level(zoom: number): Level {
    const { minZoom, maxZoom } = this.options
    return this.levels[Math.max(minZoom, Math.min(Math.floor(zoom), maxZoom + 1))]
  }

  /** The finest level: the points themselves, in the order they were loaded. */
  get points(): Level {
    return this.levels[this.options.maxZoom + 1]
  }

  /** Items of a level inside a lng/lat box (a box across the antimeridian is split in two). */
  itemsIn(level: Level, b: BBox): number[] {
    const out: number[] = []
    if (b[0] > b[2]) {
      rangeOf(level, mercX(b[0]), mercY(b[3]), 1, mercY(b[1]), out)
      rangeOf(level, 0, mercY(b[3]), mercX(b[2]), mercY(b[1]), out)
    } else rangeOf(level, mercX(b[0]), mercY(b[3]), mercX(b[2]), mercY(b[1]), out)
    return out
  }

  /** The zoom at which a cluster falls apart into its parts: the one after it formed. */
  static expansionZoom(clusterId: number): number {
    return (clusterId % 32) + 1
  }

  static lngLat(level: Level, k: number): [number, number] {
    return [mercLng(level.xy[2 * k]), mercLat(level.xy[2 * k + 1])]
  }
}

/** Items of a level inside a web-mercator box; a box over more cells than there are items is a scan. */
function rangeOf(level: Level, x0: number, y0: number, x1: number, y1: number, out: number[]): void {
  const { grid, xy, n } = level
  const inside = (k: number) => xy[2 * k] >= x0 && xy[2 * k] <= x1 && xy[2 * k + 1] >= y0 && xy[2 * k + 1] <= y1
  const gx0 = Math.floor(x0 / grid.cell)
  const gx1 = Math.floor(x1 / grid.cell)
  const gy0 = Math.floor(y0 / grid.cell)
  const gy1 = Math.floor(y1 / grid.cell)
  if ((gx1 - gx0 + 1) * (gy1 - gy0 + 1) > n) {
    for (let k = 0; k < n; k++) if (inside(k)) out.push(k)
    return
  }
  for (let gy = gy0; gy <= gy1; gy++) for (let gx = gx0; gx <= gx1; gx++) for (let k = cellHead(grid, gx, gy); k !== -1; k = grid.next[k]) if (inside(k)) out.push(k)
}

/** Seed of the sampling order: the same marker keeps its place on every phone and every run. */
export const SAMPLE_SEED = 0x9e3779b9

/** A 32-bit mix of the id (murmur3's finaliser): looks random, is deterministic. */
export function stableHash(id: number, seed = SAMPLE_SEED): number {
  let h = (Math.imul(id | 0, 0x85ebca6b) ^ seed ^ Math.floor(id / 2 ** 32)) >>> 0
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35)
  h ^= h >>> 16
  return h >>> 0
}

/**
 * The number in s[from, to) exactly as `+s.slice(from, to)` reads it, without making the slice for
 * plain decimals (the index reads 100,000 markers): up to 15 digits, the integer of the digits over a
 * power of ten is the correctly rounded value; anything else goes through the slice.
 */
function readNumber(s: string, from: number, to: number): number {
  let i = from
  const sign = s.charCodeAt(i)
  if (sign === 45 || sign === 43) i++
  let int = 0
  let digits = 0
  let scale = 1
  let dot = false
  for (; i < to; i++) {
    const c = s.charCodeAt(i)
    if (c >= 48 && c <= 57) {
      int = int * 10 + (c - 48)
      digits++
      if (dot) scale *= 10
    } else if (c === 46 && !dot) dot = true
    else return +s.slice(from, to)
  }
  if (digits === 0 || digits > 15) return +s.slice(from, to)
  return sign === 45 ? -(int / scale) : int / scale
}

/** Reads 'lng,lat|lng,lat;lng,lat...' in one pass over the text; null when a vertex cannot be read. */
function parseParts(points: string): LngLat[][] | null {
  const parts: LngLat[][] = []
  let part: LngLat[] = []
  let start = 0
  let comma = -1
  for (let i = 0; i <= points.length; i++) {
    const c = i < points.length ? points.charCodeAt(i) : 59
    if (c === 44) {
      if (comma >= 0) return null
      comma = i
    } else if (c === 124 || c === 59) {
      if (comma < 0) return null
      const lng = readNumber(points, start, comma)
      const lat = readNumber(points, comma + 1, i)
      if (!Number.isFinite(lng) || !Number.isFinite(lat)) return null
      part.push({ lng, lat })
      if (c === 59) {
        parts.push(part)
        part = []
      }
      start = i + 1
      comma = -1
    }
  }
  return parts
}

const INDEX_BITS = 2 ** 21

/** Builds what every view needs from the markers in memory; markers with broken points are skipped. */
export function buildMarkerIndex(markers: readonly Marker[]): MarkerIndex {
  const points: Marker[] = []
  const coords = new Float64Array(markers.length * 2)
  const shapes: Shape[] = []
  for (const m of markers) {
    if (m.type === 0) {
      // One 'lng,lat' vertex, read without making objects (the many point markers).
      const text = m.points
      const comma = text.indexOf(',')
      if (comma < 0 || text.indexOf('|') >= 0 || text.indexOf(';') >= 0) continue
      const pLng = readNumber(text, 0, comma)
      const pLat = readNumber(text, comma + 1, text.length)
      if (!Number.isFinite(pLng) || !Number.isFinite(pLat)) continue
      coords[2 * points.length] = pLng
      coords[2 * points.length + 1] = pLat
      points.push(m)
    } else {
      const parts = parseParts(m.points)
      if (!parts || !parts[0]?.length) continue
      shapes.push({ marker: m, parts, bbox: boundsOf(m.type, parts, m.radius), dashed: isDashedShape(m) })
    }
  }
  const n = points.length
  const lng = new Float64Array(n)
  const lat = new Float64Array(n)
  const xy = new Float64Array(2 * n)
  const ref = new Int32Array(n)
  // hash * 2^21 + position fits a double exactly: one numeric sort gives the sampling order.
  const keys = new Float64Array(n)
  for (let i = 0; i < n; i++) {
    lng[i] = coords[2 * i]
    lat[i] = coords[2 * i + 1]
    xy[2 * i] = mercX(lng[i])
    xy[2 * i + 1] = mercY(lat[i])
    ref[i] = i
    keys[i] = stableHash(points[i].id) * INDEX_BITS + i
  }
  keys.sort()
  const order = new Uint32Array(n)
  const rank = new Uint32Array(n)
  for (let r = 0; r < n; r++) {
    const i = keys[r] % INDEX_BITS
    order[r] = i
    rank[i] = r
  }
  const clusters = new PointClusters({ ...CLUSTER_OPTIONS, extent: CLUSTER_EXTENT, maxZoom: LOW_MAX_ZOOM }).load(xy, ref)
  return { points, lng, lat, order, rank, clusters, shapes, high: null }
}

/** Point positions inside a box (through the finest level of the cluster index: the points themselves). */
function positionsIn(index: MarkerIndex, b: BBox): number[] {
  const level = index.clusters.points
  return index.clusters.itemsIn(level, b).map((k) => level.ref[k])
}

/**
 * Street-level clusters (zoom 17-22, same radius and min points): built for the view padded by
 * its own size on every side, reused while later views stay inside that area.
 */
export function highZoomClusters(index: MarkerIndex, view: Viewport): NonNullable<MarkerIndex['high']> {
  const cached = index.high
  if (cached && cached.bbox[0] <= view.west && cached.bbox[1] <= view.south && cached.bbox[2] >= view.east && cached.bbox[3] >= view.north) return cached
  const w = view.east - view.west
  const h = view.north - view.south
  const bbox: BBox = [view.west - w, view.south - h, view.east + w, view.north + h]
  const positions = positionsIn(index, bbox)
  const { points } = index.clusters
  const xy = new Float64Array(2 * positions.length)
  const ref = new Int32Array(positions.length)
  // The finest level keeps the points in their order, so a position is also the item's index there.
  positions.forEach((i, k) => {
    xy[2 * k] = points.xy[2 * i]
    xy[2 * k + 1] = points.xy[2 * i + 1]
    ref[k] = i
  })
  const clusters = new PointClusters({ ...CLUSTER_OPTIONS, extent: CLUSTER_EXTENT, minZoom: LOW_MAX_ZOOM + 1 }).load(xy, ref)
  index.high = { bbox, clusters }
  return index.high
}

function isDashedShape(m: Marker): boolean {
  return m.type === 2 || m.type === 6 || !!m.style?.dashed
}

function inView(v: Viewport, lng: number, lat: number): boolean {
  return lat >= v.south && lat <= v.north && (v.west <= v.east ? lng >= v.west && lng <= v.east : lng >= v.west || lng <= v.east)
}

function boxInView(v: Viewport, b: BBox): boolean {
  if (b[1] > v.north || b[3] < v.south) return false
  if (v.west <= v.east) return !(b[0] > v.east || b[2] < v.west)
  return true
}

export interface DrawOptions {
  heatmap?: boolean
  /** Ids of the point markers drawn for the previous view: those still in view stay drawn. */
  previous?: ReadonlySet<number>
  /** Draw every point individually up to the cap, never clusters (a setting of some screens). */
  cluster?: boolean
}

/**
 * Picks at most `cap` of the candidate positions: first those drawn before, then in the stable
 * random order. `isCandidate` says whether a position may be drawn in this view.
 */
function pickStable(index: MarkerIndex, isCandidate: (i: number) => boolean, cap: number, previous?: ReadonlySet<number>, previousPositions?: number[]): number[] {
  const picked: number[] = []
  const taken = new Set<number>()
  if (previous && previousPositions) {
    for (const i of previousPositions) {
      if (picked.length >= cap) break
      if (isCandidate(i)) {
        picked.push(i)
        taken.add(i)
      }
    }
  }
  const { order } = index
  for (let r = 0; r < order.length && picked.length < cap; r++) {
    const i = order[r]
    if (!taken.has(i) && isCandidate(i)) picked.push(i)
  }
  return picked
}

/** Positions of the previously drawn ids (looked up only among the few drawn before). */
function positionsOf(index: MarkerIndex, previous: ReadonlySet<number> | undefined, within: number[] | null): number[] {
  if (!previous || previous.size === 0) return []
  const out: number[] = []
  if (within) {
    for (const i of within) if (previous.has(index.points[i].id)) out.push(i)
    return out
  }
  // Without a candidate list the previous ids are found through the sampling order's cheap scan.
  const { points } = index
  for (let i = 0; i < points.length && out.length < previous.size; i++) if (previous.has(points[i].id)) out.push(i)
  return out
}

/** SPEC 4 and 9: clusters only with 20 or more items in view; at most 200 point markers; heatmap replaces points. */
export function computeDrawList(index: MarkerIndex, view: Viewport, options: DrawOptions = {}): DrawList {
  const shapes = index.shapes.filter((s) => boxInView(view, s.bbox))
  const { lng, lat } = index

  if (options.heatmap) {
    const { cells, total } = heatCells(index, view)
    return { clusters: [], points: [], shapes, heat: cells, pointsInView: total }
  }

  const zoom = Math.max(CLUSTER_OPTIONS.minZoom, Math.min(Math.floor(view.zoom), CLUSTER_OPTIONS.maxZoom + 1))
  if (options.cluster !== false) {
    const level = zoom > LOW_MAX_ZOOM ? 'high' : 'low'
    const source = level === 'high' ? highZoomClusters(index, view).clusters : index.clusters
    const items = source.level(zoom)
    const inside = source.itemsIn(items, [view.west, view.south, view.east, view.north])
    let total = 0
    const singles: number[] = []
    const clusterItems: number[] = []
    for (const k of inside) {
      const count = items.count[k]
      total += count
      if (count > 1) clusterItems.push(k)
      else singles.push(items.ref[k])
    }
    if (total >= CLUSTER_MIN_ITEMS) {
      const clusters = clusterItems.map((k): ClusterItem => {
        const [cLng, cLat] = PointClusters.lngLat(items, k)
        const id = items.ref[k]
        return { key: `${level}${zoom}:${id}`, clusterId: id, level, lng: cLng, lat: cLat, count: items.count[k], label: abbreviateCount(items.count[k]) }
      })
      let chosen = singles
      if (singles.length > MAX_VISIBLE_POINTS) {
        const candidates = new Set(singles)
        chosen = pickStable(index, (i) => candidates.has(i), MAX_VISIBLE_POINTS, options.previous, positionsOf(index, options.previous, singles))
      }
      return { clusters, points: chosen.map((i) => index.points[i]), shapes, heat: null, pointsInView: total }
    }
    // Fewer than 20 in view: every one is drawn on its own (clusters would hide a handful of points).
    const few = positionsIn(index, [view.west, view.south, view.east, view.north]).filter((i) => inView(view, lng[i], lat[i]))
    return { clusters: [], points: few.map((i) => index.points[i]), shapes, heat: null, pointsInView: few.length }
  }

  const isVisible = (i: number) => inView(view, lng[i], lat[i])
  const chosen = pickStable(index, isVisible, MAX_VISIBLE_POINTS, options.previous, positionsOf(index, options.previous, null))
  return { clusters: [], points: chosen.map((i) => index.points[i]), shapes, heat: null, pointsInView: chosen.length }
}

/** Degrees of longitude one screen pixel covers at a zoom level (256-px tiles). */
export function degreesPerPixel(zoom: number): number {
  return 360 / (256 * 2 ** zoom)
}

/**
 * Heatmap (SPEC 9: radius 25, opacity 0-0.8, max 100): in-view points binned into cells one radius
 * across; a cell's opacity grows with its count up to the max.
 */
export function heatCells(index: MarkerIndex, view: Viewport): { cells: HeatCell[]; total: number } {
  const size = HEATMAP_OPTIONS.radius * degreesPerPixel(view.zoom)
  const [minOpacity, maxOpacity] = HEATMAP_OPTIONS.opacity
  const bins = new Map<number, { n: number; sx: number; sy: number }>()
  const { lng, lat } = index
  let total = 0
  const cols = Math.ceil(360 / size) + 1
  for (let i = 0; i < lng.length; i++) {
    if (!inView(view, lng[i], lat[i])) continue
    total++
    const key = Math.floor((lat[i] + 90) / size) * cols + Math.floor((lng[i] + 180) / size)
    const bin = bins.get(key)
    if (bin) {
      bin.n++
      bin.sx += lng[i]
      bin.sy += lat[i]
    } else bins.set(key, { n: 1, sx: lng[i], sy: lat[i] })
  }
  const cells: HeatCell[] = []
  for (const b of bins.values()) {
    const weight = Math.min(b.n, HEATMAP_OPTIONS.max) / HEATMAP_OPTIONS.max
    const cellLat = b.sy / b.n
    const radiusMeters = Math.round(HEATMAP_OPTIONS.radius * ((156543.03392 * Math.cos((cellLat * Math.PI) / 180)) / 2 ** view.zoom))
    cells.push({ lng: b.sx / b.n, lat: cellLat, count: b.n, opacity: minOpacity + weight * (maxOpacity - minOpacity), radiusMeters })
  }
  return { cells, total }
}

/** SPEC 4 and 9: the loading indicator shows for more than 10 dashed or 30 solid lines/areas. */
export function needsShapeLoading(shapes: readonly Pick<Shape, 'dashed'>[]): boolean {
  let dashed = 0
  let solid = 0
  for (const s of shapes) {
    if (s.dashed) dashed++
    else solid++
  }
  return dashed > LOADING_DASHED_THRESHOLD || solid > LOADING_SOLID_THRESHOLD
}

/** The zoom at which a tapped cluster falls apart (the map zooms there, centred on it). */
export function clusterZoom(_index: MarkerIndex, cluster: Pick<ClusterItem, 'clusterId' | 'level'>): number {
  // A cluster's id carries the zoom it formed at, whichever index it came from (even one rebuilt since).
  return Math.min(PointClusters.expansionZoom(cluster.clusterId), CLUSTER_OPTIONS.maxZoom)
}

/** Bounds of everything in memory for 'fit to data'; points at 0,0 are ignored (SPEC 4). */
export function dataBounds(index: MarkerIndex): BBox | null {
  let b: BBox | null = null
  const grow = (x0: number, y0: number, x1: number, y1: number) => {
    b = b ? [Math.min(b[0], x0), Math.min(b[1], y0), Math.max(b[2], x1), Math.max(b[3], y1)] : [x0, y0, x1, y1]
  }
  for (let i = 0; i < index.lng.length; i++) {
    if (isZeroPoint({ lng: index.lng[i], lat: index.lat[i] })) continue
    grow(index.lng[i], index.lat[i], index.lng[i], index.lat[i])
  }
  for (const s of index.shapes) {
    if (s.parts.every((part) => part.every(isZeroPoint))) continue
    grow(s.bbox[0], s.bbox[1], s.bbox[2], s.bbox[3])
  }
  return b
}


