/**
 * The data list of one layer: its rows, search, per-field filters and sort (kept per layer for the
 * session), 选择 mode with 全选 over everything the query matched, and the bulk actions.
 *
 * A layer the phone can hold (DATA_LIST_PHONE_MAX) is read once and found and sorted here, at
 * once on every keystroke; a larger one is found and sorted by the server with the same rules, in
 * pages. Without network the rows come from the phone's offline copy, and bulk actions are refused
 * (离线时不能批量修改): nothing is half-queued. Teammates' changes to the layer arrive through live
 * sync and the rows are read again.
 */
import { makeAutoObservable, runInAction } from 'mobx'
import type { BulkAction, BulkRefusal, BulkResult, DataListFilter, DataListQuery, DataListRow, DataListSortKey } from '../../types/datalist'
import type { ExportFile, ExportFormat, FileCrs, LayerField, Marker } from '../../types/mapdata'
import type { SyncChange } from '../../types/sync'
import {
  allPicked,
  BULK_MAX_IDS,
  bulkTargetOf,
  DATA_LIST_PAGE_SIZE,
  DATA_LIST_PHONE_MAX,
  fieldsById,
  findRows,
  isQueryActive,
  isSelected,
  NO_SELECTION,
  selectAllMatched,
  selectedCount,
  toggleRow,
  type DataListSelection,
} from '../domain/dataList'
import { DATA_LIST_MSG } from '../domain/dataListMessages'
import { fitTarget } from '../domain/fit'
import { boundsOf, parsePoints } from '../domain/points'
import type { LazyStore } from './lazyStores'
import type { RootStore } from './RootStore'

/** Teammates' changes are gathered this long before the rows are read again (a bulk edit of 40 brings 40 changes). */
export const LIVE_RELOAD_MS = 400

/** The list's rows from the phone's offline copy: what a marker carries (no notes count; its creator stands for the last editor). */
export function rowOfMarker(m: Marker): DataListRow {
  return { id: m.id, layer_id: m.layer_id, name: m.name, type: m.type, style: m.style, fields: m.fields, rev: m.rev, notes_count: 0, editor_name: m.creator_name, edited_at: m.updated_at }
}

export class DataListStore implements LazyStore {
  layerId = 0
  fields: LayerField[] = []
  /** Every row of the layer (held on the phone), or the loaded pages of the query's rows (found by the server). */
  rows: DataListRow[] = []
  /** The layer's rows are found and sorted on the phone. */
  local = true
  total = 0
  /** Rows the server's query matched (when not local). */
  serverMatched = 0
  listedAt = ''
  /** The rows are the phone's offline copy. */
  offlineCopy = false
  loading = false
  loaded = false
  query: DataListQuery = {}
  selecting = false
  selection: DataListSelection = NO_SELECTION
  busy = false
  /** Rows a bulk action found changed by someone else meanwhile (the list offers to read them again). */
  stale: BulkRefusal[] = []
  lastResult: BulkResult | null = null
  private readonly queries = new Map<number, DataListQuery>()
  private seq = 0
  private liveTimer: unknown = null

  constructor(private readonly root: RootStore) {
    makeAutoObservable<DataListStore, 'root' | 'queries' | 'seq' | 'liveTimer'>(this, { root: false, queries: false, seq: false, liveTimer: false })
    root.dataListSink = (changes) => this.onChanges(changes)
  }

  get layer() {
    return this.root.layers.byId.get(this.layerId)
  }

  private get fieldMap() {
    return fieldsById(this.fields)
  }

  /** The rows the list shows, in order. */
  get shown(): DataListRow[] {
    return this.local ? findRows(this.rows, this.query, this.fieldMap) : this.rows
  }

  get matched(): number {
    return this.local ? this.shown.length : this.serverMatched
  }

  get filtered(): boolean {
    return isQueryActive(this.query)
  }

  get countLine(): string {
    return DATA_LIST_MSG.countLine(this.total, this.matched, this.filtered)
  }

  get selectedCount(): number {
    return selectedCount(this.selection, this.matched)
  }

  get allPicked(): boolean {
    return allPicked(this.selection, this.matched)
  }

  get canLoadMore(): boolean {
    return !this.local && this.rows.length < this.serverMatched
  }

  isSelected(id: number): boolean {
    return isSelected(this.selection, id)
  }

  filterOf(fieldId: number): DataListFilter | undefined {
    return this.query.filters?.find((f) => f.field_id === fieldId)
  }

  /** Opens a layer's list with the query it had earlier in the session. */
  async open(layerId: number): Promise<boolean> {
    if (this.layerId !== layerId) {
      this.layerId = layerId
      this.rows = []
      this.loaded = false
      this.selecting = false
      this.selection = NO_SELECTION
      this.stale = []
    }
    this.query = this.queries.get(layerId) ?? {}
    if (!this.root.layers.loaded) await this.root.layers.load()
    const fields = await this.root.read('/api/layer/field/getlist', { layer_id: layerId })
    runInAction(() => {
      this.fields = fields ?? this.root.fields.byLayer.get(layerId) ?? []
    })
    return this.reload()
  }

  /** Reads the rows again (after a change here or a teammate's). */
  async reload(): Promise<boolean> {
    const seq = ++this.seq
    this.loading = true
    const sink = this.root.offlineSink
    if (sink?.offline()) return this.readOfflineCopy(seq)
    // A layer the phone holds comes whole, unsorted, and is found and sorted here; a larger one by the server.
    const known = this.layer?.marker_count ?? 0
    const local = known <= DATA_LIST_PHONE_MAX
    const body = local ? { layer_id: this.layerId, pageindex: 1, pagesize: DATA_LIST_PHONE_MAX } : { layer_id: this.layerId, query: this.query, pageindex: 1, pagesize: DATA_LIST_PAGE_SIZE }
    const page = await this.root.api.request('/api/marker/datalist', body, { quietNetwork: !!sink }).catch((e: { kind?: string }) => (e.kind === 'network' ? ('network' as const) : undefined))
    if (page === 'network') return this.readOfflineCopy(seq)
    runInAction(() => {
      if (seq !== this.seq) return
      this.loading = false
      this.loaded = true
      if (!page) return
      this.offlineCopy = false
      this.local = local && page.total <= DATA_LIST_PHONE_MAX
      this.rows = page.list
      this.total = page.total
      this.serverMatched = page.matched
      this.listedAt = page.listed_at
    })
    return !!page
  }

  private async readOfflineCopy(seq: number): Promise<boolean> {
    const saved = await this.root.offlineSink?.answer('/api/marker/getlist', { layer_ids: [this.layerId], pageindex: 1, pagesize: DATA_LIST_PHONE_MAX })
    const list = saved?.list ?? this.root.markers.byLayer.get(this.layerId)
    runInAction(() => {
      if (seq !== this.seq) return
      this.loading = false
      this.loaded = true
      this.offlineCopy = true
      this.local = true
      this.rows = (list ?? []).map(rowOfMarker)
      this.total = this.rows.length
    })
    return !!list
  }

  /** The next page of a layer the server finds. */
  async loadMore(): Promise<boolean> {
    if (!this.canLoadMore || this.loading) return false
    const seq = this.seq
    this.loading = true
    const pageindex = Math.floor(this.rows.length / DATA_LIST_PAGE_SIZE) + 1
    const page = await this.root.api.post('/api/marker/datalist', { layer_id: this.layerId, query: this.query, pageindex, pagesize: DATA_LIST_PAGE_SIZE })
    runInAction(() => {
      if (seq !== this.seq) return
      this.loading = false
      if (!page) return
      const have = new Set(this.rows.map((r) => r.id))
      this.rows = [...this.rows, ...page.list.filter((r) => !have.has(r.id))]
      this.serverMatched = page.matched
    })
    return !!page
  }

  private setQuery(query: DataListQuery, sameRows = false): void {
    this.query = query
    this.queries.set(this.layerId, query)
    // What 全选 picked under another search or filter is not what the user sees now (a new order is).
    if (this.selection.all && !sameRows) this.selection = NO_SELECTION
    if (!this.local) void this.reload()
  }

  setKw(kw: string): void {
    this.setQuery({ ...this.query, kw })
  }

  /** Sets (or with null clears) the filter of one field. */
  setFilter(fieldId: number, filter: DataListFilter | null): void {
    const rest = (this.query.filters ?? []).filter((f) => f.field_id !== fieldId)
    this.setQuery({ ...this.query, filters: filter ? [...rest, filter] : rest })
  }

  clearFilters(): void {
    this.setQuery({ ...this.query, kw: '', filters: [] })
  }

  /** Sorts by a column; the same column again turns the order round. */
  sortBy(key: DataListSortKey): void {
    const now = this.query.sort
    this.setQuery({ ...this.query, sort: { key, dir: now?.key === key && now.dir === 'asc' ? 'desc' : 'asc' } }, true)
  }

  setSelecting(on: boolean): void {
    this.selecting = on
    if (!on) this.selection = NO_SELECTION
  }

  /** A long press starts 选择 mode with the row picked. */
  pickFirst(id: number): void {
    this.selecting = true
    this.selection = toggleRow(NO_SELECTION, id)
  }

  toggle(id: number): void {
    this.selection = toggleRow(this.selection, id)
  }

  /** 全选 picks every row the query matched; again, none. */
  toggleAll(): void {
    this.selection = this.allPicked ? NO_SELECTION : selectAllMatched()
  }

  /** The picked rows among those loaded (export, share and the map take these). */
  get pickedRows(): DataListRow[] {
    return this.shown.filter((r) => this.isSelected(r.id))
  }

  /**
   * Runs a bulk action on the selection; one call, however many rows. Without network it is refused
   * at once. Afterwards the rows are read again and what was refused is said.
   */
  async runBulk(action: BulkAction): Promise<BulkResult | undefined> {
    if (this.offlineCopy || this.root.offlineSink?.offline()) {
      this.root.app.notify(DATA_LIST_MSG.offlineBulk, 'warning')
      return undefined
    }
    if (this.selectedCount === 0) {
      this.root.app.notify(DATA_LIST_MSG.pickSomething, 'warning')
      return undefined
    }
    const target = bulkTargetOf(this.selection, this.shown, this.local, this.layerId, this.query, this.listedAt)
    this.busy = true
    const res = await this.root.api.post('/api/marker/bulk', { ...action, ...target } as never)
    runInAction(() => {
      this.busy = false
      if (!res) return
      this.lastResult = res
      this.stale = res.refused.filter((r) => r.reason === 'conflict')
      const message =
        res.refused.length === 0
          ? action.action === 'delete'
            ? DATA_LIST_MSG.deleted(res.done)
            : DATA_LIST_MSG.done(res.done)
          : this.stale.length
            ? DATA_LIST_MSG.staleRows(this.stale.length)
            : DATA_LIST_MSG.someRefused(res.done, res.refused.length)
      this.root.app.notify(message, res.refused.length ? 'warning' : 'success')
      this.selection = NO_SELECTION
      this.selecting = false
    })
    if (res) {
      await this.reload()
      // The layer panel's counts change with a move or a delete.
      if (action.action === 'move' || action.action === 'delete') void this.root.layers.load()
    }
    return res
  }

  /** 导出: the picked rows (those loaded) as a file of the layer's, in any export format. */
  async exportPicked(format: ExportFormat, crs: FileCrs): Promise<ExportFile | undefined> {
    const ids = this.pickedRows.map((r) => r.id)
    if (!ids.length) {
      this.root.app.notify(DATA_LIST_MSG.pickSomething, 'warning')
      return undefined
    }
    return this.root.markers.exportLayer(this.layerId, format, crs, ids.slice(0, BULK_MAX_IDS))
  }

  /** Reads the rows a bulk action found changed, and drops the notice. */
  async reloadStale(): Promise<void> {
    this.stale = []
    await this.reload()
  }

  /** The markers of these rows, read from the server (for the map's frame and a row's 定位). */
  private async markersOf(ids: number[]): Promise<Marker[]> {
    const known = ids.map((id) => this.root.markers.find(id)).filter((m): m is Marker => !!m)
    if (known.length === ids.length) return known
    return (await this.root.read('/api/marker/getbyid', { ids: ids.slice(0, DATA_LIST_PHONE_MAX) })) ?? known
  }

  /** 在地图上查看: back to the map, framed on the picked rows (a single one with its detail open). */
  async showOnMap(ids: number[] = this.pickedRows.map((r) => r.id)): Promise<boolean> {
    if (!ids.length) {
      this.root.app.notify(DATA_LIST_MSG.pickSomething, 'warning')
      return false
    }
    const markers = await this.markersOf(ids)
    let box: [number, number, number, number] | null = null
    for (const m of markers) {
      const parsed = parsePoints(m.points)
      if (!parsed.ok) continue
      const [a, b, c, d] = boundsOf(m.type, parsed.parts, m.radius)
      if (a === 0 && b === 0) continue
      box = box ? [Math.min(box[0], a), Math.min(box[1], b), Math.max(box[2], c), Math.max(box[3], d)] : [a, b, c, d]
    }
    if (!box) return false
    const layer = this.layer
    // The layer is shown on the map, or its markers would not be there to look at.
    if (layer && !layer.show) await this.root.layers.setShown(layer.id, true)
    const t = fitTarget(box)
    this.root.map.moveTo(t.lng, t.lat, markers.length === 1 ? Math.max(t.zoom, 16) : t.zoom)
    if (markers.length === 1) void this.root.markers.openDetail(markers[0].id)
    this.root.navigate('/map')
    return true
  }

  /** A row's 定位: the marker on the map with its detail open. */
  locate(id: number): Promise<boolean> {
    return this.showOnMap([id])
  }

  private onChanges(changes: SyncChange[]): void {
    if (!this.loaded || !changes.some((c) => c.kind === 'marker' && c.layer_id === this.layerId)) return
    if (this.liveTimer) return
    this.liveTimer = this.root.scheduler.setTimeout(() => {
      this.liveTimer = null
      void this.reload()
    }, LIVE_RELOAD_MS)
  }

  reset(): void {
    this.queries.clear()
    this.layerId = 0
    this.rows = []
    this.loaded = false
    this.selection = NO_SELECTION
    this.selecting = false
  }

  dispose(): void {
    if (this.liveTimer) this.root.scheduler.clearTimeout(this.liveTimer)
    if (this.root.dataListSink) this.root.dataListSink = null
  }
}
