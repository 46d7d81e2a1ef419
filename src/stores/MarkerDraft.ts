/** The /addinfo form's state (MarkerDraft): only that page loads it, so its code stays out of the chunk every page (and /login) loads. */
import { makeAutoObservable, observable, runInAction } from 'mobx'
import type { FieldValue, Marker, MarkerInput, MarkerStyle, MarkerType } from '../../types/mapdata'
import { isOwnFileUrl } from '../domain/fileUrl'
import { defaultStyle, defaultWidth } from '../domain/markers'
import { MAP_MSG, MAP_UI_MSG } from '../domain/messages'
import { formatCoord, isDashed, layerTypeOf, parsePoints, serializePoints, type LngLat } from '../domain/points'
import { layerKindOf } from './LayerStore'
import type { CoreStores } from './RootStore'
import { MARKER_KIND, isArea, isLine, isPoint } from '../domain/markerKinds'

/**
 * The form of /addinfo: a marker being created or edited, with its vertices as a list the user
 * edits (typed 'lng,lat', the current position, or the map). Rules stay in the domain; this only
 * holds what the user typed.
 */
export class MarkerDraft {
  id: number | undefined = undefined
  type: MarkerType = MARKER_KIND.point
  layer_id = 0
  name = ''
  parts: LngLat[][] = [[]]
  /**
   * The holes of each polygon part, kept as they came (an imported area): the form edits outer
   * rings only, and a save writes the holes back rather than filling them.
   */
  holes: LngLat[][][] = []
  activePart = 0
  radius = 0
  style: MarkerStyle = defaultStyle(MARKER_KIND.point)
  width = defaultWidth(MARKER_KIND.point)
  fields: Record<string, FieldValue> = {}
  sort: number | undefined = undefined
  /** The marker as it was when the edit opened: its rev goes with the save, however the store's copy changed since. */
  base: Marker | null = null

  constructor(private readonly root: CoreStores) {
    makeAutoObservable<MarkerDraft, 'root'>(this, { root: false, base: observable.ref })
  }

  /** A new marker of a kind, in the layer it most likely goes to, with the last used look. */
  startNew(type: MarkerType, opts: { layerId?: number; points?: string; parts?: LngLat[][]; radius?: number } = {}): void {
    this.id = undefined
    this.base = null
    this.name = ''
    this.fields = {}
    this.sort = undefined
    this.radius = 0
    this.type = type
    const allowed = this.root.layers.addableFor(type)
    const asked = opts.layerId ? allowed.find((l) => l.id === opts.layerId) : undefined
    this.layer_id = (asked ?? this.root.layers.layerFor(type))?.id ?? 0
    const look = this.root.markers.lookFor(type)
    this.style = look.style
    this.width = look.width
    this.parts = [[]]
    this.holes = []
    this.activePart = 0
    if (opts.parts) this.setParts(opts.parts)
    else if (opts.points) this.setPoints(opts.points)
    if (type === MARKER_KIND.circle && opts.radius) this.setRadius(opts.radius)
  }

  /** Edits an existing marker. */
  startEdit(m: Marker): void {
    this.id = m.id
    this.base = m
    this.type = m.type
    this.layer_id = m.layer_id
    this.name = m.name
    this.style = { ...defaultStyle(m.type), ...m.style }
    this.width = m.width || defaultWidth(m.type)
    this.radius = m.radius
    this.fields = { ...(m.fields ?? {}) }
    this.sort = m.sort
    this.parts = [[]]
    this.holes = []
    this.activePart = 0
    this.setPoints(m.points)
  }

  get points(): string {
    const kept = this.parts.map((part, i) => ({ part, holes: this.holes[i] ?? [] })).filter((p) => p.part.length > 0)
    return kept.length
      ? serializePoints(
          kept.map((p) => p.part),
          kept.map((p) => p.holes),
        )
      : ''
  }

  get vertexCount(): number {
    return this.parts.reduce((n, p) => n + p.length, 0)
  }

  /** Most vertices this kind holds (per part). */
  get maxVertices(): number {
    return isPoint(this.type) || this.type === MARKER_KIND.circle ? 1 : this.type === MARKER_KIND.rectangle ? 2 : Infinity
  }

  get dashed(): boolean {
    return isDashed(this.type) || !!this.style.dashed
  }

  /** Changing the kind keeps the vertices that still fit and moves to a layer that holds the kind. */
  setType(type: MarkerType): void {
    if (type === this.type) return
    const oldKind = layerKindOf(this.type)
    const flat = this.parts.flat()
    this.type = type
    if (type === MARKER_KIND.multiPolygon) this.parts = this.parts.length ? this.parts : [[]]
    else this.parts = [flat.slice(0, this.maxVertices === Infinity ? flat.length : this.maxVertices)]
    // Only polygons have holes: one part keeps all of them, other kinds none.
    this.holes = type === MARKER_KIND.multiPolygon ? this.holes : type === MARKER_KIND.polygon ? [this.holes.flat()] : []
    this.activePart = Math.min(this.activePart, this.parts.length - 1)
    if (layerKindOf(type) !== oldKind) {
      const look = this.root.markers.lookFor(type)
      this.style = look.style
      this.width = look.width
    } else if (isLine(type) || type === MARKER_KIND.multiPolygon) {
      this.style = { ...this.style, dashed: isDashed(type) }
    }
    const layer = this.root.layers.byId.get(this.layer_id)
    if (!layer || layer.type !== layerTypeOf(type)) this.layer_id = this.root.layers.layerFor(type)?.id ?? 0
    if (type !== MARKER_KIND.circle) this.radius = 0
  }

  setLayer(id: number): void {
    this.layer_id = id
  }

  setName(name: string): void {
    this.name = name
  }

  setRadius(r: number): void {
    this.radius = Number.isFinite(r) && r > 0 ? r : 0
  }

  setColor(color: string): void {
    this.style = { ...this.style, color, ...(isArea(this.type) ? { fill_color: color } : {}) }
  }

  /** A point's icon: one of the group's custom icons (uploads, src/domain/fileUrl.ts), or none for the default pin. */
  setIcon(url: string | undefined): void {
    if (!isPoint(this.type)) return
    const { icon: _old, ...rest } = this.style
    this.style = isOwnFileUrl(url) ? { ...rest, icon: url } : rest
  }

  setWidth(width: number): void {
    if (Number.isFinite(width) && width > 0) this.width = Math.round(width)
    if (isPoint(this.type)) this.style = { ...this.style, size: this.width }
  }

  /** Lines switch between the solid and the dashed kind; areas carry the dash in their style. */
  setDashed(dashed: boolean): void {
    if (isLine(this.type)) this.setType(dashed ? MARKER_KIND.dashedLine : MARKER_KIND.solidLine)
    else if (this.type !== MARKER_KIND.multiPolygon && !isPoint(this.type)) this.style = { ...this.style, dashed }
  }

  setFieldValue(fieldId: number, value: FieldValue): void {
    this.fields = { ...this.fields, [String(fieldId)]: value }
  }

  /** Replaces all vertices from a points string (query or an existing marker). */
  setPoints(points: string): string | null {
    const parsed = parsePoints(points)
    if (!parsed.ok) return parsed.error
    this.parts = this.type === MARKER_KIND.multiPolygon ? parsed.parts : [parsed.parts.flat()]
    this.holes = this.type === MARKER_KIND.multiPolygon ? parsed.holes : this.type === MARKER_KIND.polygon ? [parsed.holes.flat()] : []
    this.activePart = this.parts.length - 1
    return null
  }

  /**
   * Replaces all vertices with parts drawn on the map (no holes), each coordinate as the stored
   * points keep it (formatCoord): the form shows and measures what a save will write.
   */
  setParts(parts: LngLat[][]): void {
    const kept = parts.map((part) => part.map((p) => ({ lng: Number(formatCoord(p.lng)), lat: Number(formatCoord(p.lat)) })))
    this.parts = this.type === MARKER_KIND.multiPolygon ? kept : [kept.flat()]
    this.holes = []
    this.activePart = this.parts.length - 1
  }

  /** Adds a vertex typed as 'lng,lat'; returns the message of a problem or null. */
  addVertexText(text: string): string | null {
    const t = text.trim().replace(/，/g, ',')
    if (!t || t.includes('|') || t.includes(';')) return MAP_UI_MSG.coordInvalid
    const parsed = parsePoints(t)
    if (!parsed.ok) return parsed.error === MAP_MSG.vertexInvalid(1) ? MAP_UI_MSG.coordInvalid : parsed.error.replace('第1个坐标的', '')
    return this.addVertex(parsed.parts[0][0])
  }

  /** Adds a vertex to the part being edited; a point or a circle centre is replaced. */
  addVertex(p: LngLat): string | null {
    const part = this.parts[this.activePart] ?? []
    if (this.maxVertices === 1) {
      this.parts = [[p]]
      return null
    }
    if (part.length >= this.maxVertices) return MAP_MSG.rectangleNeedsTwo
    this.parts = this.parts.map((q, i) => (i === this.activePart ? [...q, p] : q))
    return null
  }

  removeVertex(partIndex: number, index: number): void {
    this.parts = this.parts.map((q, i) => (i === partIndex ? q.filter((_, j) => j !== index) : q))
  }

  /** Kind 6: starts another part; empty parts are dropped on save. */
  addPart(): void {
    if (this.type !== MARKER_KIND.multiPolygon) return
    if (this.parts[this.parts.length - 1]?.length === 0) {
      this.activePart = this.parts.length - 1
      return
    }
    this.parts = [...this.parts, []]
    this.activePart = this.parts.length - 1
  }

  selectPart(index: number): void {
    if (index >= 0 && index < this.parts.length) this.activePart = index
  }

  removePart(index: number): void {
    this.parts = this.parts.filter((_, i) => i !== index)
    this.holes = this.holes.filter((_, i) => i !== index)
    if (!this.parts.length) this.parts = [[]]
    this.activePart = Math.min(this.activePart, this.parts.length - 1)
  }

  get input(): MarkerInput {
    return {
      ...(this.id ? { id: this.id } : {}),
      layer_id: this.layer_id,
      name: this.name,
      type: this.type,
      points: this.points,
      style: this.style,
      width: this.width,
      radius: this.type === MARKER_KIND.circle ? this.radius : 0,
      fields: this.fields,
      ...(this.sort !== undefined ? { sort: this.sort } : {}),
      rev: this.base?.rev,
    }
  }

  async save(): Promise<Marker | undefined> {
    const saved = await this.root.markers.save(this.input, this.base!)
    if (saved) runInAction(() => (this.id = saved.id))
    return saved
  }
}
