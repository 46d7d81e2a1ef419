/**
 * Point markers and cluster badges of the keyless map as one light layer: plain absolutely placed
 * elements in one container, kept by key between views (only what changed is created or removed),
 * placed once per zoom level (they ride along with the map pane while panning), hidden during the
 * zoom animation, and tapped through one delegated listener. Leaflet's own L.marker costs several
 * times more per item. Cluster badges come here only while few are in view; hundreds go on the
 * canvas (canvasLayer.ts).
 */
import type * as Leaflet from 'leaflet'

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
}

export interface PointLayerEvents {
  onMarker: (id: number) => void
  onCluster: (key: string) => void
}

export function createPointLayer(L: typeof Leaflet, events: () => PointLayerEvents) {
  const PointLayer = L.Layer.extend({
    initialize(this: any) {
      this._els = new Map<string, HTMLElement>()
      this._items = new Map<string, PointItem>()
    },

    onAdd(this: any, map: Leaflet.Map) {
      this._map = map
      const el = L.DomUtil.create('div', 'map-points leaflet-zoom-hide')
      el.style.position = 'absolute'
      el.style.left = '0'
      el.style.top = '0'
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
      this._placeAll()
    },

    onRemove(this: any, map: Leaflet.Map) {
      map.off('zoomend viewreset', this._placeAll, this)
      this._container.remove()
      this._els.clear()
    },

    /** Replaces the items: unchanged keys keep their element, new ones are created, gone ones removed. */
    setItems(this: any, items: PointItem[]) {
      const next = new Map<string, PointItem>()
      for (const it of items) next.set(it.key, it)
      for (const [key, el] of this._els as Map<string, HTMLElement>) {
        if (!next.has(key)) {
          el.remove()
          this._els.delete(key)
        }
      }
      // All new items are parsed in one go (one parser run instead of one per item); every item's markup has one root element.
      const added: [string, PointItem][] = []
      for (const [key, it] of next) if (!this._els.has(key)) added.push([key, it])
      const template = document.createElement('template')
      template.innerHTML = added.map(([, it]) => it.html).join('')
      const roots = Array.from(template.content.children) as HTMLElement[]
      added.forEach(([key, it], k) => {
        // The item's own root element is placed directly: one element fewer per item to style and lay out.
        const wrap = roots[k] ?? document.createElement('div')
        wrap.classList.add('map-points__item')
        if (it.zIndex) wrap.style.zIndex = String(it.zIndex)
        this._els.set(key, wrap)
        if (this._map) this._place(wrap, it)
      })
      this._items = next
      this._container?.appendChild(template.content)
    },

    _place(this: any, el: HTMLElement, it: PointItem) {
      const p = this._map.latLngToLayerPoint([it.lat, it.lng])
      // A 2D translate: the items are painted with their pane instead of each becoming a compositor layer.
      el.style.transform = `translate(${Math.round(p.x - it.anchorX)}px, ${Math.round(p.y - it.anchorY)}px)`
    },

    _placeAll(this: any) {
      if (!this._map) return
      for (const [key, el] of this._els as Map<string, HTMLElement>) this._place(el, this._items.get(key))
    },
  })
  return new (PointLayer as any)() as Leaflet.Layer & { setItems(items: PointItem[]): void }
}
