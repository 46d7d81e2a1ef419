/**
 * Point markers and cluster badges of the keyless map as one light layer: plain absolutely placed
 * elements, kept by key between views (only what changed is created or removed), placed once per
 * zoom level (they ride along with the map pane while panning), hidden during the zoom animation,
 * and tapped through one delegated listener. Leaflet's own L.marker costs several times more per
 * item. Cluster badges come here only while few are in view; hundreds go on the canvas (canvasLayer.ts).
 *
 * Draw order, bottom to top: the pins (with members and the user's own dot), then every point's
 * title, then the cluster badges. A title is taken out of its point's markup into a slot of the
 * pin's size in the titles' container, so that no neighbouring pin covers it; the titles' boxes are
 * known from the map's own projection and each title's size, read from the page once per element.
 *
 * While the map moves (a drag, its glide, an animated pan), plain pins and their titles are a drawing on a
 * canvas instead (pointSprites.ts): their elements are hidden from the move's start to its end, and
 * shown again where they are once the view settles. Selected and pending points, members, the
 * user's own dot and cluster badges stay elements throughout (few, and drawn with more than a pin).
 */
import type * as Leaflet from 'leaflet'
import { fitCanvas } from './canvasLayer'
import { drawPin, drawTitle, titleLook, type PointSprite } from './pointSprites'

export interface PointItem {
  key: string
  lat: number
  lng: number
  /** Markup of the item (escaped by the caller); its root carries data-marker-id or data-cluster-key. */
  html: string
  /** Anchor offset in px from the top-left of the item to the geographic point. */
  anchorX: number
  anchorY: number
  zIndex?: number
  /** How it is drawn while the map moves; without one, its element stays shown then. */
  sprite?: PointSprite
}

/** The moving drawing's margin around the view, as a share of its size: a pan shows what lies beside the view. */
const MOVE_PADDING = 0.1

/** A box in the map container's px. */
export interface ScreenBox {
  left: number
  top: number
  width: number
  height: number
}

export interface PlacedTitle {
  el: HTMLElement
  box: ScreenBox
  selected: boolean
}

export interface PointLayerEvents {
  onMarker: (id: number) => void
  onCluster: (key: string) => void
}

export interface PointLayer extends Leaflet.Layer {
  setItems(items: PointItem[]): void
  /** The points' titles where they are drawn now (measured on the page only the first time an element is seen). */
  titles(): PlacedTitle[]
  /** The cluster badges' boxes (their ring included). */
  badges(): ScreenBox[]
  /** Titles were shown or hidden (their layout): the drawing shown while moving is made again. */
  titlesChanged(): void
}

interface Title {
  el: HTMLElement
  slot: HTMLElement
  /** Box relative to the item's top-left, read once (null until then, or while the map is not laid out). */
  box: ScreenBox | null
}

interface Entry {
  it: PointItem
  el: HTMLElement
  badge: boolean
  title: Title | null
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
    },

    onAdd(this: any, map: Leaflet.Map) {
      this._map = map
      // The wrapper makes no stacking context: its parts' z-index orders them among the pane's other layers (canvasLayer.ts).
      const el = L.DomUtil.create('div', 'map-points')
      // Pins drawn on the canvas while moving, the canvas, then pins shown as elements throughout; titles alike.
      this._pins = L.DomUtil.create('div', 'map-points__pins leaflet-zoom-hide', el)
      this._canvas = L.DomUtil.create('canvas', 'map-points__canvas leaflet-zoom-hide', el) as HTMLCanvasElement
      this._keptPins = L.DomUtil.create('div', 'map-points__pins leaflet-zoom-hide', el)
      this._titles = L.DomUtil.create('div', 'map-points__titles leaflet-zoom-hide', el)
      this._keptTitles = L.DomUtil.create('div', 'map-points__titles leaflet-zoom-hide', el)
      this._badges = L.DomUtil.create('div', 'map-points__badges leaflet-zoom-hide', el)
      this._canvas.style.display = 'none'
      this._font = getComputedStyle(map.getContainer()).fontFamily || 'sans-serif'
      this._dirty = true
      this._zooming = false
      this._startFrame = 0
      this._moving = false
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
      map.on('movestart', this._moveStart, this)
      map.on('moveend', this._moveEnd, this)
      map.on('zoomstart', this._zoomStart, this)
      this._placeAll()
    },

    onRemove(this: any, map: Leaflet.Map) {
      if (this._startFrame) cancelAnimationFrame(this._startFrame)
      this._startFrame = 0
      map.off('zoomend viewreset', this._placeAll, this)
      map.off('movestart', this._moveStart, this)
      map.off('moveend', this._moveEnd, this)
      map.off('zoomstart', this._zoomStart, this)
      this._container.remove()
      this._entries.clear()
    },

    /** Replaces the items: unchanged keys keep their elements, new ones are created, gone ones removed. */
    setItems(this: any, items: PointItem[]) {
      const entries = this._entries as Map<string, Entry>
      const next = new Map<string, PointItem>()
      for (const it of items) next.set(it.key, it)
      for (const [key, e] of entries) {
        if (!next.has(key)) {
          e.el.remove()
          e.title?.slot.remove()
          entries.delete(key)
          this._dirty = true
        }
      }
      // All new items are parsed in one go (one parser run instead of one per item); every item's markup has one root element.
      const added: PointItem[] = []
      for (const it of next.values()) if (!entries.has(it.key)) added.push(it)
      if (!added.length) return
      this._dirty = true
      const template = document.createElement('template')
      template.innerHTML = added.map((it) => it.html).join('')
      const roots = Array.from(template.content.children) as HTMLElement[]
      const pins = document.createDocumentFragment()
      const titles = document.createDocumentFragment()
      const keptPins = document.createDocumentFragment()
      const keptTitles = document.createDocumentFragment()
      const badges = document.createDocumentFragment()
      added.forEach((it, k) => {
        // The item's own root element is placed directly: one element fewer per item to style and lay out.
        const el = roots[k] ?? document.createElement('div')
        el.classList.add('map-points__item')
        if (it.zIndex) el.style.zIndex = String(it.zIndex)
        const badge = el.hasAttribute('data-cluster-key')
        const title = badge ? null : detachTitle(el)
        const entry: Entry = { it, el, badge, title, x: 0, y: 0 }
        entries.set(it.key, entry)
        ;(badge ? badges : it.sprite ? pins : keptPins).appendChild(el)
        if (title) (it.sprite ? titles : keptTitles).appendChild(title.slot)
        if (this._map) this._place(entry)
      })
      this._pins?.appendChild(pins)
      this._keptPins?.appendChild(keptPins)
      this._titles?.appendChild(titles)
      this._keptTitles?.appendChild(keptTitles)
      this._badges?.appendChild(badges)
    },

    /** The titles' shown or hidden state changed (the engine's declutter): the moving drawing follows. */
    titlesChanged(this: any) {
      this._dirty = true
    },

    titles(this: any): PlacedTitle[] {
      const map: Leaflet.Map | undefined = this._map
      if (!map) return []
      const withTitles = [...(this._entries as Map<string, Entry>).values()].filter((e) => e.title)
      this._measure(withTitles)
      const pane = this._panePos()
      return withTitles.map((e) => {
        const t = e.title!
        const left = Math.round(e.x - e.it.anchorX) + pane.x
        const top = Math.round(e.y - e.it.anchorY) + pane.y
        const box = t.box ? { left: left + t.box.left, top: top + t.box.top, width: t.box.width, height: t.box.height } : { left, top, width: 0, height: 0 }
        return { el: t.el, box, selected: e.el.classList.contains('map-point--selected') }
      })
    },

    /** Sizes of titles not seen yet, read in one go (one layout), never again for the same element. */
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

    // A zoom hides every point until it ends (leaflet-zoom-hide): nothing to draw for it.
    _zoomStart(this: any) {
      this._zooming = true
    },

    /**
     * The move starts: from its first frame, plain pins and their titles are the canvas's drawing, their
     * elements hidden. A view set without animation starts and ends its move in one go: nothing to draw then.
     */
    _moveStart(this: any) {
      if (this._zooming || this._moving || this._startFrame) return
      this._startFrame = requestAnimationFrame(() => {
        this._startFrame = 0
        this._swap()
      })
    },

    _swap(this: any) {
      if (this._zooming || this._moving || !this._map) return
      const drawn = [...(this._entries as Map<string, Entry>).values()].filter((e) => e.it.sprite)
      if (!drawn.length) return
      // Redrawn only when the items, their titles or the view changed since the last drawing.
      if (this._dirty) this._draw(drawn)
      this._moving = true
      this._canvas.style.display = 'block'
      this._pins.style.display = 'none'
      this._titles.style.display = 'none'
    },

    /** The view settled: the elements are back where they are, the drawing hidden. */
    _moveEnd(this: any) {
      this._zooming = false
      if (this._startFrame) cancelAnimationFrame(this._startFrame)
      this._startFrame = 0
      // The drawing covers the view it was made for, with a margin: the next move draws anew.
      this._dirty = true
      if (!this._moving) return
      this._moving = false
      this._canvas.style.display = 'none'
      this._pins.style.display = ''
      this._titles.style.display = ''
    },

    _draw(this: any, drawn: Entry[]) {
      const map: Leaflet.Map = this._map
      this._dirty = false
      this._measure(drawn)
      const size = map.getSize()
      const min = map.containerPointToLayerPoint(size.multiplyBy(-MOVE_PADDING)).round()
      const w = Math.round(size.x * (1 + 2 * MOVE_PADDING))
      const h = Math.round(size.y * (1 + 2 * MOVE_PADDING))
      // At most twice the CSS pixels: the drawing shows only while moving, and memory is short on cheap phones.
      const dpr = Math.min(2, window.devicePixelRatio || 1)
      const canvas: HTMLCanvasElement = this._canvas
      fitCanvas(canvas, w, h, dpr)
      L.DomUtil.setPosition(canvas, min)
      const ctx = canvas.getContext('2d')
      if (!ctx) return
      ctx.setTransform(1, 0, 0, 1, 0, 0)
      ctx.clearRect(0, 0, canvas.width, canvas.height)
      ctx.setTransform(dpr, 0, 0, dpr, -min.x * dpr, -min.y * dpr)
      const inside = (left: number, top: number, width: number, height: number) => left + width >= min.x && top + height >= min.y && left <= min.x + w && top <= min.y + h
      // Pins in the elements' order (later ones on top), then every title above them all, as the elements are.
      for (const e of drawn) {
        const sprite = e.it.sprite!
        const left = Math.round(e.x - e.it.anchorX)
        const top = Math.round(e.y - e.it.anchorY)
        if (!inside(left, top, sprite.size, sprite.size)) continue
        if ('color' in sprite) drawPin(ctx, left, top, sprite.size, sprite.color)
        else {
          const img = e.el.querySelector('img')
          if (img?.complete && img.naturalWidth > 0) ctx.drawImage(img, left, top, sprite.size, sprite.size)
        }
      }
      for (const e of drawn) {
        const t = e.title
        if (!t?.box || t.el.classList.contains('map-label--hidden')) continue
        const box = { left: Math.round(e.x - e.it.anchorX) + t.box.left, top: Math.round(e.y - e.it.anchorY) + t.box.top, width: t.box.width, height: t.box.height }
        if (inside(box.left, box.top, box.width, box.height)) drawTitle(ctx, box, titleLook(t.el), this._font)
      }
    },

    badges(this: any): ScreenBox[] {
      if (!this._map) return []
      const pane = this._panePos()
      const out: ScreenBox[] = []
      for (const e of (this._entries as Map<string, Entry>).values())
        if (e.badge) out.push({ left: Math.round(e.x - e.it.anchorX) + pane.x, top: Math.round(e.y - e.it.anchorY) + pane.y, width: 2 * e.it.anchorX, height: 2 * e.it.anchorY })
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
      // A 2D translate: the items are painted with their pane instead of each becoming a compositor layer.
      const transform = `translate(${Math.round(p.x - e.it.anchorX)}px, ${Math.round(p.y - e.it.anchorY)}px)`
      e.el.style.transform = transform
      if (e.title) e.title.slot.style.transform = transform
    },

    _placeAll(this: any) {
      if (!this._map) return
      this._dirty = true
      for (const e of (this._entries as Map<string, Entry>).values()) this._place(e)
    },
  })
  return new (Layer as any)() as PointLayer
}
