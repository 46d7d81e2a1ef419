/**
 * Client marker budgets of DESIGN 7: 100,000 markers in memory (90,000 points, 10,000 lines and
 * areas around Beijing). Prints the median time to build the draw index, the median time to
 * recompute what the map draws after a pan or zoom, the ratio of a naive version (filter every
 * marker against the view and draw all of them) to it in the same run, and the heap the markers
 * and the index hold. Runs in a child process with --expose-gc so that the heap is its own.
 */
import { execFileSync } from 'node:child_process'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import Supercluster from 'supercluster'
import type { Marker, MarkerType } from '../types/mapdata'
import { CLUSTER_OPTIONS } from '../src/domain/constants'
import { LOW_MAX_ZOOM, buildMarkerIndex, computeDrawList, type Viewport } from '../src/domain/mapDraw'
import { defaultStyle, defaultWidth } from '../src/domain/markers'
import { parsePoints } from '../src/domain/points'
import { emit } from './emit'

const POINTS = 90_000
const SHAPES = 10_000
const MB = 1024 * 1024

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b)
  const mid = s.length >> 1
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2
}

const round = (n: number, digits = 2) => Number(n.toFixed(digits))

function random(seed: number): () => number {
  let s = seed >>> 0
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32
}

export function makeMarkers(points = POINTS, shapes = SHAPES): Marker[] {
  const next = random(42)
  const now = new Date().toISOString()
  const out: Marker[] = []
  const base = (id: number, type: MarkerType, pts: string): Marker => ({
    id,
    layer_id: 1 + (id % 4),
    name: `标注${id}`,
    type,
    points: pts,
    style: defaultStyle(type),
    width: defaultWidth(type),
    radius: type === 5 ? 200 : 0,
    sort: 0,
    fields: {},
    creator_id: 1,
    creator_name: '小王',
    rev: 1,
    created_at: now,
    updated_at: now,
  })
  // Points clump around a few towns, as real team data does, over a region about 100 km across.
  for (let i = 0; i < points; i++) {
    const town = Math.floor(next() * 12)
    const lng = 115.9 + (town % 4) * 0.3 + next() * 0.25
    const lat = 39.5 + Math.floor(town / 4) * 0.3 + next() * 0.25
    out.push(base(i + 1, 0, `${lng.toFixed(6)},${lat.toFixed(6)}`))
  }
  for (let i = 0; i < shapes; i++) {
    const type = (1 + (i % 6)) as MarkerType
    const lng = 115.9 + next()
    const lat = 39.5 + next() * 0.8
    const d = 0.002 + next() * 0.01
    const pts =
      type === 5
        ? `${lng},${lat}`
        : type === 4 || type === 1 || type === 2
          ? `${lng},${lat}|${lng + d},${lat + d}`
          : type === 6
            ? `${lng},${lat}|${lng + d},${lat}|${lng + d},${lat + d};${lng + 2 * d},${lat}|${lng + 3 * d},${lat}|${lng + 3 * d},${lat + d}`
            : `${lng},${lat}|${lng + d},${lat}|${lng + d},${lat + d}`
    out.push(base(points + i + 1, type, pts))
  }
  return out
}

/** Views a user goes through: the whole region, then pans and zooms into towns and streets. */
function views(n: number): Viewport[] {
  const next = random(7)
  const out: Viewport[] = []
  for (let i = 0; i < n; i++) {
    const zoom = [9, 11, 13, 15, 17][i % 5]
    const span = (360 / 2 ** zoom) * 1.6 // about a phone screen at that zoom
    const lng = 115.9 + next() * 1.2
    const lat = 39.5 + next() * 0.8
    out.push({ west: lng - span / 2, east: lng + span / 2, south: lat - span, north: lat + span, zoom })
  }
  return out
}

/** The naive version: parse and test every marker against the view, draw all that are in it. */
function naiveDraw(markers: Marker[], v: Viewport): unknown[] {
  const drawn: unknown[] = []
  for (const m of markers) {
    const parsed = parsePoints(m.points)
    if (!parsed.ok) continue
    const inside = parsed.parts.some((part) => part.some((p) => p.lng >= v.west && p.lng <= v.east && p.lat >= v.south && p.lat <= v.north))
    if (inside) drawn.push({ id: m.id, parts: parsed.parts, style: m.style })
  }
  return drawn
}

function measure(): void {
  const gc = (globalThis as { gc?: () => void }).gc
  gc?.()
  const heap0 = process.memoryUsage().heapUsed
  const markers = makeMarkers()
  gc?.()
  const heapMarkers = process.memoryUsage().heapUsed - heap0

  const buildMs: number[] = []
  let index = buildMarkerIndex(markers)
  for (let run = 0; run < 5; run++) {
    const t0 = performance.now()
    index = buildMarkerIndex(markers)
    buildMs.push(performance.now() - t0)
  }
  gc?.()
  const heapAll = process.memoryUsage().heapUsed - heap0

  // The anchor of DESIGN 7: supercluster alone on the same points, in the same run, over the levels
  // our whole-data index builds (2-14), and the straightforward index that does the SPEC's whole job
  // with the library: one supercluster for zoom 2-22.
  const features = index.points.map((m, i) => ({ type: 'Feature' as const, properties: {}, geometry: { type: 'Point' as const, coordinates: [index.lng[i], index.lat[i]] } }))
  const aloneMs: number[] = []
  const fullMs: number[] = []
  for (let run = 0; run < 3; run++) {
    const t0 = performance.now()
    new Supercluster({ ...CLUSTER_OPTIONS, extent: 256, maxZoom: LOW_MAX_ZOOM }).load(features)
    aloneMs.push(performance.now() - t0)
    const t1 = performance.now()
    new Supercluster({ ...CLUSTER_OPTIONS, extent: 256, minZoom: 2, maxZoom: 22 }).load(features)
    fullMs.push(performance.now() - t1)
  }

  const vs = views(60)
  let previous: Set<number> | undefined
  for (const v of vs.slice(0, 10)) computeDrawList(index, v, { previous })
  const viewMs: number[] = []
  let drawn = 0
  for (const v of vs) {
    const t0 = performance.now()
    const list = computeDrawList(index, v, { previous })
    viewMs.push(performance.now() - t0)
    previous = new Set(list.points.map((m) => m.id))
    drawn = Math.max(drawn, list.points.length)
  }
  if (drawn > 200) throw new Error(`drew ${drawn} point markers in one view`)

  const naiveMs: number[] = []
  for (const v of vs.slice(0, 15)) {
    const t0 = performance.now()
    naiveDraw(markers, v)
    naiveMs.push(performance.now() - t0)
  }

  const view = median(viewMs)
  console.error(
    `[bench:markers] build median ${round(median(buildMs))} ms (supercluster alone ${round(median(aloneMs))} ms for zoom 2-${LOW_MAX_ZOOM}, ${round(median(fullMs))} ms for 2-22), view median ${round(view, 3)} ms, naive view median ${round(median(naiveMs))} ms; heap: markers ${Math.round(heapMarkers / MB)} MB, index ${Math.round((heapAll - heapMarkers) / MB)} MB`,
  )
  emit('markers.index_build_ms', round(median(buildMs)), 'ms', 300)
  // DESIGN 7's anchor (supercluster alone ~140 ms) was not what this machine measures. The first
  // ratio says what our index costs against the straightforward use of the library for SPEC's zoom
  // 2-22 (it must be cheaper); the second what parsing, sampling order and the kd index add to the
  // library's own levels (information: it grows as the library's share shrinks).
  emit('markers.index_build_vs_supercluster_2_22', round(median(buildMs) / median(fullMs)), 'ratio', 1)
  emit('markers.index_build_vs_supercluster_alone', round(median(buildMs) / median(aloneMs)), 'ratio', 2)
  emit('markers.view_recompute_ms', round(view, 3), 'ms', 4)
  emit('markers.naive_vs_pipeline', round(median(naiveMs) / view, 1), 'ratio', 1, false)
  emit('markers.store_heap_mb', Math.round(heapMarkers / MB), 'MB', 60)
  emit('markers.index_heap_mb', Math.round((heapAll - heapMarkers) / MB), 'MB', 60)
}

/** Runs in a child process of its own, with the garbage collector exposed for the heap figure. */
export function markersBench(): void {
  const tsx = path.resolve(__dirname, '../node_modules/.bin/tsx')
  execFileSync(tsx, [__filename], { stdio: 'inherit', env: { ...process.env, BENCH_MARKERS_CHILD: '1', NODE_OPTIONS: '--expose-gc' }, timeout: 300_000 })
}

if (process.env.BENCH_MARKERS_CHILD === '1') measure()
