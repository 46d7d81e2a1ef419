/**
 * Markers (SPEC 3, 4): loaded in pages of 5000 for the layers shown, kept per layer for the
 * map engine; detail, save and delete; the last used style and the marker filter kept on the phone
 * (SPEC 3 client state); search; import and export of a layer.
 */
import { makeAutoObservable, observable, runInAction } from 'mobx'
import type { ExportFile, ExportFormat, FileCrs, ImportResult, Marker, MarkerInput, MarkerStyle, MarkerType } from '../../types/mapdata'
import { MARKER_PAGE_SIZE } from '../domain/constants'
import { isOwnFileUrl } from '../domain/fileUrl'
import type { ApiError } from '../api/errors'
import { MARKER_NAME_MAX, checkFieldValues, cleanStyle, defaultStyle, defaultWidth } from '../domain/markers'
import { MAP_MSG, MAP_UI_MSG, MSG } from '../domain/messages'
import { MARKER_TYPES, isDashed, layerTypeOf, readGeometry, type LngLat } from '../domain/points'
import { layerKindOf, type LayerKind } from './LayerStore'
import type { RootStore } from './RootStore'
import { STORAGE_KEYS } from './storageKeys'
import { nextTask } from '../platform/tasks/nextTask'
import { LAYER_KIND, MARKER_KIND, isLine } from '../domain/markerKinds'
import { importFormatOfName } from '../domain/formats/extensions'

/** SPEC 3 client state: keyword and per-kind show flags. */
export interface MarkerFilter {
  kw: string
  show: Record<MarkerType, boolean>
}

export interface MarkerLook {
  style: MarkerStyle
  width: number
}

/** A file picked for import: its text (tests, older adapters) or its bytes as base64 (what the platforms read). */
export interface PickedFile {
  name: string
  content: string
  base64?: string
}

/** Safety stop for paging: 1000 pages of 5000 is far above any group's marker limit. */
const MAX_PAGES = 1000
/** Pages of one load asked for at once once the first page told the total. */
export const PAGES_IN_FLIGHT = 3
export const SEARCH_PAGE_SIZE = 50

const ALL_SHOWN: Record<MarkerType, boolean> = { 0: true, 1: true, 2: true, 3: true, 4: true, 5: true, 6: true }

/** How many rows of an import were bad (the server lists only the first ones). */
export function badRows(res: ImportResult): number {
  return Math.max(res.invalid_rows ?? 0, res.errors.length)
}

/** The import format from a file name's extension, or null. */
export const importFormatOf = importFormatOfName

function readJson<T>(raw: string | null): T | null {
  if (!raw) return null
  try {
    return JSON.parse(raw) as T
  } catch {
    return null
  }
}

/** A marker's geometry drawn on the map, on its way to the marker form that names and saves it. */
export interface DrawnGeometry {
  type: MarkerType
  parts: LngLat[][]
  /** A circle's, in metres; 0 for other kinds. */
  radius: number
}

export class MarkerStore {
  /** Markers of each loaded layer. Replaced, never mutated, so that 100k markers stay plain objects. */
  byLayer: ReadonlyMap<number, Marker[]> = new Map()
  /** Layers whose pages are being fetched. */
  loadingLayerIds: number[] = []
  filter: MarkerFilter = { kw: '', show: { ...ALL_SHOWN } }
  lastLook: Partial<Record<LayerKind, MarkerLook>> = {}
  /** The marker whose detail shows. */
  detail: Marker | null = null
  detailOpen = false
  searchKw = ''
  searchResults: Marker[] = []
  searchTotal = 0
  searching = false
  searched = false
  /** The result of the last import (bad rows with their row numbers). */
  importResult: ImportResult | null = null
  private readonly generation = new Map<number, number>()
  /** What the map drew for the form that opens next (handToForm), until that form takes it. */
  private drawn: DrawnGeometry | null = null

  constructor(private readonly root: RootStore) {
    makeAutoObservable<MarkerStore, 'root' | 'generation' | 'drawn'>(this, {
      root: false,
      generation: false,
      drawn: false,
      byLayer: observable.ref,
      detail: observable.ref,
      searchResults: observable.ref,
      importResult: observable.ref,
    })
    this.restoreLocal()
  }

  /** The filter and the last look as the phone keeps them. */
  private restoreLocal(): void {
    const storage = this.root.platform.storage
    const f = readJson<Partial<MarkerFilter>>(storage.get(STORAGE_KEYS.markerFilter))
    this.filter = f && typeof f === 'object' ? { kw: typeof f.kw === 'string' ? f.kw : '', show: { ...ALL_SHOWN, ...(f.show ?? {}) } } : { kw: '', show: { ...ALL_SHOWN } }
    const look = readJson<Partial<Record<LayerKind, MarkerLook>>>(storage.get(STORAGE_KEYS.lastMarkerStyle))
    this.lastLook = look && typeof look === 'object' ? look : {}
  }

  // ---- reading ------------------------------------------------------------------------------

  /** Every loaded marker (what the map engine draws from). */
  get all(): Marker[] {
    return Array.from(this.byLayer.values()).flat()
  }

  get count(): number {
    let n = 0
    for (const list of this.byLayer.values()) n += list.length
    return n
  }

  /** The loaded markers that pass the filter (keyword in the name, kind shown). */
  get visible(): Marker[] {
    const kw = this.filter.kw.trim().toLowerCase()
    // A plain copy: a read of the observable filter per marker cost more than the test itself, a quarter of a second at 100,000 markers on a slow phone.
    const show: Partial<Record<MarkerType, boolean>> = { ...this.filter.show }
    const all = this.all
    // With no keyword and every kind shown (the usual map) the filter passes everything: no second array of them all.
    if (!kw && MARKER_TYPES.every((t) => show[t] !== false)) return all
    return all.filter((m) => show[m.type] !== false && (!kw || m.name.toLowerCase().includes(kw)))
  }

  get loading(): boolean {
    return this.loadingLayerIds.length > 0
  }

  /** Markers this phone holds for a layer; undefined when the layer is not loaded. */
  loadedCount(layerId: number): number | undefined {
    return this.byLayer.get(layerId)?.length
  }

  find(id: number): Marker | undefined {
    if (this.detail?.id === id) return this.detail
    for (const list of this.byLayer.values()) {
      const m = list.find((x) => x.id === id)
      if (m) return m
    }
    return this.searchResults.find((m) => m.id === id)
  }

  /** The style and width a new marker of this kind starts with: the last used, over SPEC 9's defaults. */
  lookFor(type: MarkerType): MarkerLook {
    const base = defaultStyle(type)
    const last = this.lastLook[layerKindOf(type)]
    if (!last) return { style: base, width: defaultWidth(type) }
    const style: MarkerStyle = { ...base, ...cleanStyle(last.style) }
    // The kind decides the dash of lines and multi-part areas.
    if (isLine(type) || type === MARKER_KIND.multiPolygon) style.dashed = isDashed(type)
    return { style, width: last.width > 0 ? last.width : defaultWidth(type) }
  }

  // ---- loading ------------------------------------------------------------------------------

  /** Loads the markers of every shown layer and forgets the hidden ones (SPEC 4 marker loading). */
  async loadShown(): Promise<boolean> {
    const shown = this.root.layers.shownLayerIds
    const keep = new Set(shown)
    this.dropLayers(Array.from(this.byLayer.keys()).filter((id) => !keep.has(id)))
    return this.loadLayers(shown)
  }

  /** After the layer list changed under us: forget layers no longer shown, load the shown ones not loaded yet. */
  async syncShown(): Promise<boolean> {
    const shown = this.root.layers.shownLayerIds
    const keep = new Set(shown)
    this.dropLayers(Array.from(this.byLayer.keys()).filter((id) => !keep.has(id)))
    return this.loadLayers(shown.filter((id) => !this.byLayer.has(id)))
  }

  /**
   * Fetches the markers of these layers in pages of 5000, three at a time up to the total, and on
   * while a full page returns. A layer's markers change only when all its pages arrived.
   */
  async loadLayers(layerIds: number[]): Promise<boolean> {
    const ids = Array.from(new Set(layerIds.filter((id) => this.root.layers.byId.get(id)?.type !== LAYER_KIND.folder)))
    if (!ids.length) return true
    const gens = new Map<number, number>()
    for (const id of ids) {
      const g = (this.generation.get(id) ?? 0) + 1
      this.generation.set(id, g)
      gens.set(id, g)
    }
    this.loadingLayerIds = [...this.loadingLayerIds, ...ids]
    const pages = new Map<number, Marker[]>()
    // Pages read by offset while others write may repeat a marker across two pages: each id once,
    // the first page's copy. Each page is taken in as soon as the pages before it are, so a big
    // map's de-duplication and grouping run a page at a time between the network's answers, not
    // in one long task at the end.
    const seen = new Set<number>()
    const grouped = new Map<number, Marker[]>(ids.map((id) => [id, []]))
    let taken = 0
    // Pages that arrive together (page 1 last of three, say) are taken in one per task: their decoding
    // and this grouping in one task would hold a slow phone's taps and frames for a tenth of a second.
    // So the next page, if it is in, is taken a task later; one that arrives meanwhile is found then.
    let taking = Promise.resolve()
    let busy = false
    const takeReadyPages = (): void => {
      const list = pages.get(taken + 1)
      busy = !!list
      if (!list) return
      for (const m of list) if (!seen.has(m.id) && seen.add(m.id)) grouped.get(m.layer_id)?.push(m)
      taken++
      taking = nextTask().then(takeReadyPages)
    }
    let ok = true
    const pagesOf = (count: number) => Math.min(MAX_PAGES, Math.max(1, Math.ceil(count / MARKER_PAGE_SIZE)))
    // How many pages there are: the layer list's counts until a page tells the server's total. So a
    // big map's first pages go out together, and the phone takes in the first while the next are
    // on their way, instead of waiting a round trip and page 1's decoding before asking for page 2.
    let known = pagesOf(ids.reduce((sum, id) => sum + (this.root.layers.byId.get(id)?.marker_count ?? 0), 0))
    const fetchPage = async (page: number, answered?: (data: unknown) => void): Promise<void> => {
      // In columns: a fraction of the bytes, and of the phone's parsing and collecting, of the SPEC page (the api client decodes it).
      const res = ok ? await this.root.read('/api/marker/getlist', { layer_ids: ids, pageindex: page, pagesize: MARKER_PAGE_SIZE, format: 'columns' }, { answered }) : undefined
      if (!res) {
        ok = false
        return
      }
      pages.set(page, res.list)
      if (res.total !== undefined) known = pagesOf(res.total)
      if (!busy) takeReadyPages()
    }
    // PAGES_IN_FLIGHT at a time (a weak network's round trips overlap), then, as SPEC 4 has it, on
    // while a full page returns (the layer may have grown meanwhile). A count that was too high
    // costs an empty page or two; one too low is put right by the first answer.
    // A request leaves the network when its answer is in: the next goes out then, while the answer
    // is decoded (in slices, beside the other pages' decoding), not once it is.
    let next = 1
    let onNetwork = 0
    let unfinished = 0
    await new Promise<void>((resolve) => {
      const pump = () => {
        while (ok && onNetwork < PAGES_IN_FLIGHT && next <= known) {
          onNetwork++
          unfinished++
          let onIt = true
          const leave = (data?: unknown) => {
            if (onIt) {
              onIt = false
              onNetwork--
              // The server's total, in the page as sent, before its decoding: no page past it goes out.
              const total = (data as { total?: number } | undefined)?.total
              if (Number.isInteger(total)) known = pagesOf(total!)
            }
            pump()
          }
          void fetchPage(next++, leave)
            .catch(() => {
              ok = false
            })
            .finally(() => {
              unfinished--
              leave()
            })
        }
        if (!unfinished) resolve()
      }
      pump()
    })
    let last = next - 1
    while (ok && pages.get(last)?.length === MARKER_PAGE_SIZE && last < MAX_PAGES) await fetchPage(++last)
    while (busy) await taking
    runInAction(() => {
      const done = new Set(ids)
      this.loadingLayerIds = this.loadingLayerIds.filter((id) => !done.has(id))
      if (!ok) return
      const next = new Map(this.byLayer)
      // A newer load or a hide of the same layer wins over this one.
      for (const id of ids) if (this.generation.get(id) === gens.get(id)) next.set(id, grouped.get(id)!)
      this.byLayer = next
    })
    return ok
  }

  /** Forgets the markers of hidden or deleted layers. */
  dropLayers(layerIds: number[]): void {
    const drop = layerIds.filter((id) => this.byLayer.has(id) || this.loadingLayerIds.includes(id))
    if (!drop.length) return
    for (const id of drop) this.generation.set(id, (this.generation.get(id) ?? 0) + 1)
    const next = new Map(this.byLayer)
    for (const id of drop) next.delete(id)
    this.byLayer = next
  }

  async getById(id: number): Promise<Marker | undefined> {
    const list = await this.root.read('/api/marker/getbyid', { ids: [id] })
    const m = list?.find((x) => x.id === id)
    if (!m) {
      if (list) this.root.app.notify(MSG.notFound, 'warning')
      return undefined
    }
    runInAction(() => this.upsertLocal(m))
    return m
  }

  // ---- detail -------------------------------------------------------------------------------

  /** Shows a marker's detail; the fresh copy (field values, creator) comes from the server. */
  async openDetail(id: number): Promise<boolean> {
    const known = this.find(id)
    // A marker kept on the phone (temp id) is not on the server yet: what the phone holds is all there is.
    if (id < 0) {
      if (known) this.showDetail(known)
      return !!known
    }
    this.detail = known ?? null
    this.detailOpen = true
    const fresh = await this.getById(id)
    runInAction(() => {
      if (fresh && this.detailOpen && (this.detail === null || this.detail.id === id)) this.detail = fresh
      if (!fresh && !known) this.detailOpen = false
    })
    if (fresh) {
      void this.root.fields.ensure(fresh.layer_id)
      void this.root.notes.load(id)
    }
    return !!fresh
  }

  /** Shows a marker this phone already has fresh (just saved). */
  showDetail(m: Marker): void {
    this.detail = m
    this.detailOpen = true
    void this.root.fields.ensure(m.layer_id)
    void this.root.notes.load(m.id)
  }

  closeDetail(): void {
    this.detailOpen = false
  }

  // ---- save and delete ------------------------------------------------------------------------

  /** Hands a geometry drawn on the map to the marker form (/addinfo) that opens next: its parts as drawn, with no trip through the address. */
  handToForm(drawn: DrawnGeometry): void {
    this.drawn = drawn
  }

  /** The geometry handed to the form, once: the next form to ask gets nothing. */
  takeDrawn(): DrawnGeometry | null {
    const drawn = this.drawn
    this.drawn = null
    return drawn
  }

  /** Checks what needs no server: name, layer, kind and geometry. Returns the first problem or null. */
  check(input: MarkerInput): string | null {
    const name = (input.name ?? '').trim()
    if (!name) return MAP_MSG.markerNameRequired
    if (name.length > MARKER_NAME_MAX) return MAP_MSG.markerNameTooLong(MARKER_NAME_MAX)
    if (!MARKER_TYPES.includes(input.type)) return MAP_MSG.markerTypeInvalid
    const layer = this.root.layers.byId.get(input.layer_id)
    if (!layer) return MAP_UI_MSG.layerRequired
    if (layer.type === LAYER_KIND.folder) return MAP_MSG.folderCannotHoldMarkers
    if (layerTypeOf(input.type) !== layer.type) return MAP_MSG.markerKindMismatch
    const geometry = readGeometry(input.type, input.points, input.radius ?? 0)
    return geometry.ok ? null : geometry.error
  }

  /**
   * Creates or updates a marker; refuses invalid input with a message before calling the server.
   * An update sends the rev its edit started from (`input.rev`); refused with CONFLICT, the conflict
   * sheet opens and this settles with what the user's choice saved (`base`: the version the edit
   * started from, to tell my changes from the teammate's).
   */
  async save(input: MarkerInput, base?: Marker): Promise<Marker | undefined> {
    if (this.rejected(this.check(input))) return undefined
    const sink = this.root.outboxSink
    // A queued create (temp id), a marker with changes still queued, or no network at all: the outbox keeps the save, in order.
    const keptPhotos = !!sink && JSON.stringify(input.fields ?? {}).includes('"kept:')
    const queued = !!sink && (!sink.online() || keptPhotos || (!!input.id && sink.holds('marker', input.id)))
    const fields = queued && !this.root.fields.isLoaded(input.layer_id) ? undefined : await this.root.fields.ensure(input.layer_id)
    // Without the field list (no network to fetch it), the server checks the values when the outbox sends the save.
    if (!fields && !sink) return undefined
    const kept = queued || !fields
    // Photos the outbox keeps until it can upload them pass the photo rule here; it uploads them before this save.
    const values = fields ? checkFieldValues(fields, input.fields, keptPhotos ? (u: string) => u.startsWith('kept:') || isOwnFileUrl(u) : undefined) : { ok: true as const, values: input.fields ?? {} }
    if (!values.ok) {
      this.rejected(values.error)
      return undefined
    }
    const body: MarkerInput = {
      ...(input.id ? { id: input.id } : { client_id: input.client_id ?? sink?.newClientId() }),
      layer_id: input.layer_id,
      name: input.name.trim(),
      type: input.type,
      points: input.points.trim(),
      style: cleanStyle(input.style ?? {}),
      width: input.width ?? defaultWidth(input.type),
      radius: input.type === MARKER_KIND.circle ? (input.radius ?? 0) : 0,
      fields: values.values,
      ...(input.sort !== undefined ? { sort: input.sort } : {}),
      rev: input.rev,
    }
    if (kept && sink) return sink.saveMarker(body, base)
    const before = input.id ? this.find(input.id) : undefined
    const [saved, sheet] = await this.root.saveRev(
      '/api/marker/save',
      body,
      { kind: 'marker', base, resave: (next: MarkerInput, current) => this.save(next, current as Marker) },
      sink ? () => sink.saveMarker(body, base) : undefined,
    )
    // After the conflict sheet, the save it made (or the teammate's version kept) is already in place.
    if (!saved || sheet) return saved
    this.applySaved(saved, before, MSG.savedOk)
    return saved
  }

  /** A save the server answered (or the outbox kept, under a temp id) shows everywhere: layer list, counts, detail, the next new marker's look. */
  applySaved(saved: Marker, before: Marker | undefined, message: string): void {
    this.root.app.clearNotices()
    this.upsertLocal(saved, before?.layer_id)
    if (!before) this.root.layers.adjustCount(saved.layer_id, 1)
    else if (before.layer_id !== saved.layer_id) {
      this.root.layers.adjustCount(before.layer_id, -1)
      this.root.layers.adjustCount(saved.layer_id, 1)
    }
    this.rememberLook(saved.type, { style: saved.style ?? {}, width: saved.width ?? defaultWidth(saved.type) })
    this.root.layers.rememberLayer(saved.type, saved.layer_id)
    this.root.app.notify(message, 'success')
  }

  async remove(id: number): Promise<boolean> {
    const known = this.find(id)
    const sink = this.root.outboxSink
    if (sink && (!sink.online() || sink.holds('marker', id))) return sink.removeMarker(id)
    let lost = false
    // A stale rev is refused with the server's word (changed or deleted by another); the push brings that change.
    const res = await this.root.api.request('/api/marker/delete', { id, rev: known?.rev }, { offlineKept: !!sink }).then(
      () => true,
      (e: ApiError) => {
        lost = e.kind === 'network'
        return false
      },
    )
    if (lost && sink) return sink.removeMarker(id)
    if (!res) return false
    this.applyRemoved(id, MAP_UI_MSG.deletedOk)
    return true
  }

  /** A marker gone from this phone: lists, counts, detail and search results. */
  applyRemoved(id: number, message?: string): void {
    const known = this.find(id)
    this.removeLocal(id)
    if (known) this.root.layers.adjustCount(known.layer_id, -1)
    if (this.detail?.id === id) {
      this.detail = null
      this.detailOpen = false
    }
    this.searchResults = this.searchResults.filter((m) => m.id !== id)
    if (message) this.root.app.notify(message, 'success')
  }

  upsertLocal(m: Marker, previousLayerId?: number): void {
    const next = new Map(this.byLayer)
    let changed = false
    for (const layerId of new Set([previousLayerId ?? m.layer_id, m.layer_id])) {
      const list = next.get(layerId)
      if (!list) {
        // A shown layer with nothing loaded yet (a new layer): it now holds this marker.
        if (layerId === m.layer_id && this.root.layers.byId.get(layerId)?.show && !this.loadingLayerIds.includes(layerId)) {
          next.set(layerId, [m])
          changed = true
        }
        continue
      }
      const rest = list.filter((x) => x.id !== m.id)
      next.set(layerId, layerId === m.layer_id ? [...rest, m] : rest)
      changed = true
    }
    // Search results and the detail keep showing the fresh copy.
    if (changed) this.byLayer = next
    if (this.detail?.id === m.id) this.detail = m
    if (this.searchResults.some((x) => x.id === m.id)) this.searchResults = this.searchResults.map((x) => (x.id === m.id ? m : x))
  }

  removeLocal(id: number): void {
    const next = new Map<number, Marker[]>()
    for (const [layerId, list] of this.byLayer) next.set(layerId, list.some((m) => m.id === id) ? list.filter((m) => m.id !== id) : list)
    this.byLayer = next
  }

  private rememberLook(type: MarkerType, look: MarkerLook): void {
    this.lastLook = { ...this.lastLook, [layerKindOf(type)]: look }
    this.root.platform.storage.set(STORAGE_KEYS.lastMarkerStyle, JSON.stringify(this.lastLook))
  }

  // ---- filter -------------------------------------------------------------------------------

  setFilterKw(kw: string): void {
    this.filter = { ...this.filter, kw }
    this.persistFilter()
  }

  setKindShown(type: MarkerType, show: boolean): void {
    this.filter = { ...this.filter, show: { ...this.filter.show, [type]: show } }
    this.persistFilter()
  }

  /** True when the filter hides anything (the map shows that a filter is on). */
  get filterActive(): boolean {
    return this.filter.kw.trim() !== '' || Object.values(this.filter.show).some((v) => v === false)
  }

  resetFilter(): void {
    this.filter = { kw: '', show: { ...ALL_SHOWN } }
    this.persistFilter()
  }

  private persistFilter(): void {
    this.root.platform.storage.set(STORAGE_KEYS.markerFilter, JSON.stringify(this.filter))
  }

  // ---- search -------------------------------------------------------------------------------

  /** Searches names, notes and field values on the server. */
  async search(kw: string): Promise<boolean> {
    const q = kw.trim()
    this.searchKw = q
    if (!q) {
      this.clearSearch()
      return false
    }
    this.searching = true
    const res = await this.root.read('/api/marker/search', { kw: q, pageindex: 1, pagesize: SEARCH_PAGE_SIZE })
    runInAction(() => {
      this.searching = false
      if (this.searchKw !== q) return
      this.searched = true
      this.searchResults = res?.list ?? []
      this.searchTotal = res?.total ?? 0
    })
    return !!res
  }

  get canSearchMore(): boolean {
    return this.searched && this.searchResults.length < this.searchTotal
  }

  async searchMore(): Promise<boolean> {
    if (!this.canSearchMore || this.searching) return false
    const q = this.searchKw
    const page = Math.floor(this.searchResults.length / SEARCH_PAGE_SIZE) + 1
    this.searching = true
    const res = await this.root.read('/api/marker/search', { kw: q, pageindex: page, pagesize: SEARCH_PAGE_SIZE })
    runInAction(() => {
      this.searching = false
      if (!res || this.searchKw !== q) return
      const have = new Set(this.searchResults.map((m) => m.id))
      this.searchResults = [...this.searchResults, ...res.list.filter((m) => !have.has(m.id))]
      this.searchTotal = res.total
    })
    return !!res
  }

  clearSearch(): void {
    this.searchKw = ''
    this.searchResults = []
    this.searchTotal = 0
    this.searched = false
  }

  // ---- import and export ----------------------------------------------------------------------

  /** The file of a layer (or of these of its markers) in one of the export formats; coordinates WGS-84 unless GCJ-02 is asked for. */
  async exportLayer(layerId: number, format: ExportFormat, crs: FileCrs = 'wgs84', ids?: number[]): Promise<ExportFile | undefined> {
    return this.root.api.post('/api/marker/export', { layer_id: layerId, format, crs, ...(ids ? { ids } : {}) })
  }

  /**
   * Imports a picked file into a layer (the file's other kinds into new sibling layers, made by
   * the server). The file goes as its bytes (base64) when the platform read them, so the server
   * can tell GBK and UTF-16 from UTF-8 and unzip a KMZ. The server imports nothing when a row is
   * bad and lists the bad rows (kept in importResult for the panel to show with their row
   * numbers, with what the file holds).
   */
  async importFile(layerId: number, file: PickedFile, crs: FileCrs = 'wgs84', importId?: string): Promise<ImportResult | undefined> {
    this.importResult = null
    const format = importFormatOf(file.name)
    const empty = file.base64 ? file.base64.length === 0 : !file.content.trim()
    if (this.rejected(!layerId ? MAP_UI_MSG.importNoLayer : !format ? MAP_UI_MSG.importFormatUnknown : empty ? MAP_MSG.importEmpty : null)) return undefined
    const content = file.base64 ? { content: file.base64, encoding: 'base64' as const } : { content: file.content }
    // With an import id the dialog shows the import's progress and its cancel button, which a loading mask would cover.
    const res = await this.root.api.post(
      '/api/marker/import',
      { layer_id: layerId, format: format!, ...content, file_name: file.name, crs, ...(importId ? { import_id: importId } : {}) },
      { ownProgress: !!importId },
    )
    if (!res) return undefined
    const bad = badRows(res)
    // The import dialog shows the outcome and the bad rows; a notice would only say it twice.
    runInAction(() => {
      this.importResult = res
    })
    if (!bad && res.imported > 0) {
      await this.root.layers.load()
      // The chosen layer, and the layers made for the file's other kinds (shown when new).
      const written = (res.layers ?? []).map((l) => l.id)
      const reload = [...new Set([layerId, ...written])].filter((id) => this.byLayer.has(id) || this.root.layers.byId.get(id)?.show)
      if (reload.length) await this.loadLayers(reload)
    }
    return res
  }

  clearImportResult(): void {
    this.importResult = null
  }

  reset(): void {
    this.byLayer = new Map()
    this.generation.clear()
    this.loadingLayerIds = []
    this.detail = null
    this.detailOpen = false
    this.clearSearch()
    this.importResult = null
    this.restoreLocal()
  }

  private rejected(message: string | null): boolean {
    if (message) this.root.app.notify(message, 'warning')
    return !!message
  }
}
