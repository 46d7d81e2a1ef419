/**
 * Layers in folders (SPEC 3): the tree from /api/layer/getlist, open folders and the last
 * layer per kind kept on the phone (SPEC 3 client state), show/hide through /api/layer/setting/show,
 * create, rename, move, delete, default layer and title styles.
 */
import { layerListKey } from '../domain/groupRefresh'
import { makeAutoObservable, runInAction } from 'mobx'
import type { Layer, LayerType, MarkerType, TitleStyle, TitleStyleLook } from '../../types/mapdata'
import { DEFAULT_TITLE_FONT_SIZE } from '../domain/constants'
import {
  ROOT_ID,
  ancestorIds,
  buildLayerTree,
  checkMove,
  deleteImpact,
  descendantIds,
  layersUnder,
  moveTargets,
  pathLabel,
  visibleRows,
  type DeleteImpact,
  type LayerNode,
  type LayerRow,
} from '../domain/layerTree'
import { LAYER_NAME_MAX } from '../domain/markers'
import { MAP_MSG, MAP_UI_MSG, MSG } from '../domain/messages'
import { PERM, isGroupManager, layerAllows, layersForAddingMarkers, type PermissionId } from '../domain/permissions'
import { layerTypeOf } from '../domain/points'
import type { RootStore } from './RootStore'
import type { ApiReq } from '../../types/api'
import { STORAGE_KEYS } from './storageKeys'
import { LAYER_KIND } from '../domain/markerKinds'

/** SPEC 3 names the last layer per kind: spot (points), line, plane (areas). */
export type LayerKind = 'spot' | 'line' | 'plane'

export function layerKindOf(type: MarkerType): LayerKind {
  const t = layerTypeOf(type)
  return t === LAYER_KIND.point ? 'spot' : t === LAYER_KIND.line ? 'line' : 'plane'
}

export const LAYER_TYPE_NAMES: Record<LayerType, string> = { 0: '文件夹', 1: '点图层', 2: '线图层', 3: '面图层' }

/** The title style a layer uses when neither it nor the group has one (SPEC 9: font size 14). */
export const BUILTIN_TITLE_STYLE: TitleStyleLook = {
  font_size: DEFAULT_TITLE_FONT_SIZE,
  color: '#1D2129',
  bg_color: '#FFFFFF',
  padding: 4,
  border_weight: 1,
  border_color: '#165DFF',
}

function readJson<T>(raw: string | null, fallback: T): T {
  if (!raw) return fallback
  try {
    const v = JSON.parse(raw)
    return v && typeof v === 'object' ? (v as T) : fallback
  } catch {
    return fallback
  }
}

type LayerEdit = ApiReq<'/api/layer/save'>
type TitleStyleEdit = ApiReq<'/api/system/title/style/save'>

export class LayerStore {
  layers: Layer[] = []
  loaded = false
  loading = false
  /** Open folder ids (persisted). */
  openIds: number[] = []
  /** Last layer used per kind (persisted). */
  lastLayerIds: Partial<Record<LayerKind, number>> = {}
  titleStyles: TitleStyle[] = []

  constructor(private readonly root: RootStore) {
    makeAutoObservable<LayerStore, 'root'>(this, { root: false })
    this.restoreLocal()
  }

  /** Open folders and last layers as the phone keeps them. */
  private restoreLocal(): void {
    const storage = this.root.platform.storage
    const open = readJson<unknown>(storage.get(STORAGE_KEYS.openFolderIds), [])
    this.openIds = Array.isArray(open) ? open.filter((v): v is number => typeof v === 'number') : []
    this.lastLayerIds = readJson(storage.get(STORAGE_KEYS.lastLayerIds), {})
  }

  // ---- reading ------------------------------------------------------------------------------

  get byId(): Map<number, Layer> {
    return new Map(this.layers.map((l) => [l.id, l]))
  }

  get tree(): LayerNode<Layer>[] {
    return buildLayerTree(this.layers)
  }

  get openSet(): ReadonlySet<number> {
    return new Set(this.openIds)
  }

  /** The rows the panel draws: roots and the children of open folders. */
  get rows(): LayerRow<Layer>[] {
    return visibleRows(this.tree, this.openSet)
  }

  /** Layers (not folders) shown on the map: their markers are loaded. */
  get shownLayerIds(): number[] {
    return this.layers.filter((l) => l.type !== LAYER_KIND.folder && l.show).map((l) => l.id)
  }

  /** SPEC 6: non-folder layers where the user is manager or holds marker-add. */
  get addableLayers(): Layer[] {
    return layersForAddingMarkers(this.layers)
  }

  /** The layers a marker of this kind may be added to, in tree order. */
  addableFor(type: MarkerType): Layer[] {
    const want = layerTypeOf(type)
    const order = new Map(visibleRows(this.tree, new Set(), true).map((r, i) => [r.layer.id, i]))
    return this.addableLayers.filter((l) => l.type === want).sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0))
  }

  /** Layers (not folders) whose custom fields the user may manage, in tree order (the layer panel's 字段管理). */
  get fieldLayers(): Layer[] {
    return visibleRows(this.tree, new Set(), true)
      .filter((r) => !r.isFolder && this.can(r.layer, PERM.LAYER_FIELD))
      .map((r) => r.layer)
  }

  /** Where a new marker of this kind goes: the last layer used, else the default, else the first allowed. */
  layerFor(type: MarkerType): Layer | undefined {
    const allowed = this.addableFor(type)
    const last = this.lastLayerIds[layerKindOf(type)]
    return allowed.find((l) => l.id === last) ?? allowed.find((l) => l.is_default) ?? allowed[0]
  }

  get isManager(): boolean {
    const s = this.root.session
    return isGroupManager({ is_admin: s.is_admin, is_manager: !!s.user?.is_manager })
  }

  /** The client-side permission answer (the server decides again on every call). */
  can(layer: Layer | undefined, perm: PermissionId): boolean {
    if (this.isManager) return true
    return !!layer && layerAllows(layer, perm)
  }

  /** New folders and layers at the top level are a group-level action; inside a folder the folder's edit right counts too. */
  canCreateIn(parentId: number): boolean {
    if (this.isManager) return true
    return parentId !== ROOT_ID && this.can(this.byId.get(parentId), PERM.LAYER_EDIT)
  }

  pathLabel(id: number): string {
    return pathLabel(this.layers, id)
  }

  moveTargets(id: number): LayerRow<Layer>[] {
    return moveTargets(this.layers, id)
  }

  /** What deleting it removes, counting markers this phone has loaded when it has them. */
  deleteImpact(id: number): DeleteImpact {
    return deleteImpact(this.layers, id, (layerId) => this.root.markers.loadedCount(layerId))
  }

  /** The confirmation text: the counts for a folder with content (SPEC-free). */
  deleteConfirmText(id: number): string {
    const layer = this.byId.get(id)
    const impact = this.deleteImpact(id)
    if (layer?.type === LAYER_KIND.folder && impact.needsConfirm) return MAP_MSG.deleteFolderConfirm(impact.layers, impact.markers)
    return MAP_UI_MSG.deleteLayerConfirm(layer?.name ?? '')
  }

  /** Markers in a layer or folder: what this phone loaded for shown layers, the server's count otherwise. */
  markerCount(id: number): number {
    return layersUnder(this.layers, id).reduce((sum, l) => sum + (this.root.markers.loadedCount(l.id) ?? l.marker_count), 0)
  }

  /** A folder's switch is on when any layer below it is shown; an empty folder keeps its own flag (on until switched off). */
  isShown(id: number): boolean {
    const under = layersUnder(this.layers, id)
    if (!under.length) return this.byId.get(id)?.show ?? false
    return under.some((l) => l.show)
  }

  /**
   * Whether the panel marks this layer as the default of its kind (where new markers of the kind go).
   * Only where the kind has a choice: the only layer of a kind is trivially where its markers go, and
   * marking it would put the badge on nearly every layer of a new map. One per kind, the first in tree order.
   */
  showsDefaultBadge(id: number): boolean {
    const layer = this.byId.get(id)
    if (!layer || layer.type === LAYER_KIND.folder || !layer.is_default) return false
    const sameKind = visibleRows(this.tree, new Set(), true)
      .map((r) => r.layer)
      .filter((l) => l.type === layer.type)
    return sameKind.length > 1 && sameKind.find((l) => l.is_default)?.id === id
  }

  titleStyleFor(layerId: number | null): TitleStyleLook {
    const own = layerId != null ? this.titleStyles.find((s) => s.layer_id === layerId) : undefined
    const group = this.titleStyles.find((s) => s.layer_id == null)
    const found = own ?? group
    if (!found) return { ...BUILTIN_TITLE_STYLE }
    const { id: _id, layer_id: _layer, ...style } = found
    return style
  }

  // ---- loading ------------------------------------------------------------------------------

  async load(): Promise<boolean> {
    this.loading = true
    const list = await this.root.read('/api/layer/getlist', {})
    runInAction(() => {
      this.loading = false
      if (list) {
        this.layers = list
        this.loaded = true
      }
    })
    return !!list
  }

  /** Takes a freshly fetched list (the group refresh) when it differs in what the map shows or allows; true when it did. */
  adoptList(list: Layer[]): boolean {
    if (this.loaded && layerListKey(list) === layerListKey(this.layers)) return false
    this.layers = list
    this.loaded = true
    return true
  }

  async loadTitleStyles(): Promise<void> {
    const list = await this.root.read('/api/system/title/style/getlist', {}, { quiet: true })
    if (list) runInAction(() => (this.titleStyles = list))
  }

  // ---- folders open and closed ------------------------------------------------------------------

  toggleOpen(id: number): void {
    this.setOpen(id, !this.openIds.includes(id))
  }

  setOpen(id: number, open: boolean): void {
    const has = this.openIds.includes(id)
    if (open === has) return
    this.openIds = open ? [...this.openIds, id] : this.openIds.filter((v) => v !== id)
    this.persistOpen()
  }

  /** Opens the folders above a layer so that the panel shows it. */
  reveal(id: number): void {
    const add = ancestorIds(this.layers, id).filter((a) => !this.openIds.includes(a))
    if (!add.length) return
    this.openIds = [...this.openIds, ...add]
    this.persistOpen()
  }

  collapseAll(): void {
    this.openIds = []
    this.persistOpen()
  }

  // ---- show / hide ----------------------------------------------------------------------------

  /** Shows or hides a layer, or every layer in a folder; persisted per user by the server. */
  async setShown(id: number, show: boolean): Promise<boolean> {
    const targets = layersUnder(this.layers, id)
    const ids = [id, ...descendantIds(this.layers, id)]
    const before = new Map(this.layers.map((l) => [l.id, l.show]))
    this.applyShow(ids, show)
    const res = await this.root.api.request('/api/layer/setting/show', { ids, show }).then(
      () => true,
      () => false,
    )
    if (!res) {
      runInAction(() => {
        this.layers = this.layers.map((l) => (before.has(l.id) ? { ...l, show: before.get(l.id)! } : l))
      })
      return false
    }
    const layerIds = targets.map((l) => l.id)
    if (show) await this.root.markers.loadLayers(layerIds)
    else this.root.markers.dropLayers(layerIds)
    return true
  }

  private applyShow(ids: number[], show: boolean): void {
    const set = new Set(ids)
    this.layers = this.layers.map((l) => (set.has(l.id) ? { ...l, show } : l))
  }

  // ---- create, rename, move, delete -------------------------------------------------------------

  /** Checks a layer or folder name; returns the message of the problem or null. */
  checkName(name: string): string | null {
    const n = name.trim()
    if (!n) return MAP_MSG.layerNameRequired
    if (n.length > LAYER_NAME_MAX) return MAP_MSG.layerNameTooLong(LAYER_NAME_MAX)
    return null
  }

  async createFolder(parentId: number, name: string): Promise<Layer | undefined> {
    return this.create(parentId, name, 0)
  }

  async createLayer(parentId: number, name: string, type: 1 | 2 | 3): Promise<Layer | undefined> {
    return this.create(parentId, name, type)
  }

  private async create(parentId: number, name: string, type: LayerType): Promise<Layer | undefined> {
    if (this.rejected(this.checkName(name) ?? (parentId !== ROOT_ID ? checkMove(this.layers, -1, parentId) : null))) return undefined
    const siblings = this.layers.filter((l) => l.parent_id === parentId)
    const sort = siblings.reduce((m, l) => Math.max(m, l.sort), 0) + 1
    const layer = await this.root.api.post('/api/layer/save', { name: name.trim(), parent_id: parentId, type, sort })
    if (!layer) return undefined
    runInAction(() => {
      this.root.app.clearNotices()
      this.layers = [...this.layers, layer]
      if (parentId !== ROOT_ID) this.setOpen(parentId, true)
    })
    return layer
  }

  /**
   * `rev`: the layer's when the rename opened (types/sync.ts). A stale one opens the conflict sheet
   * (对方 / 我的); false (the dialog keeps the typed name) when nothing was saved.
   */
  async rename(id: number, name: string, rev?: number): Promise<boolean> {
    const layer = this.byId.get(id)
    if (!layer || this.rejected(this.checkName(name))) return false
    // The layer as the rename found it tells the sheet which parts are mine and which the teammate's.
    return !!(await this.saveEdit({ id, name: name.trim(), parent_id: layer.parent_id, rev }, rev === undefined || rev === layer.rev ? layer : undefined))
  }

  /** Saves an edit of a layer; a stale rev goes to the conflict sheet, whose choice saves through here again. */
  private async saveEdit(body: LayerEdit, base?: Layer): Promise<Layer | undefined> {
    const [saved, handled] = await this.root.saveRev('/api/layer/save', body, { kind: 'layer', base, resave: (next: LayerEdit) => this.saveEdit(next) })
    if (saved && !handled)
      runInAction(() => {
        this.root.app.clearNotices()
        this.replace(saved)
      })
    return saved
  }

  /** Moves a layer or folder into another folder (ROOT_ID: the top level). */
  async move(id: number, parentId: number): Promise<boolean> {
    const layer = this.byId.get(id)
    if (!layer || this.rejected(checkMove(this.layers, id, parentId))) return false
    if (layer.parent_id === parentId) return true
    const sort = this.layers.filter((l) => l.parent_id === parentId).reduce((m, l) => Math.max(m, l.sort), 0) + 1
    const saved = await this.root.api.post('/api/layer/save', { id, name: layer.name, parent_id: parentId, sort, rev: layer.rev })
    if (!saved) return false
    runInAction(() => {
      this.replace(saved)
      if (parentId !== ROOT_ID) this.setOpen(parentId, true)
      this.root.app.notify(MAP_UI_MSG.movedOk, 'success')
    })
    return true
  }

  /** Deletes a layer, or a folder with everything in it (the panel confirms with deleteConfirmText first). */
  async remove(id: number, rev?: number): Promise<boolean> {
    const impact = this.deleteImpact(id)
    if (!impact.ids.length) return false
    const res = await this.root.api.post('/api/layer/delete', { id, rev })
    if (!res) return false
    const gone = new Set(impact.ids)
    runInAction(() => {
      this.layers = this.layers.filter((l) => !gone.has(l.id))
      this.openIds = this.openIds.filter((o) => !gone.has(o))
      this.persistOpen()
      this.root.app.notify(MAP_UI_MSG.deletedOk, 'success')
    })
    this.root.markers.dropLayers(impact.ids)
    // Folder counts above it changed on the server.
    void this.load()
    return true
  }

  async setDefault(id: number): Promise<boolean> {
    const layer = this.byId.get(id)
    if (!layer || layer.type === LAYER_KIND.folder) return false
    const res = await this.root.api.request('/api/layer/setting/default', { id }).then(
      () => true,
      () => false,
    )
    if (!res) return false
    runInAction(() => {
      this.layers = this.layers.map((l) => (l.type === layer.type ? { ...l, is_default: l.id === id } : l))
      this.root.app.notify(MAP_UI_MSG.defaultLayerSet(layer.name), 'success')
    })
    return true
  }

  // ---- last layer per kind ----------------------------------------------------------------------

  rememberLayer(type: MarkerType, layerId: number): void {
    const kind = layerKindOf(type)
    if (this.lastLayerIds[kind] === layerId) return
    this.lastLayerIds = { ...this.lastLayerIds, [kind]: layerId }
    this.root.platform.storage.set(STORAGE_KEYS.lastLayerIds, JSON.stringify(this.lastLayerIds))
  }

  /** Keeps marker counts in step with saves and deletes made on this phone. */
  adjustCount(layerId: number, delta: number): void {
    if (!delta) return
    const up = new Set([layerId, ...ancestorIds(this.layers, layerId)])
    this.layers = this.layers.map((l) => (up.has(l.id) ? { ...l, marker_count: Math.max(0, l.marker_count + delta) } : l))
  }

  // ---- title styles -----------------------------------------------------------------------------

  /** `rev`: the style's when its editor opened (types/sync.ts); a stale one opens the conflict sheet, as for layers. */
  async saveTitleStyle(layerId: number | null, style: TitleStyleLook, rev?: number): Promise<boolean> {
    const existing = this.titleStyles.find((s) => s.layer_id === layerId)
    const base = existing && (rev === undefined || rev === existing.rev) ? existing : undefined
    return !!(await this.saveStyle({ ...style, layer_id: layerId, id: existing?.id, rev: rev ?? existing?.rev }, base))
  }

  private async saveStyle(body: TitleStyleEdit, base?: TitleStyle): Promise<TitleStyle | undefined> {
    const [saved, handled] = await this.root.saveRev('/api/system/title/style/save', body, { kind: 'title_style', base, resave: (next: TitleStyleEdit) => this.saveStyle(next) })
    if (saved && !handled)
      runInAction(() => {
        this.titleStyles = [...this.titleStyles.filter((s) => s.layer_id !== saved.layer_id), saved]
        this.root.app.notify(MSG.savedOk, 'success')
      })
    return saved
  }

  // ---- helpers --------------------------------------------------------------------------------

  /** Logout or a group switch: nothing of the old map may show (logout also cleared the kept state). */
  reset(): void {
    this.layers = []
    this.loaded = false
    this.titleStyles = []
    this.restoreLocal()
  }

  private replace(saved: Layer): void {
    this.layers = this.layers.map((l) => (l.id === saved.id ? saved : l))
  }

  private persistOpen(): void {
    this.root.platform.storage.set(STORAGE_KEYS.openFolderIds, JSON.stringify(this.openIds))
  }

  private rejected(message: string | null): boolean {
    if (message) this.root.app.notify(message, 'warning')
    return !!message
  }
}
