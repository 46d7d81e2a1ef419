/**
 * Lines and areas of the keyless map on one canvas when many are in view (a zoomed-out team map shows
 * thousands). As SVG elements, or as Leaflet layers on its own canvas, every one of them costs objects,
 * style, layout or a full redraw per added batch on each pan and zoom (measured on a 4x-throttled phone
 * profile: frames of 250-400 ms with 360 badges and 1,000 shapes). Here a view is one pass over plain
 * arrays: coordinates are put on the tiles' datum (WGS-84, or AMap's GCJ-02 as stored) and projected once
 * per shape, and each frame only scales and offsets them.
 *
 * The canvas covers the view with a margin, follows the map pane while panning, scales with the zoom
 * animation (as Leaflet's own renderers do), and is redrawn once however many changes came in a task. Taps are
 * hit-tested here before the map sees them, the last drawn shape first. Point markers and cluster badges lie
 * above it (pointLayer.ts). A finished drawing is shown in the canvases' next free frame (canvasTurns.ts), not
 * in the same frame as the points' drawing.
 */
import type * as Leaflet from 'leaflet'
import { gcj02ToWgs84, type LngLat } from '../../domain/geo'
import type { Shape } from '../../domain/mapDraw'
import { drawnStyle } from '../../domain/pendingLook'
import { rectangleCorners } from '../../domain/points'
import { MARKER_KIND, isArea, isLine } from '../../domain/markerKinds'
import { canvasTurns } from './canvasTurns'

/** Canvas margin around the view, as a share of its size (Leaflet's renderers default to 0.1). */
const PADDING = 0.1
/** Extra px around a line or outline that still counts as a tap on it (fingers are wide). */
export const TAP_TOLERANCE = 6
const EARTH_RADIUS = 6378137
const MAX_LATITUDE = 85.0511287798

/** Web-mercator x and y of a position on the tiles' datum, in 0..1 of the world (times 256 * 2^zoom gives Leaflet's pixels). */
export function mercator(lng: number, lat: number): [number, number] {
  const φ = (Math.max(-MAX_LATITUDE, Math.min(MAX_LATITUDE, lat)) * Math.PI) / 180
  return [lng / 360 + 0.5, 0.5 - Math.log(Math.tan(Math.PI / 4 + φ / 2)) / (2 * Math.PI)]
}

export const enum ShapeKind {
  Line = 0,
  Area = 1,
  Circle = 2,
}

/** A shape in web-mercator units (0..1), converted once: rings of x,y pairs, its box, a circle's radius. */
export interface ProjectedShape {
  kind: ShapeKind
  rings: Float64Array[]
  box: [number, number, number, number]
  /** Circle radius in mercator units at its latitude. */
  radius: number
}

/**
 * The datum of the map's tiles: WGS-84 (OpenStreetMap and most others), or GCJ-02 (AMap's own grid, where the map's
 * projection places stored positions as they are: leafletEngine.ts gcj02Crs).
 */
export type TileDatum = 'wgs84' | 'gcj02'

const projected: Record<TileDatum, WeakMap<Shape, ProjectedShape>> = { wgs84: new WeakMap(), gcj02: new WeakMap() }

/** Converts a shape's stored GCJ-02 to web-mercator on the tiles' datum once (cached for the shape's lifetime). */
export function projectShape(s: Shape, datum: TileDatum = 'wgs84'): ProjectedShape {
  const cached = projected[datum].get(s)
  if (cached) return cached
  const onTiles = datum === 'gcj02' ? (p: LngLat) => p : gcj02ToWgs84
  const m = s.marker
  const kind = isLine(m.type) ? ShapeKind.Line : m.type === MARKER_KIND.circle ? ShapeKind.Circle : ShapeKind.Area
  // Rectangles are stored as two corners, multi-areas as one ring per part, the rest as their first
  // part; holes are rings too, cut out of the fill by the even-odd rule the areas are filled with.
  const outline: LngLat[][] = m.type === MARKER_KIND.rectangle ? [rectangleCorners(s.parts[0][0], s.parts[0][1] ?? s.parts[0][0])] : m.type === MARKER_KIND.multiPolygon ? s.parts : [s.parts[0]]
  const parts = m.type === MARKER_KIND.polygon || m.type === MARKER_KIND.multiPolygon ? [...outline, ...(s.holes ?? []).flat()] : outline
  const box: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity]
  const rings = parts.map((part) => {
    const ring = new Float64Array(part.length * 2)
    part.forEach((p, k) => {
      const w = onTiles(p)
      const [x, y] = mercator(w.lng, w.lat)
      ring[2 * k] = x
      ring[2 * k + 1] = y
      if (x < box[0]) box[0] = x
      if (y < box[1]) box[1] = y
      if (x > box[2]) box[2] = x
      if (y > box[3]) box[3] = y
    })
    return ring
  })
  let radius = 0
  if (kind === ShapeKind.Circle) {
    const centre = onTiles(s.parts[0][0])
    radius = Math.max(0, m.radius || 0) / (2 * Math.PI * EARTH_RADIUS * Math.cos((centre.lat * Math.PI) / 180))
    box[0] -= radius
    box[1] -= radius
    box[2] += radius
    box[3] += radius
  }
  const p = { kind, rings, box, radius }
  projected[datum].set(s, p)
  return p
}

export interface ShapeStyle {
  color: string
  weight: number
  dash: number[] | null
  fillColor: string
  fillOpacity: number
  opacity: number
}

/** The same style the element renderer gives a shape (see shapeLayer in leafletEngine.ts). */
export function shapeStyle(s: Shape, selected: boolean): ShapeStyle {
  const m = s.marker
  const style = drawnStyle(m)
  const color = style.color || '#165DFF'
  return {
    color,
    weight: Math.max(1, Math.min(20, m.width || 2)) + (selected ? 3 : 0),
    dash: s.dashed ? [8, 6] : null,
    fillColor: style.fill_color || color,
    fillOpacity: isArea(m.type) ? (style.fill_opacity ?? 0.25) : 0,
    opacity: style.opacity ?? 1,
  }
}

/** Maps mercator units to layer px: px = x * scale - ox. */
export interface Frame {
  scale: number
  ox: number
  oy: number
}

function tracePath(ctx: CanvasRenderingContext2D, p: ProjectedShape, f: Frame): void {
  ctx.beginPath()
  if (p.kind === ShapeKind.Circle) {
    const r = p.rings[0]
    ctx.arc(r[0] * f.scale - f.ox, r[1] * f.scale - f.oy, Math.max(1, p.radius * f.scale), 0, Math.PI * 2)
    return
  }
  for (const ring of p.rings) {
    for (let k = 0; k < ring.length; k += 2) {
      const x = ring[k] * f.scale - f.ox
      const y = ring[k + 1] * f.scale - f.oy
      if (k === 0) ctx.moveTo(x, y)
      else ctx.lineTo(x, y)
    }
    if (p.kind === ShapeKind.Area) ctx.closePath()
  }
}

/** Whether a shape reaches into a box of layer px (with its stroke). */
export function shapeInView(p: ProjectedShape, f: Frame, view: readonly [number, number, number, number], pad: number): boolean {
  return !(p.box[2] * f.scale - f.ox < view[0] - pad || p.box[0] * f.scale - f.ox > view[2] + pad || p.box[3] * f.scale - f.oy < view[1] - pad || p.box[1] * f.scale - f.oy > view[3] + pad)
}

/** Draws shapes in order (later ones on top); those entirely outside `view` (layer px) are skipped. */
export function drawShapes(ctx: CanvasRenderingContext2D, shapes: readonly { p: ProjectedShape; style: ShapeStyle }[], f: Frame, view: readonly [number, number, number, number]): number {
  ctx.lineCap = 'round'
  ctx.lineJoin = 'round'
  let drawn = 0
  for (const { p, style } of shapes) {
    if (!shapeInView(p, f, view, style.weight)) continue
    tracePath(ctx, p, f)
    if (p.kind !== ShapeKind.Line && style.fillOpacity > 0) {
      ctx.globalAlpha = style.fillOpacity
      ctx.fillStyle = style.fillColor
      ctx.fill('evenodd')
    }
    ctx.globalAlpha = style.opacity
    ctx.strokeStyle = style.color
    ctx.lineWidth = style.weight
    ctx.setLineDash(style.dash ?? [])
    ctx.stroke()
    drawn++
  }
  ctx.globalAlpha = 1
  ctx.setLineDash([])
  return drawn
}

function segmentDistance2(px: number, py: number, ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax
  const dy = by - ay
  const len2 = dx * dx + dy * dy
  let t = len2 > 0 ? ((px - ax) * dx + (py - ay) * dy) / len2 : 0
  t = Math.max(0, Math.min(1, t))
  const cx = ax + t * dx - px
  const cy = ay + t * dy - py
  return cx * cx + cy * cy
}

/** Whether a point (layer px) is on a shape: inside an area or circle, or near a line or outline. */
export function shapeContains(p: ProjectedShape, style: ShapeStyle, f: Frame, x: number, y: number, tolerance = TAP_TOLERANCE): boolean {
  const near = style.weight / 2 + tolerance
  if (x < p.box[0] * f.scale - f.ox - near || x > p.box[2] * f.scale - f.ox + near || y < p.box[1] * f.scale - f.oy - near || y > p.box[3] * f.scale - f.oy + near) return false
  if (p.kind === ShapeKind.Circle) {
    const r = p.rings[0]
    const dx = x - (r[0] * f.scale - f.ox)
    const dy = y - (r[1] * f.scale - f.oy)
    const rr = Math.max(1, p.radius * f.scale) + near
    return dx * dx + dy * dy <= rr * rr
  }
  let inside = false
  for (const ring of p.rings) {
    const n = ring.length / 2
    const closed = p.kind === ShapeKind.Area
    for (let i = 0, j = n - 1; i < n; j = i++) {
      const xi = ring[2 * i] * f.scale - f.ox
      const yi = ring[2 * i + 1] * f.scale - f.oy
      const xj = ring[2 * j] * f.scale - f.ox
      const yj = ring[2 * j + 1] * f.scale - f.oy
      if (i === 0 && !closed) continue
      if (closed && yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside
      if (segmentDistance2(x, y, xj, yj, xi, yi) <= near * near) return true
    }
  }
  return inside
}

export interface CanvasLayerEvents {
  onShape: (markerId: number) => void
  /** The shapes given last are on the canvas (once per setShapes). */
  onShapesDrawn: () => void
}

export interface CanvasLayer extends Leaflet.Layer {
  setShapes(shapes: readonly Shape[], selectedId: number | null): void
  /** The marker of the shape a tap at a layer point would hit, as the tap handler decides it. */
  hitAt(x: number, y: number): number | null
}

/**
 * A drawing is made in slices of about this many ms of drawing calls, on a second, hidden canvas
 * that takes the shown one's place when it is complete (the two swap: nothing is copied, and no
 * pixel is read back, which would make the page rasterise the canvas on its own thread then and there).
 */
const SLICE_MS = 12
/** Items drawn between two checks of the time. */
const SLICE_STEP = 40

interface DrawItem {
  s: Shape
  p: ProjectedShape
  style: ShapeStyle
}

export function createCanvasLayer(L: typeof Leaflet, events: () => CanvasLayerEvents): CanvasLayer {
  const Layer = L.Layer.extend({
    initialize(this: any) {
      this._shapes = [] as DrawItem[]
      // The datum the shapes are projected on (_items).
      this._datum = 'wgs84' as TileDatum
      this._job = 0
      this._pending = 0
      this._timer = 0
      this._shapesPending = false
      this._owed = false
    },

    getEvents(this: any) {
      return { viewreset: this._schedule, moveend: this._schedule, zoom: this._onZoom, zoomanim: this._onAnimZoom, resize: this._schedule }
    },

    onAdd(this: any, map: Leaflet.Map) {
      this._map = map
      const shapeCanvas = () => {
        const c = L.DomUtil.create('canvas', 'map-canvas-layer leaflet-zoom-animated') as HTMLCanvasElement
        c.style.position = 'absolute'
        c.style.pointerEvents = 'none'
        // Shown once there is something on it (see _start).
        c.style.display = 'none'
        return c
      }
      // The shown canvas and the one being drawn (hidden until it is complete).
      this._canvas = shapeCanvas()
      this._back = shapeCanvas()
      this._back.classList.add('map-canvas-layer--next')
      // Shapes below the points' drawing and elements of the same pane (map.h5.scss orders them).
      const pane = map.getPanes().markerPane
      pane.insertBefore(this._back, pane.firstChild)
      pane.insertBefore(this._canvas, pane.firstChild)
      // Capture phase on the map's container: the canvas takes the tap before the map does.
      this._onClick = (e: MouseEvent) => {
        if (!this._shapes.length) return
        if ((map as any).dragging?.moved?.()) return
        if ((e.target as HTMLElement | null)?.closest?.('[data-marker-id],[data-cluster-key],[data-member-id],[data-self],.leaflet-control,.map-vertex')) return
        const p = map.mouseEventToLayerPoint(e)
        const hit = this.hitAt(p.x, p.y)
        if (hit === null) return
        e.stopPropagation()
        e.preventDefault()
        events().onShape(hit)
      }
      map.getContainer().addEventListener('click', this._onClick, true)
      this._schedule()
    },

    onRemove(this: any, map: Leaflet.Map) {
      map.getContainer().removeEventListener('click', this._onClick, true)
      this._cancel()
      this._canvas.remove()
      this._back.remove()
    },

    setShapes(this: any, shapes: readonly Shape[], selectedId: number | null) {
      // (An empty list only clears: whoever draws the shapes elsewhere reports them drawn.)
      if (shapes.length === 0 && this._shapes.length === 0) return
      this._shapes = shapes.map((s) => ({ s, p: projectShape(s, this._datum), style: shapeStyle(s, s.marker.id === selectedId) }))
      this._shapesPending = shapes.length > 0
      this._schedule()
    },

    hitAt(this: any, x: number, y: number) {
      const f = this._frameOf()
      const shapes = this._items() as DrawItem[]
      for (let i = shapes.length - 1; i >= 0; i--) if (shapeContains(shapes[i].p, shapes[i].style, f, x, y)) return shapes[i].s.marker.id
      return null
    },

    /** The shapes, projected on the datum of the tiles shown now (a switch to or from AMap's tiles changes it). */
    _items(this: any): DrawItem[] {
      const datum: TileDatum = (this._map as Leaflet.Map).options.crs === L.CRS.EPSG3857 ? 'wgs84' : 'gcj02'
      if (datum !== this._datum) {
        this._datum = datum
        for (const d of this._shapes as DrawItem[]) d.p = projectShape(d.s, datum)
      }
      return this._shapes
    },

    _frameOf(this: any): Frame {
      const map: Leaflet.Map = this._map
      const origin = map.getPixelOrigin()
      return { scale: map.options.crs!.scale(map.getZoom()), ox: origin.x, oy: origin.y }
    },

    _cancel(this: any) {
      this._job++
      // A drawing stopped before it was shown still owes the page its 'shapes drawn'.
      if (this._owed) this._shapesPending = true
      this._owed = false
      if (this._pending) clearTimeout(this._pending)
      if (this._timer) clearTimeout(this._timer)
      canvasTurns.cancel(this)
      this._pending = 0
      this._timer = 0
    },

    /**
     * A new drawing starts in a task of its own (however many changes came before it), not in an
     * animation frame: it draws on the hidden canvas, and the frame that shows a canvas has the
     * compositor's copy of it to pay for already.
     */
    _schedule(this: any) {
      if (!this._map || this._pending) return
      this._cancel()
      this._pending = setTimeout(() => {
        this._pending = 0
        this._start()
      }, 0)
    },

    // As Leaflet's renderers: during the zoom animation the shown drawing is scaled into place.
    _onAnimZoom(this: any, ev: { center: Leaflet.LatLng; zoom: number }) {
      this._updateTransform(ev.center, ev.zoom)
    },

    _onZoom(this: any) {
      this._updateTransform(this._map.getCenter(), this._map.getZoom())
    },

    _updateTransform(this: any, center: Leaflet.LatLng, zoom: number) {
      this._transform(this._canvas, this._drawnAt, center, zoom)
    },

    /** Places a canvas drawn for one view (its centre and zoom) in another. */
    _transform(this: any, canvas: HTMLCanvasElement, drawnAt: { center: Leaflet.LatLng; zoom: number } | undefined, center: Leaflet.LatLng, zoom: number) {
      if (!drawnAt) return
      const map: any = this._map
      const scale = map.getZoomScale(zoom, drawnAt.zoom)
      const viewHalf = map.getSize().multiplyBy(0.5 + PADDING)
      const currentCenterPoint = map.project(drawnAt.center, zoom)
      const topLeftOffset = viewHalf.multiplyBy(-scale).add(currentCenterPoint).subtract(map._getNewPixelOrigin(center, zoom))
      L.DomUtil.setTransform(canvas, topLeftOffset, scale)
    },

    /** Draws the current view on the back canvas in slices, then shows it. */
    _start(this: any) {
      const map: Leaflet.Map = this._map
      if (!map) return
      const job = ++this._job
      const size = map.getSize()
      const min = map.containerPointToLayerPoint(size.multiplyBy(-PADDING)).round()
      const w = Math.round(size.x * (1 + 2 * PADDING))
      const h = Math.round(size.y * (1 + 2 * PADDING))
      const dpr = canvasDpr()
      const view: [number, number, number, number] = [min.x, min.y, min.x + w, min.y + h]
      const frame = this._frameOf()
      const center = map.getCenter()
      const zoom = map.getZoom()
      const shapes = (this._items() as DrawItem[]).filter(({ p, style }) => shapeInView(p, frame, view, style.weight))
      this._owed = this._shapesPending
      this._shapesPending = false
      const back: HTMLCanvasElement = this._back
      // A view without lines or areas leaves the canvas as it is, hidden: sizing and clearing it is a
      // view-sized allocation and fill (tens of ms at a phone's speed, on every map's first view).
      const ctx = shapes.length ? ready(back, w, h, dpr, min) : null
      if (shapes.length && !ctx) return
      let next = 0
      const slice = () => {
        this._timer = 0
        if (job !== this._job) return
        const t0 = performance.now()
        while (ctx && next < shapes.length) {
          const to = Math.min(shapes.length, next + SLICE_STEP)
          drawShapes(ctx, shapes.slice(next, to), frame, view)
          next = to
          if (performance.now() - t0 > SLICE_MS) break
        }
        if (next < shapes.length) {
          this._timer = setTimeout(slice, 0)
          return
        }
        // Complete: shown in the canvases' next free frame (canvasTurns.ts) where it was drawn for, the shown one hidden to be drawn next.
        canvasTurns.request(this, () => {
          if (job === this._job) show()
        })
      }
      const show = () => {
        L.DomUtil.setPosition(back, min)
        // A canvas with nothing on it is not shown at all: the page would still hand it to the compositor on every frame of a pan.
        back.style.display = shapes.length ? '' : 'none'
        back.classList.remove('map-canvas-layer--next')
        const shown: HTMLCanvasElement = this._canvas
        shown.classList.add('map-canvas-layer--next')
        this._canvas = back
        this._back = shown
        this._drawnAt = { center, zoom }
        this._placeDuringZoom(back, this._drawnAt)
        if (this._owed) {
          this._owed = false
          events().onShapesDrawn()
        }
      }
      // The first slice too in a task after this one (see _schedule).
      this._timer = setTimeout(slice, 0)
    },

    /** A canvas shown while the map's zoom animation runs is scaled into place at once, as the other is. */
    _placeDuringZoom(this: any, canvas: HTMLCanvasElement, drawnAt: { center: Leaflet.LatLng; zoom: number }) {
      const anim = this._map as unknown as { _animatingZoom?: boolean; _animateToCenter: Leaflet.LatLng; _animateToZoom: number }
      if (anim._animatingZoom) this._transform(canvas, drawnAt, anim._animateToCenter, anim._animateToZoom)
    },
  })
  return new (Layer as any)() as CanvasLayer
}

/**
 * The map canvases' pixels per CSS pixel: the screen's, at most 2. A phone of 3 would make each canvas 2.25 times
 * the pixels of 2 (memory is short on cheap phones, and the whole canvas is handed to the compositor whenever it
 * is drawn again) for lines and titles that look the same at arm's length.
 */
export function canvasDpr(): number {
  return Math.min(2, window.devicePixelRatio || 1)
}

/** The canvas sized for a drawing of w x h CSS px from layer point `min`, cleared, its context mapping layer px to its pixels. */
function ready(canvas: HTMLCanvasElement, w: number, h: number, dpr: number, min: Leaflet.Point): CanvasRenderingContext2D | null {
  fitCanvas(canvas, w, h, dpr)
  const ctx = canvas.getContext('2d')
  if (!ctx) return null
  ctx.setTransform(1, 0, 0, 1, 0, 0)
  ctx.clearRect(0, 0, canvas.width, canvas.height)
  ctx.setTransform(dpr, 0, 0, dpr, -min.x * dpr, -min.y * dpr)
  return ctx
}

export function fitCanvas(canvas: HTMLCanvasElement, w: number, h: number, dpr: number): void {
  const pw = Math.round(w * dpr)
  const ph = Math.round(h * dpr)
  if (canvas.width !== pw || canvas.height !== ph) {
    canvas.width = pw
    canvas.height = ph
    canvas.style.width = `${w}px`
    canvas.style.height = `${h}px`
  }
}
