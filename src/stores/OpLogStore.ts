/**
 * The operation log: every create, update and delete of layers, markers, notes and fields,
 * newest first, with filters; a user with the log permission restores a deleted item from it.
 */
import { makeAutoObservable, observable, runInAction } from 'mobx'
import type { FieldKind, OpAction, OpEntity, OpLog } from '../../types/mapdata'
import { MAP_MSG } from '../domain/messages'
import { DATA_LIST_MSG } from '../domain/dataListMessages'
import { PERM } from '../domain/permissions'
import { MARKER_TYPE_NAMES } from '../domain/points'
import { FIELD_KIND_NAMES } from './FieldStore'
import type { RootStore } from './RootStore'
import { MARKER_KIND } from '../domain/markerKinds'

export const OPLOG_PAGE_SIZE = 20

export const OP_ENTITY_NAMES: Record<OpEntity, string> = { layer: '图层', marker: '标注', note: '备注', field: '字段' }
export const OP_ACTION_NAMES: Record<OpAction, string> = { create: '新增', update: '修改', delete: '删除', restore: '恢复' }

/** Labels of the entity fields a before/after summary shows; others are left out. */
const FIELD_LABELS: Record<string, string> = {
  name: '名称',
  content: '内容',
  type: '类型',
  kind: '字段类型',
  points: '坐标',
  layer_id: '图层',
  parent_id: '上级文件夹',
  radius: '半径',
  width: '线宽/大小',
  options: '选项',
  required: '必填',
  photos: '照片',
}

export interface ChangeLine {
  label: string
  before: string
  after: string
}

/** Turns a layer id into the name a person knows it by (its folder path); unknown ids show as they are. */
export type LayerNamer = (id: number) => string

function show(key: string, v: unknown, entity: OpEntity, layerName?: LayerNamer): string {
  if (v === null || v === undefined || v === '') return '—'
  if ((key === 'layer_id' || key === 'parent_id') && typeof v === 'number') {
    if (key === 'parent_id' && v === 0) return '最外层'
    return layerName?.(v) || `#${v}`
  }
  if (key === 'type' && entity === 'marker' && typeof v === 'number') return MARKER_TYPE_NAMES[v as keyof typeof MARKER_TYPE_NAMES] ?? String(v)
  if (key === 'type' && entity === 'layer' && typeof v === 'number') return ['文件夹', '点图层', '线图层', '面图层'][v] ?? String(v)
  if (key === 'kind' && typeof v === 'string') return FIELD_KIND_NAMES[v as FieldKind] ?? v
  if (key === 'required') return v ? '是' : '否'
  if (key === 'photos' && Array.isArray(v)) return `${v.length}张`
  if (Array.isArray(v)) return v.length ? v.join('、') : '—'
  if (key === 'points' && typeof v === 'string') {
    const n = v.split(/[|;]/).length
    return n > 1 ? `${n}个点` : v
  }
  if (typeof v === 'object') return JSON.stringify(v)
  const s = String(v)
  return s.length > 60 ? `${s.slice(0, 60)}…` : s
}

/** What changed between before and after, in the words of the log screen. */
export function describeChanges(log: Pick<OpLog, 'entity' | 'before' | 'after'>, layerName?: LayerNamer): ChangeLine[] {
  const b = (log.before && typeof log.before === 'object' ? log.before : {}) as Record<string, unknown>
  const a = (log.after && typeof log.after === 'object' ? log.after : {}) as Record<string, unknown>
  const lines: ChangeLine[] = []
  for (const [key, label] of Object.entries(FIELD_LABELS)) {
    if (!(key in a) && !(key in b)) continue
    // A radius means something for circles only.
    if (key === 'radius' && log.entity === 'marker' && a.type !== MARKER_KIND.circle && b.type !== MARKER_KIND.circle) continue
    const before = show(key, b[key], log.entity, layerName)
    const after = show(key, a[key], log.entity, layerName)
    // Creates and deletes show what there was; updates only what changed; nothing on either side is no line.
    if (log.before && log.after && before === after) continue
    if (before === '—' && after === '—') continue
    lines.push({ label, before, after })
  }
  return lines
}

export class OpLogStore {
  list: OpLog[] = []
  total = 0
  page = 0
  loading = false
  entity: OpEntity | '' = ''
  action: OpAction | '' = ''
  restoringId: number | null = null
  private seq = 0

  constructor(private readonly root: RootStore) {
    makeAutoObservable<OpLogStore, 'root' | 'seq'>(this, { root: false, seq: false, list: observable.ref })
  }

  get canLoadMore(): boolean {
    return this.page > 0 && this.list.length < this.total
  }

  get finished(): boolean {
    return this.page > 0 && !this.canLoadMore
  }

  /** Newest first; a fresh first page. */
  async load(): Promise<boolean> {
    return this.fetch(1)
  }

  async loadMore(): Promise<boolean> {
    if (!this.canLoadMore || this.loading) return false
    return this.fetch(this.page + 1)
  }

  setEntity(entity: OpEntity | ''): Promise<boolean> {
    this.entity = entity
    return this.load()
  }

  setAction(action: OpAction | ''): Promise<boolean> {
    this.action = action
    return this.load()
  }

  /**
   * A restorable delete may be restored by managers and by users holding the log permission on its
   * layer (the server decides again).
   */
  canRestore(log: OpLog): boolean {
    // A data list bulk change is undone while its marker is still as the action left it (the server says so in restorable).
    const undoable = log.action === 'delete' || (log.action === 'update' && !!log.batch_id)
    if (!log.restorable || !undoable) return false
    const layers = this.root.layers
    if (layers.isManager) return true
    const data = (log.before ?? {}) as { layer_id?: number; parent_id?: number }
    const layerId = log.entity === 'layer' ? data.parent_id : data.layer_id
    const layer = layerId ? layers.byId.get(layerId) : undefined
    return !!layer && (layers.can(layer, PERM.LAYER_LOG) || layers.can(layer, PERM.OPLOG))
  }

  async restore(log: OpLog): Promise<boolean> {
    if (!log.restorable) {
      this.root.app.notify(MAP_MSG.restoreNotPossible, 'warning')
      return false
    }
    this.restoringId = log.id
    const ok = await this.root.api.request('/api/oplog/restore', { id: log.id }).then(
      () => true,
      () => false,
    )
    runInAction(() => {
      this.restoringId = null
      if (!ok) return
      this.list = this.list.map((l) => (l.id === log.id ? { ...l, restorable: false } : l))
      this.root.app.notify(MAP_MSG.restoreOk, 'success')
    })
    if (ok) {
      // The restored items come back on the map and in the panel, and the log gains a restore row.
      await this.root.layers.load()
      await this.root.markers.loadShown()
      await this.load()
    }
    return ok
  }

  /** 整批恢复: undoes a whole data list bulk action; says how many came back and how many had changed since. */
  async restoreBatch(batchId: string): Promise<boolean> {
    const res = await this.root.api.post('/api/oplog/restore/batch', { batch_id: batchId })
    if (!res) return false
    this.root.app.notify(res.refused.length ? DATA_LIST_MSG.someRefused(res.done, res.refused.length) : DATA_LIST_MSG.restoredBatch(res.done), res.refused.length ? 'warning' : 'success')
    await this.root.layers.load()
    await this.root.markers.loadShown()
    await this.load()
    return true
  }

  reset(): void {
    this.list = []
    this.total = 0
    this.page = 0
    this.entity = ''
    this.action = ''
  }

  private async fetch(page: number): Promise<boolean> {
    const seq = ++this.seq
    this.loading = true
    const res = await this.root.api.post('/api/oplog/getlist', {
      pageindex: page,
      pagesize: OPLOG_PAGE_SIZE,
      ...(this.entity ? { entity: this.entity } : {}),
      ...(this.action ? { action: this.action } : {}),
    })
    runInAction(() => {
      if (seq !== this.seq) return
      this.loading = false
      if (!res) return
      const rows = page === 1 ? res.list : [...this.list, ...res.list.filter((r) => !this.list.some((x) => x.id === r.id))]
      this.list = [...rows].sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : b.id - a.id))
      this.total = res.total
      this.page = page
    })
    return !!res
  }
}
