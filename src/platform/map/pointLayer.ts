/**
 * Point markers and cluster badges of the keyless map as one light layer, kept by key between views
 * (only what changed is made or removed), placed once per zoom level (they ride along with the map
 * pane while panning), hidden during the zoom animation.
 *
 * Plain points (a pin or an icon, with their titles: most of what is in view), the titles of lines
 * and areas, and a crowd of cluster badges (more than the engine shows as elements) are one canvas
 * drawing (pointSprites.ts), redrawn once the view settles (on a hidden second canvas, which then
 * takes the shown one's place), not elements:
 * elements for them cost a style and layout of each after every pan and zoom, and a re-sort of the
 * page's paint on every frame of a drag (a Leaflet tooltip per shape title cost more again).
 * The badges are on this drawing, not on a canvas of their own: every canvas shown is copied whole for
 * the compositor in the frame it changes, and the frame that showed the badges' own view-sized canvas
 * after a pan was the pans' longest task (two whole copies, 105-115 ms at 4x throttling, traced).
 * A tap on the drawing is matched to the topmost badge, pin or title under it (hit). Selected and pending
 * points, members, the user's own dot and a few cluster badges stay elements (few, and drawn with more
 * than a pin), above the drawing, tapped through one delegated listener.
 *
 * Draw order, bottom to top: the drawing (its pins, every title above them, then its badges), the pins
 * shown as elements, their titles, then the cluster badges shown as elements. An element's title is
 * taken out of its point's markup into a slot of the pin's size in the titles' container, so that no
 * neighbouring pin covers it. Titles' boxes come from the map's own projection and each title's size: an element's read from
 * the page once, a drawn one's summed from its characters' widths, each measured on the canvas once per
 * font size (titleWidth).
 */
import type * as Leaflet from 'leaflet'
import { canvasDpr, fitCanvas } from './canvasLayer'
import { canvasTurns } from './canvasTurns'
import {
  BADGE_RING,
  drawBadges,
  drawTitle,
  hitBadge,
  paintPinSprite,
  PIN_SPRITE_PAD,
  titleBox,
  titleWidth,
  topmostAt,
  type BadgeItem,
  type PlacedBadge,
  type PointSprite,
  type TapTarget,
} from './pointSprites'

export interface PointItem {
  key: string
  lat: number
  lng: number
  /** Markup of the item (escaped by the caller); its root carries data-marker-id or data-cluster-key. Unused for a drawn item. */
  html: string
  /** Anchor offset in px from the top-left of the item to the geographic point. */
  anchorX: number
  anchorY: number
  zIndex?: number
  /** A plain point, or a line's or area's title: drawn on the canvas so, with no element. */
  sprite?: PointSprite
  /** The marker a drawn item opens when tapped. */
  markerId?: number
}

/** The drawing's margin around the view, as a share of its size: a pan shows what lies beside the view. */
const DRAW_MARGIN = 0.1

/** A box in the map container's px. */
export interface ScreenBox {
  left: number
  top: number
  width: number
  height: number
}

export interface PlacedTitle {
  box: ScreenBox
  selected: boolean
  /** A line's or area's title (below points' titles in the declutter's order). */
  shape: boolean
  /** The title's element, or none for a drawn one. */
  el: HTMLElement | null
  /** Whose title it is (layer's own). */
  entry: unknown
}

/** A drawn title as a test or a tool sees it, in the page's px (an element would tell its own box). */
export interface DrawnTitle {
  text: string
  fontSize: number
  background: string
  box: ScreenBox
  shown: boolean
}

/** A drawn point likewise. */
export interface DrawnPoint {
  id: number | undefined
  pin: ScreenBox
  title: DrawnTitle | null
}

/** A line's or area's drawn title, with its shape's marker. */
export interface DrawnShapeTitle extends DrawnTitle {
  id: number | undefined
}

/** A cluster badge on the drawing: its count, and its box (ring included) in the page's px. */
export interface DrawnBadge {
  label: string
  left: number
  top: number
  width: number
  height: number
}

/** What the layer's canvas element says it drew (for tests and tools: nothing runs unless called). */
export interface DrawingReport {
  drawnPoints(): DrawnPoint[]
  drawnTitles(): DrawnShapeTitle[]
  /** The badges on the shown drawing, while it is where it was drawn for (none for a drawing of another zoom). */
  drawnBadges(): DrawnBadge[]
}

export interface PointLayerEvents {
  onMarker: (id: number) => void
  onCluster: (key: string) => void
}

export interface PointLayer extends Leaflet.Layer {
  setItems(items: PointItem[]): void
  /** Cluster badges drawn on the canvas, above its pins and titles (a crowd of them: a few are items of setItems instead). */
  setBadges(items: BadgeItem[]): void
  /** The points' titles where they are now (an element's measured on the page only the first time it is seen). */
  titles(): PlacedTitle[]
  /** Shows or hides a title (the engine's declutter): an element's by its class, a drawn one's in the next drawing. */
  showTitle(t: PlacedTitle, shown: boolean): void
  /** The cluster badges' boxes (their ring included), drawn ones' and elements'. */
  badges(): ScreenBox[]
  /**
   * The drawn badge, or else the marker of the drawn pin or point title, topmost at this point of the map container, if any
   * (a shape's title lets taps through to its shape).
   */
  hit(at: { x: number; y: number }): { cluster: string } | { marker: number } | null
}

interface Title {
  el: HTMLElement
  slot: HTMLElement
  /** Box relative to the item's top-left, read once (null until then, or while the map is not laid out). */
  box: ScreenBox | null
}

interface Entry {
  it: PointItem
  /** None for a drawn item. */
  el: HTMLElement | null
  badge: boolean
  title: Title | null
  /** A drawn item's title: its box relative to the item's top-left, and whether the declutter hides it. */
  label: { box: ScreenBox; hidden: boolean } | null
  /** Layer px of the geographic point, as last placed. */
  x: number
  y: number
}

/**
 * Takes the title out of a point's markup into a slot with the same box as the point's body (its
 * containing block), so that it lands where it did inside the point: a block of the pin's height,
 * or for an icon an inline box of the icon's size on a line, as the image sits.
 */
function detachTitle(root: HTMLElement): Title | null {
  const el = root.querySelector<HTMLElement>('.map-title')
  const body = el?.parentElement
  if (!el || !body) return null
  const slot = document.createElement('div')
  slot.className = 'map-points__item map-title-slot'
  slot.style.width = body.style.width
  const pin = body.firstElementChild as HTMLElement | null
  const stand = document.createElement(pin?.tagName === 'IMG' ? 'span' : 'div')
  if (pin?.tagName === 'IMG') {
    stand.style.display = 'inline-block'
    stand.style.width = pin.style.width
  }
  stand.style.height = pin?.style.height ?? '0'
  slot.appendChild(stand)
  // A tap on the title opens its point, as one on the pin does.
  const id = root.getAttribute('data-marker-id')
  if (id) el.setAttribute('data-marker-id', id)
  slot.appendChild(el)
  return { el, slot, box: null }
}

export function createPointLayer(L: typeof Leaflet, events: () => PointLayerEvents): PointLayer {
  const Layer = L.Layer.extend({
    initialize(this: any) {
      this._entries = new Map<string, Entry>()
      // Character widths by font size (titleWidth).
      this._charWidths = new Map<number, Map<string, number>>()
      this._images = new Map<string, HTMLImageElement>()
      // Pins painted once per colour, size and pixel ratio (paintPinSprite).
      this._pinSprites = new Map<string, HTMLCanvasElement>()
      // The drawn badges, placed in layer px (_placeBadges), and those of the drawing shown, with the zoom it was made at.
      this._crowd = [] as BadgeItem[]
      this._placedCrowd = [] as PlacedBadge[]
      this._shownBadges = { placed: [] as PlacedBadge[], labels: [] as string[], zoom: NaN }
    },

    onAdd(this: any, map: Leaflet.Map) {
      this._map = map
      // The wrapper makes no stacking context: its parts' z-index orders them among the pane's other layers (canvasLayer.ts).
      const el = L.DomUtil.create('div', 'map-points')
      // The drawing, then the pins shown as elements, their titles, the badges.
      this._canvas = L.DomUtil.create('canvas', 'map-points__canvas leaflet-zoom-hide', el) as HTMLCanvasElement
      // The next drawing is made on a second canvas, hidden, that takes the shown one's place when it is complete (_draw).
      this._back = L.DomUtil.create('canvas', 'map-points__canvas--next leaflet-zoom-hide', el) as HTMLCanvasElement
      this._pins = L.DomUtil.create('div', 'map-points__pins leaflet-zoom-hide', el)
      this._titles = L.DomUtil.create('div', 'map-points__titles leaflet-zoom-hide', el)
      this._badges = L.DomUtil.create('div', 'map-points__badges leaflet-zoom-hide', el)
      this._canvas.style.display = 'none'
      const report: DrawingReport = { drawnPoints: () => this._drawn().points, drawnTitles: () => this._drawn().shapes, drawnBadges: () => this._drawnBadges() }
      Object.assign(this._canvas, report)
      Object.assign(this._back, report)
      this._job = 0
      this._timer = 0
      this._font = getComputedStyle(map.getContainer()).fontFamily || 'sans-serif'
      this._zooming = false
      this._container = el
      map.getPanes().markerPane.appendChild(el)
      L.DomEvent.disableClickPropagation(el)
      L.DomEvent.on(el, 'click', (e: Event) => {
        const target = (e.target as HTMLElement).closest('[data-marker-id],[data-cluster-key]') as HTMLElement | null
        if (!target) return
        const id = target.getAttribute('data-marker-id')
        if (id) events().onMarker(Number(id))
        else events().onCluster(target.getAttribute('data-cluster-key')!)
      })
      map.on('zoomend viewreset', this._placeAll, this)
      map.on('moveend', this._moveEnd, this)
      map.on('zoomstart', this._zoomStart, this)
      for (const e of (this._entries as Map<string, Entry>).values()) this._measureLabel(e)
      this._placeAll()
    },

    onRemove(this: any, map: Leaflet.Map) {
      canvasTurns.cancel(this)
      clearTimeout(this._timer)
      this._timer = 0
      this._job++
      map.off('zoomend viewreset', this._placeAll, this)
      map.off('moveend', this._moveEnd, this)
      map.off('zoomstart', this._zoomStart, this)
      this._container.remove()
      this._entries.clear()
      this._map = null
    },

    /** Replaces the items: unchanged keys are kept, new ones are made (drawn, or an element), gone ones removed. */
    setItems(this: any, items: PointItem[]) {
      const entries = this._entries as Map<string, Entry>
      const next = new Map<string, PointItem>()
      for (const it of items) next.set(it.key, it)
      let changed = false
      for (const [key, e] of entries) {
        if (!next.has(key)) {
          e.el?.remove()
          e.title?.slot.remove()
          entries.delete(key)
          if (!e.el) changed = true
        }
      }
      // All new elements are parsed in one go (one parser run instead of one per item); every item's markup has one root element.
      const added: PointItem[] = []
      for (const it of next.values()) {
        if (entries.has(it.key)) continue
        if (!it.sprite) added.push(it)
        else {
          const entry: Entry = { it, el: null, badge: false, title: null, label: null, x: 0, y: 0 }
          entries.set(it.key, entry)
          this._measureLabel(entry)
          if (this._map) this._place(entry)
          changed = true
        }
      }
      if (changed) this._schedule()
      if (!added.length) return
      const template = document.createElement('template')
      template.innerHTML = added.map((it) => it.html).join('')
      const roots = Array.from(template.content.children) as HTMLElement[]
      const pins = document.createDocumentFragment()
      const titles = document.createDocumentFragment()
      const badges = document.createDocumentFragment()
      added.forEach((it, k) => {
        // The item's own root element is placed directly: one element fewer per item to style and lay out.
        const el = roots[k] ?? document.createElement('div')
        el.classList.add('map-points__item')
        if (it.zIndex) el.style.zIndex = String(it.zIndex)
        const badge = el.hasAttribute('data-cluster-key')
        const title = badge ? null : detachTitle(el)
        const entry: Entry = { it, el, badge, title, label: null, x: 0, y: 0 }
        entries.set(it.key, entry)
        ;(badge ? badges : pins).appendChild(el)
        if (title) titles.appendChild(title.slot)
        if (this._map) this._place(entry)
      })
      this._pins?.appendChild(pins)
      this._titles?.appendChild(titles)
      this._badges?.appendChild(badges)
    },

    setBadges(this: any, items: BadgeItem[]) {
      if (!items.length && !this._crowd.length) return
      this._crowd = items
      // Taps and the titles' layout follow the new badges at once; the pixels follow with the drawing.
      if (this._map) this._placeBadges()
      this._schedule()
    },

    /** The drawn badges' centres in layer px, in drawing order (for the current zoom). */
    _placeBadges(this: any) {
      const map: Leaflet.Map = this._map
      this._placedCrowd = (this._crowd as BadgeItem[]).map((it) => {
        const p = map.latLngToLayerPoint([it.lat, it.lng])
        return { key: it.key, x: p.x, y: p.y, r: it.size / 2 + BADGE_RING }
      })
    },

    /** A drawn title's box, from its text's width on the canvas (no layout of the page). */
    _measureLabel(this: any, e: Entry) {
      const look = e.it.sprite?.title
      if (!look || !this._map) return
      let chars: Map<string, number> | undefined = this._charWidths.get(look.fontSize)
      if (!chars) this._charWidths.set(look.fontSize, (chars = new Map()))
      const width = titleWidth(look.text, chars, (ch) => {
        // A context of its own, its font set only when the size changes: setting a font parses it, which cost
        // more than the measuring itself (every title of a layer has one size).
        const ctx: CanvasRenderingContext2D | null = (this._measurer ??= document.createElement('canvas').getContext('2d'))
        if (!ctx) return 0
        if (this._measuredSize !== look.fontSize) {
          ctx.font = `${look.fontSize}px ${this._font}`
          this._measuredSize = look.fontSize
        }
        return ctx.measureText(ch).width
      })
      e.label = { box: titleBox(look, e.it.sprite!.size, width, 'label' in e.it.sprite!), hidden: e.label?.hidden ?? false }
    },

    titles(this: any): PlacedTitle[] {
      const map: Leaflet.Map | undefined = this._map
      if (!map) return []
      const entries = [...(this._entries as Map<string, Entry>).values()]
      this._measure(entries)
      const pane = this._panePos()
      const out: PlacedTitle[] = []
      for (const e of entries) {
        const own = e.title?.box ?? e.label?.box
        if (!e.title && !e.label) continue
        const left = Math.round(e.x - e.it.anchorX) + pane.x
        const top = Math.round(e.y - e.it.anchorY) + pane.y
        const box = own ? { left: left + own.left, top: top + own.top, width: own.width, height: own.height } : { left, top, width: 0, height: 0 }
        out.push({ el: e.title?.el ?? null, box, selected: !!e.el?.classList.contains('map-point--selected'), shape: !!e.it.sprite && 'label' in e.it.sprite, entry: e })
      }
      return out
    },

    showTitle(this: any, t: PlacedTitle, shown: boolean) {
      if (t.el) return void t.el.classList.toggle('map-label--hidden', !shown)
      const label = (t.entry as Entry).label
      if (!label || label.hidden === !shown) return
      label.hidden = !shown
      this._schedule()
    },

    /** Sizes of element titles not seen yet, read in one go (one layout), never again for the same element. */
    _measure(this: any, entries: Entry[]) {
      for (const e of entries) {
        const t = e.title
        if (!t || t.box) continue
        const w = t.el.offsetWidth
        const h = t.el.offsetHeight
        // The title is centred on its slot by a translate of half its width, which offsetLeft leaves out.
        if (w > 0 && h > 0) t.box = { left: t.el.offsetLeft - w / 2, top: t.el.offsetTop, width: w, height: h }
      }
    },

    hit(this: any, at: { x: number; y: number }): { cluster: string } | { marker: number } | null {
      if (!this._map || this._zooming) return null
      const pane = this._panePos()
      // The badges are drawn above every pin and title.
      const badge = hitBadge(this._placedCrowd, at.x - pane.x, at.y - pane.y)
      if (badge) return { cluster: badge.key }
      const targets: TapTarget[] = []
      for (const e of (this._entries as Map<string, Entry>).values()) {
        if (e.el) continue
        const sprite = e.it.sprite!
        const left = Math.round(e.x - e.it.anchorX)
        const top = Math.round(e.y - e.it.anchorY)
        const l = e.label
        const label = 'label' in sprite
        targets.push({
          id: e.it.markerId,
          pin: label ? null : { left, top, size: sprite.size },
          title: l && !l.hidden ? { left: left + l.box.left, top: top + l.box.top, width: l.box.width, height: l.box.height } : null,
          passThrough: label,
        })
      }
      const id = topmostAt(targets, at.x - pane.x, at.y - pane.y)
      return id === null ? null : { marker: id }
    },

    _drawnBadges(this: any): DrawnBadge[] {
      const map: Leaflet.Map | undefined = this._map
      const shown = this._shownBadges as { placed: PlacedBadge[]; labels: string[]; zoom: number }
      // A zoom hides the drawing until it is made again for the new one.
      if (!map || this._zooming || this._canvas.style.display === 'none' || shown.zoom !== map.getZoom()) return []
      const r = map.getContainer().getBoundingClientRect()
      const pane = this._panePos()
      return shown.placed.map((b, i) => ({ label: shown.labels[i], left: r.left + pane.x + b.x - b.r, top: r.top + pane.y + b.y - b.r, width: 2 * b.r, height: 2 * b.r }))
    },

    _drawn(this: any): { points: DrawnPoint[]; shapes: DrawnShapeTitle[] } {
      const map: Leaflet.Map | undefined = this._map
      const out = { points: [] as DrawnPoint[], shapes: [] as DrawnShapeTitle[] }
      if (!map) return out
      const r = map.getContainer().getBoundingClientRect()
      const pane = this._panePos()
      for (const e of (this._entries as Map<string, Entry>).values()) {
        if (e.el) continue
        const left = Math.round(e.x - e.it.anchorX) + pane.x + r.left
        const top = Math.round(e.y - e.it.anchorY) + pane.y + r.top
        const sprite = e.it.sprite!
        const l = e.label
        const look = sprite.title
        const title: DrawnTitle | null =
          l && look
            ? {
                text: look.text,
                fontSize: look.fontSize,
                background: look.background,
                box: { left: left + l.box.left, top: top + l.box.top, width: l.box.width, height: l.box.height },
                shown: !l.hidden,
              }
            : null
        if ('label' in sprite) {
          if (title) out.shapes.push({ ...title, id: e.it.markerId })
        } else out.points.push({ id: e.it.markerId, pin: { left, top, width: sprite.size, height: sprite.size }, title })
      }
      return out
    },

    // A zoom hides every point until it ends (leaflet-zoom-hide): nothing to draw meanwhile.
    _zoomStart(this: any) {
      this._zooming = true
    },

    /** The view settled: the drawing is made again for it (a pan brings in what lay beyond its margin). */
    _moveEnd(this: any) {
      this._zooming = false
      this._schedule()
    },

    /**
     * One drawing in a task after this one, however many changes asked for it, shown in the canvases' next free frame
     * (canvasTurns.ts). Drawn in the frame that shows it, its 30-40 ms at 4x throttling came on top of the
     * compositor's copy of the canvas in one long task; the frame now only shows what is drawn.
     */
    _schedule(this: any) {
      if (!this._map || this._timer) return
      this._timer = setTimeout(() => {
        this._timer = 0
        this._draw()
      }, 0)
    },

    /** Draws the current points on the hidden canvas, then asks for its turn to take the shown one's place. */
    _draw(this: any) {
      const map: Leaflet.Map | undefined = this._map
      // A zoom hides the points until it ends, and its end asks for a drawing again.
      if (!map || this._zooming) return
      const job = ++this._job
      const canvas: HTMLCanvasElement = this._back
      const drawn = [...(this._entries as Map<string, Entry>).values()].filter((e) => !e.el)
      const badges: PlacedBadge[] = []
      const labels: string[] = []
      const zoom = map.getZoom()
      const show = () => {
        if (job !== this._job || this._zooming || !this._map) return
        const shown: HTMLCanvasElement = this._canvas
        // The shown drawing keeps the class the page and its tests know it by; a canvas with nothing on it is not shown at all.
        canvas.style.display = drawn.length || badges.length ? '' : 'none'
        canvas.classList.replace('map-points__canvas--next', 'map-points__canvas')
        shown.classList.replace('map-points__canvas', 'map-points__canvas--next')
        this._canvas = canvas
        this._back = shown
        this._shownBadges = { placed: badges, labels, zoom }
      }
      const size = map.getSize()
      const min = map.containerPointToLayerPoint(size.multiplyBy(-DRAW_MARGIN)).round()
      const w = Math.round(size.x * (1 + 2 * DRAW_MARGIN))
      const h = Math.round(size.y * (1 + 2 * DRAW_MARGIN))
      const inside = (left: number, top: number, width: number, height: number) => left + width >= min.x && top + height >= min.y && left <= min.x + w && top <= min.y + h
      ;(this._placedCrowd as PlacedBadge[]).forEach((b, i) => {
        if (!inside(b.x - b.r, b.y - b.r, 2 * b.r, 2 * b.r)) return
        badges.push(b)
        labels.push((this._crowd as BadgeItem[])[i].label)
      })
      if (!drawn.length && !badges.length) {
        canvasTurns.request(this, show)
        return
      }
      const dpr = canvasDpr()
      fitCanvas(canvas, w, h, dpr)
      L.DomUtil.setPosition(canvas, min)
      const ctx = canvas.getContext('2d')
      if (!ctx) return
      ctx.setTransform(1, 0, 0, 1, 0, 0)
      ctx.clearRect(0, 0, canvas.width, canvas.height)
      ctx.setTransform(dpr, 0, 0, dpr, -min.x * dpr, -min.y * dpr)
      // Pins in the items' order (later ones on top), then every title above them all (the lines' and areas' first: they come first).
      for (const e of drawn) {
        const sprite = e.it.sprite!
        const left = Math.round(e.x - e.it.anchorX)
        const top = Math.round(e.y - e.it.anchorY)
        if ('label' in sprite || !inside(left, top, sprite.size, sprite.size)) continue
        if ('color' in sprite) {
          const pad = PIN_SPRITE_PAD
          ctx.drawImage(this._pin(sprite.color, sprite.size, dpr), left - pad, top - pad, sprite.size + 2 * pad, sprite.size + 2 * pad)
        } else {
          const img = this._image(sprite.icon)
          if (img.complete && img.naturalWidth > 0) ctx.drawImage(img, left, top, sprite.size, sprite.size)
        }
      }
      let fontSize = 0
      for (const e of drawn) {
        const look = e.it.sprite!.title
        const l = e.label
        if (!look || !l || l.hidden) continue
        const box = { left: Math.round(e.x - e.it.anchorX) + l.box.left, top: Math.round(e.y - e.it.anchorY) + l.box.top, width: l.box.width, height: l.box.height }
        if (!inside(box.left, box.top, box.width, box.height)) continue
        // The font is set when the size changes, not for every title (setting it parses it).
        if (look.fontSize !== fontSize) ctx.font = `${(fontSize = look.fontSize)}px ${this._font}`
        drawTitle(ctx, box, look, null)
      }
      // The badges above them all.
      if (badges.length) drawBadges(ctx, badges, labels, `600 13px ${this._font}`)
      canvasTurns.request(this, show)
    },

    /** A pin of this colour and size, painted once (paintPinSprite). */
    _pin(this: any, color: string, size: number, dpr: number): HTMLCanvasElement {
      const key = `${color}|${size}|${dpr}`
      let sprite: HTMLCanvasElement | undefined = this._pinSprites.get(key)
      if (!sprite) {
        sprite = document.createElement('canvas')
        paintPinSprite(sprite, size, color, dpr)
        this._pinSprites.set(key, sprite)
      }
      return sprite
    },

    /** An icon's image, loaded once per URL; the drawing is made again when one arrives. */
    _image(this: any, url: string): HTMLImageElement {
      let img: HTMLImageElement | undefined = this._images.get(url)
      if (!img) {
        img = new Image()
        img.onload = () => this._schedule()
        img.src = url
        this._images.set(url, img)
      }
      return img
    },

    badges(this: any): ScreenBox[] {
      if (!this._map) return []
      const pane = this._panePos()
      const out: ScreenBox[] = []
      for (const e of (this._entries as Map<string, Entry>).values())
        if (e.badge) out.push({ left: Math.round(e.x - e.it.anchorX) + pane.x, top: Math.round(e.y - e.it.anchorY) + pane.y, width: 2 * e.it.anchorX, height: 2 * e.it.anchorY })
      for (const b of this._placedCrowd as PlacedBadge[]) out.push({ left: b.x - b.r + pane.x, top: b.y - b.r + pane.y, width: 2 * b.r, height: 2 * b.r })
      return out
    },

    /** Where layer px (0, 0) is in the container now: layer px plus this are container px. */
    _panePos(this: any): Leaflet.Point {
      return (this._map as Leaflet.Map).layerPointToContainerPoint([0, 0])
    },

    _place(this: any, e: Entry) {
      const p = (this._map as Leaflet.Map).latLngToLayerPoint([e.it.lat, e.it.lng])
      e.x = p.x
      e.y = p.y
      if (!e.el) return
      // A 2D translate: the items are painted with their pane instead of each becoming a compositor layer.
      const transform = `translate(${Math.round(p.x - e.it.anchorX)}px, ${Math.round(p.y - e.it.anchorY)}px)`
      e.el.style.transform = transform
      if (e.title) e.title.slot.style.transform = transform
    },

    _placeAll(this: any) {
      if (!this._map) return
      for (const e of (this._entries as Map<string, Entry>).values()) this._place(e)
      this._placeBadges()
      this._schedule()
    },
  })
  return new (Layer as any)() as PointLayer
}
