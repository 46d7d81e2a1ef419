/**
 * What the map draws, as pure functions over stored GCJ-02 coordinates: an index of the
 * markers in memory (points for clustering and sampling, lines and areas with their bounds), and
 * for a view the clusters, the point markers (at most 200, sampled randomly but stably), the lines
 * and areas in view, or the heat cells. Every renderer (WeChat map, AMap, Leaflet) draws this list.
 */
import Supercluster from 'supercluster'
import type { Marker } from '../../types/mapdata'
import { CLUSTER_MIN_ITEMS, CLUSTER_OPTIONS, HEATMAP_OPTIONS, LOADING_DASHED_THRESHOLD, LOADING_SOLID_THRESHOLD, MAX_VISIBLE_POINTS } from './constants'
import { boundsOf, isZeroPoint, readParts, vertexAt, type BBox, type LngLat } from './points'
import { MARKER_KIND, isPoint } from './markerKinds'
import { isPendingMarker } from './pendingLook'

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
  /** Each part's holes (areas only): renderers cut them out of the fill, or at least outline them. */
  holes: LngLat[][][]
  bbox: BBox
  dashed: boolean
}

export interface ClusterItem {
  /** Stable while the cluster stays the same at this zoom (renderers diff by it). */
  key: string
  clusterId: number
  /** Which cluster index it comes from: the whole data (zoom 2-14) or the street-level one around the view. */
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
  /**
   * Clusters of all points for zoom 2 to LOW_MAX_ZOOM; its level LOW_MAX_ZOOM + 1 holds every point
   * unclustered and answers the range queries (see positionsIn).
   */
  clusters: PointClusters
  shapes: Shape[]
  /** Clusters for zoom 15-22 around the last street-level view (built on demand, see highZoomClusters). */
  high: { bbox: BBox; clusters: PointClusters; positions: number[] } | null
}

type PointClusters = Supercluster<{ i: number }, Record<string, never>>

/**
 * Above this zoom the clusters are built on demand for the area around the view: building every
 * level up to 22 for all points costs several times as much, and from zoom 15 a view (padded by its
 * size on every side) holds a few thousand points at most even in a dense city. Measured with
 * bench/markers.ts on 90,000 points: levels 2-16 took 0.36 s of supercluster, levels 2-14 0.18 s.
 */
export const LOW_MAX_ZOOM = 14

/**
 * supercluster measures its radius against a 512-px tile by default; the maps here (WeChat, AMap,
 * Leaflet) count zoom levels in 256-px tiles, so the tile extent is 256 for the radius of 20 to be
 * 20 screen pixels.
 */
const CLUSTER_EXTENT = 256

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

const INDEX_BITS = 2 ** 21

/**
 * The markers read so far into what the index needs (point positions, lines and areas), before the
 * sampling order and the clusters: read in steps (readMarkers), so that on H5 100,000 markers are
 * read in tasks of a few milliseconds while the clusters are built in a worker.
 */
export interface IndexDraft {
  markers: readonly Marker[]
  /** The next marker to read. */
  next: number
  points: Marker[]
  /** The points' coordinates and ids by position in `points`, written as they are read (room for every marker). */
  lng: Float64Array
  lat: Float64Array
  ids: Float64Array
  shapes: Shape[]
}

export function startIndex(markers: readonly Marker[]): IndexDraft {
  const n = markers.length
  return { markers, next: 0, points: [], lng: new Float64Array(n), lat: new Float64Array(n), ids: new Float64Array(n), shapes: [] }
}

/** Reads up to `count` more markers into the draft; markers with broken points are skipped. True when all are read. */
export function readMarkers(d: IndexDraft, count: number): boolean {
  const end = Math.min(d.markers.length, d.next + count)
  const { lng, lat, ids, points, shapes } = d
  for (let k = d.next; k < end; k++) {
    const m = d.markers[k]
    if (isPoint(m.type)) {
      const p = vertexAt(m.points, 0, m.points.length)
      if (!p) continue
      const i = points.length
      lng[i] = p.lng
      lat[i] = p.lat
      ids[i] = m.id
      points.push(m)
    } else {
      const read = readParts(m.points)
      if (!read || !read.parts[0]?.length) continue
      shapes.push({ marker: m, parts: read.parts, holes: read.holes, bbox: boundsOf(m.type, read.parts, m.radius), dashed: isDashedShape(m) })
    }
  }
  d.next = end
  return end >= d.markers.length
}

/**
 * The read points' coordinates and ids, in parallel arrays (what the cluster worker is sent): views of the
 * draft's, no copy (a loop over 100,000 markers here was a long task of its own on a slow phone).
 */
export function draftPoints(d: IndexDraft): { lng: Float64Array; lat: Float64Array; ids: Float64Array } {
  const n = d.points.length
  return { lng: d.lng.subarray(0, n), lat: d.lat.subarray(0, n), ids: d.ids.subarray(0, n) }
}

/** Point positions ordered by a seeded hash of the marker id (the stable random order of sampling). */
export function sampleOrder(ids: ArrayLike<number>): Uint32Array {
  const n = ids.length
  // hash * 2^21 + position fits a double exactly: one numeric sort gives the sampling order.
  const keys = new Float64Array(n)
  for (let i = 0; i < n; i++) keys[i] = stableHash(ids[i]) * INDEX_BITS + i
  keys.sort()
  const order = new Uint32Array(n)
  for (let r = 0; r < n; r++) order[r] = keys[r] % INDEX_BITS
  return order
}

type PointFeature = Supercluster.PointFeature<{ i: number }>

/** supercluster's input for points [from, to), written into `out` at their positions. */
export function pointFeatures(lng: Float64Array, lat: Float64Array, from: number, to: number, out: PointFeature[]): PointFeature[] {
  for (let i = from; i < to; i++) out[i] = { type: 'Feature', properties: { i }, geometry: { type: 'Point', coordinates: [lng[i], lat[i]] } }
  return out
}

function clusterPoints(features: PointFeature[]): PointClusters {
  const clusters: PointClusters = new Supercluster({ ...CLUSTER_OPTIONS, extent: CLUSTER_EXTENT, maxZoom: LOW_MAX_ZOOM })
  return clusters.load(features)
}

/** Builds what every view needs from the markers in memory; markers with broken points are skipped. */
export function buildMarkerIndex(markers: readonly Marker[]): MarkerIndex {
  const d = startIndex(markers)
  readMarkers(d, markers.length)
  const { lng, lat, ids } = draftPoints(d)
  const features = pointFeatures(lng, lat, 0, lng.length, new Array<PointFeature>(lng.length))
  return { points: d.points, lng, lat, order: sampleOrder(ids), clusters: clusterPoints(features), shapes: d.shapes, high: null }
}

/** supercluster's kd-tree of one zoom level, as far as its internals go (its own field names). */
interface KdTree {
  ids: Uint16Array | Uint32Array
  data: ArrayLike<number>
  constructor: { from(buffer: ArrayBuffer): KdTree }
}

/**
 * The clusters and sampling order built away from the page (the H5 cluster worker): per zoom level,
 * supercluster's kd-tree as its one ArrayBuffer and the level's cluster data, all transferable.
 */
export interface BuiltClusters {
  order: Uint32Array
  trees: { z: number; tree: ArrayBuffer; data: Float64Array }[]
}

/** The worker's part: the sampling order and every zoom level's clusters of these points. */
export function buildClusters(lng: Float64Array, lat: Float64Array, ids: Float64Array): BuiltClusters {
  const clusters = clusterPoints(pointFeatures(lng, lat, 0, lng.length, new Array<PointFeature>(lng.length)))
  const trees = (clusters as unknown as { trees: (KdTree | undefined)[] }).trees
  const out: BuiltClusters['trees'] = []
  trees.forEach((t, z) => {
    // supercluster keeps the level's data beside kdbush's buffer (which the typed arrays view).
    if (t) out.push({ z, tree: t.ids.buffer as ArrayBuffer, data: Float64Array.from(t.data) })
  })
  return { order: sampleOrder(ids), trees: out }
}

/** What buildClusters sends away, with the transferable buffers listed. */
export function transferablesOf(built: BuiltClusters): ArrayBuffer[] {
  return [built.order.buffer as ArrayBuffer, ...built.trees.flatMap((t) => [t.tree, t.data.buffer as ArrayBuffer])]
}

/**
 * The index from a draft read on the page and the clusters built by the worker: the same
 * supercluster levels, wrapped back into supercluster (kdbush is supercluster's dependency, not the
 * app's, so its class is taken from a tree supercluster made) with the page's features of the points.
 */
export function indexFromBuilt(d: IndexDraft, lng: Float64Array, lat: Float64Array, built: BuiltClusters, features: PointFeature[]): MarkerIndex {
  const clusters: PointClusters = new Supercluster({ ...CLUSTER_OPTIONS, extent: CLUSTER_EXTENT, maxZoom: LOW_MAX_ZOOM })
  const inner = clusters as unknown as { trees: KdTree[]; points: PointFeature[] }
  const Tree = (new Supercluster({ ...CLUSTER_OPTIONS, extent: CLUSTER_EXTENT, maxZoom: LOW_MAX_ZOOM }).load([]) as unknown as { trees: KdTree[] }).trees[LOW_MAX_ZOOM + 1].constructor
  for (const { z, tree, data } of built.trees) {
    const t = Tree.from(tree)
    t.data = data
    inner.trees[z] = t
  }
  inner.points = features
  return { points: d.points, lng, lat, order: built.order, clusters, shapes: d.shapes, high: null }
}

/**
 * supercluster keeps its points in a 32-bit float projection (about 2 m here), so range queries
 * ask for a box this much larger and callers that need the exact edge test the coordinates.
 */
const RANGE_PAD_DEGREES = 1e-4

/**
 * Point positions in a box, possibly with a few just outside it. supercluster's level above its
 * max zoom is every input point unclustered, in a kd-tree it has built anyway: asking it saves a
 * second tree of the same 90,000 points (30 ms of every index build).
 */
function positionsIn(index: MarkerIndex, b: BBox): number[] {
  if (index.points.length === 0) return []
  const found = index.clusters.getClusters([b[0] - RANGE_PAD_DEGREES, b[1] - RANGE_PAD_DEGREES, b[2] + RANGE_PAD_DEGREES, b[3] + RANGE_PAD_DEGREES], LOW_MAX_ZOOM + 1)
  return found.map((f) => (f.properties as { i: number }).i)
}

/**
 * Street-level clusters (zoom 15-22, same radius and min points): built for the view padded by
 * its own size on every side, reused while later views stay inside that area.
 */
export function highZoomClusters(index: MarkerIndex, view: Viewport): NonNullable<MarkerIndex['high']> {
  const cached = index.high
  if (cached && cached.bbox[0] <= view.west && cached.bbox[1] <= view.south && cached.bbox[2] >= view.east && cached.bbox[3] >= view.north) return cached
  const w = view.east - view.west
  const h = view.north - view.south
  const bbox: BBox = [view.west - w, view.south - h, view.east + w, view.north + h]
  const positions = positionsIn(index, bbox)
  const clusters: PointClusters = new Supercluster({ ...CLUSTER_OPTIONS, extent: CLUSTER_EXTENT, minZoom: LOW_MAX_ZOOM + 1 })
  clusters.load(positions.map((i, k) => ({ type: 'Feature' as const, properties: { i: k }, geometry: { type: 'Point' as const, coordinates: [index.lng[i], index.lat[i]] } })))
  index.high = { bbox, clusters, positions }
  return index.high
}

function isDashedShape(m: Marker): boolean {
  return m.type === MARKER_KIND.dashedLine || m.type === MARKER_KIND.multiPolygon || !!m.style?.dashed || isPendingMarker(m)
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
    const high = level === 'high' ? highZoomClusters(index, view) : null
    const source = high ? high.clusters : index.clusters
    const toPosition = high ? (k: number) => high.positions[k] : (i: number) => i
    const features = source.getClusters([view.west, view.south, view.east, view.north], zoom)
    let total = 0
    const singles: number[] = []
    const clusterFeatures: typeof features = []
    for (const f of features) {
      const p = f.properties as { cluster?: boolean; point_count?: number; i?: number }
      if (p.cluster) {
        total += p.point_count ?? 0
        clusterFeatures.push(f)
      } else {
        total += 1
        singles.push(toPosition(p.i as number))
      }
    }
    if (total >= CLUSTER_MIN_ITEMS) {
      const clusters = clusterFeatures.map((f) => {
        const p = f.properties as unknown as { cluster_id: number; point_count: number; point_count_abbreviated: number | string }
        const [cLng, cLat] = f.geometry.coordinates
        return { key: `${level}${zoom}:${p.cluster_id}`, clusterId: p.cluster_id, level, lng: cLng, lat: cLat, count: p.point_count, label: String(p.point_count_abbreviated) } as ClusterItem
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
export function clusterZoom(index: MarkerIndex, cluster: Pick<ClusterItem, 'clusterId' | 'level'>): number {
  const source = cluster.level === 'high' ? index.high?.clusters : index.clusters
  if (!source) return LOW_MAX_ZOOM + 1
  try {
    return Math.min(source.getClusterExpansionZoom(cluster.clusterId), CLUSTER_OPTIONS.maxZoom)
  } catch {
    // The cluster belongs to an area index that was rebuilt since: one level closer will do.
    return LOW_MAX_ZOOM + 1
  }
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
