/**
 * The print scene (server/src/services/print-scene.ts), pure: above 20,000 points in the area the
 * points are drawn clustered with their counts and the legend says so; on WGS-84 tiles every
 * coordinate is converted from the stored GCJ-02 first (on GCJ-02 tiles, or none, drawn as stored);
 * the foot says 无底图 without tiles and carries the source's 审图号 with them.
 */
import { gcj02ToWgs84 } from '../../src/domain/geo'
import { DEFAULT_PRINT_OPTIONS, PRINT_CLUSTER_ABOVE, toPage } from '../../src/domain/print'
import { PRINT_MSG } from '../../src/domain/printMessages'
import { buildScene, frameSheet, tilesFor, type Prim, type SceneInput } from '../../server/src/services/print-scene'

const VIEW = { west: 116.3, south: 39.9, east: 116.4, north: 39.96 }

function input(points: number, over: Partial<SceneInput> = {}): SceneInput {
  const markers: SceneInput['markers'] = []
  for (let i = 0; i < points; i++)
    markers.push({
      layer_id: 1,
      name: `点${i}`,
      type: 0,
      points: `${(116.301 + ((i * 7919) % 9800) / 100000).toFixed(6)},${(39.901 + ((i * 104729) % 5800) / 100000).toFixed(6)}`,
      style: { color: '#F53F3F' },
      width: 2,
      radius: 0,
    })
  return {
    options: { ...DEFAULT_PRINT_OPTIONS, titles: false },
    dpi: 40,
    view: VIEW,
    layers: [{ id: 1, name: '客户', type: 1, title: null }],
    markers,
    lines: [],
    team: '勘察队',
    day: '2026-12-02',
    tiles: null,
    ...over,
  }
}

const texts = (prims: Prim[]) => prims.flatMap((p) => (p.k === 'text' ? [p.s] : []))
const dotCount = (prims: Prim[]) => prims.reduce((n, p) => n + (p.k === 'dots' ? p.xy.length / 2 : 0), 0)

describe('many points', () => {
  it('are each drawn up to 20,000, with no clustering note', () => {
    const scene = buildScene(input(PRINT_CLUSTER_ABOVE), frameSheet(input(PRINT_CLUSTER_ABOVE)), [])
    expect(scene.stats.clusters).toBe(0)
    // Every point, and the legend's swatch.
    expect(dotCount(scene.prims)).toBe(PRINT_CLUSTER_ABOVE + 1)
    expect(texts(scene.prims).join('')).not.toContain('聚合')
  })

  it('above 20,000 are drawn clustered with their counts, and the legend says so', () => {
    const n = PRINT_CLUSTER_ABOVE + 1
    const scene = buildScene(input(n), frameSheet(input(n)), [])
    expect(scene.stats.clusters).toBeGreaterThan(0)
    expect(dotCount(scene.prims)).toBeLessThan(n / 2)
    const counts = texts(scene.prims).filter((t) => /^\d+(\.\d)?k?$/.test(t))
    expect(counts.length).toBe(scene.stats.clusters)
    const note = PRINT_MSG.clustered(n)
    // The note is wrapped over the legend's lines.
    expect(texts(scene.prims).join('')).toContain(note)
  })
})

describe('datums', () => {
  const marker = { lng: 116.35, lat: 39.93 }
  const one = (tiles: SceneInput['tiles']): SceneInput => ({
    ...input(0),
    markers: [{ layer_id: 1, name: '', type: 0, points: `${marker.lng},${marker.lat}`, style: { color: '#00FF00' }, width: 2, radius: 0 }],
    tiles,
  })
  const drawnAt = (s: SceneInput) => {
    const scene = buildScene(s, frameSheet(s), [])
    const dots = scene.prims.find((p) => p.k === 'dots' && p.fill === '#00FF00')
    return dots && dots.k === 'dots' ? { x: dots.xy[0], y: dots.xy[1] } : null
  }

  it('draws GCJ-02 data as stored without tiles and on GCJ-02 tiles', () => {
    const s = one(null)
    const at = toPage(frameSheet(s).frame, marker)
    expect(drawnAt(s)).toEqual({ x: Math.round(at.x * 10) / 10, y: Math.round(at.y * 10) / 10 })
    expect(drawnAt(one({ datum: 'gcj02', attribution: '', reviewNo: 'GS(2025)1号' }))).toEqual(drawnAt(s))
  })

  it('on WGS-84 tiles converts the data (and the view) to WGS-84 first', () => {
    const s = one({ datum: 'wgs84', attribution: '', reviewNo: 'GS(2025)1号' })
    const framing = frameSheet(s)
    const at = toPage(framing.frame, gcj02ToWgs84(marker))
    expect(drawnAt(s)).toEqual({ x: Math.round(at.x * 10) / 10, y: Math.round(at.y * 10) / 10 })
    // The view was converted too: the frame is the GCJ view's WGS-84 box, not the stored one.
    const sw = gcj02ToWgs84({ lng: VIEW.west, lat: VIEW.south })
    expect(toPage(framing.frame, sw).x).toBeCloseTo(
      framing.layout.map.x + (framing.layout.map.width - (toPage(framing.frame, gcj02ToWgs84({ lng: VIEW.east, lat: VIEW.north })).x - toPage(framing.frame, sw).x)) / 2,
      3,
    )
  })
})

describe('the foot', () => {
  it('says 无底图 without tiles, and the attribution and 审图号 with them', () => {
    const bare = input(3)
    expect(texts(buildScene(bare, frameSheet(bare), []).prims)).toContain(PRINT_MSG.noBasemap)
    const source = { datum: 'gcj02' as const, attribution: '© 测绘底图', reviewNo: 'GS(2025)1234号' }
    const tiled = input(3, { tiles: source })
    const framing = frameSheet(tiled)
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47])
    const scene = buildScene(tiled, framing, [{ tile: tilesFor(framing)[0], png }])
    expect(texts(scene.prims)).toContain('© 测绘底图  审图号：GS(2025)1234号')
    expect(texts(scene.prims)).not.toContain(PRINT_MSG.noBasemap)
  })

  it('carries the team and the date when the switch is on, and not when it is off', () => {
    const on = input(1)
    expect(texts(buildScene(on, frameSheet(on), []).prims)).toContain('勘察队  2026-12-02')
    const off = input(1, { options: { ...DEFAULT_PRINT_OPTIONS, footer: false } })
    expect(texts(buildScene(off, frameSheet(off), []).prims)).not.toContain('勘察队  2026-12-02')
  })
})
