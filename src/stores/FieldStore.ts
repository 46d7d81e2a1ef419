/** Custom fields of a layer (text, number, date, choice, phone, photo): list, add, edit, reorder, delete. */
import { makeAutoObservable, observable, runInAction } from 'mobx'
import type { FieldInput, FieldKind, LayerField } from '../../types/mapdata'
import { FIELD_NAME_MAX, FIELD_OPTIONS_MAX } from '../domain/fields'
import { MAP_MSG, MAP_UI_MSG, MSG } from '../domain/messages'
import type { RootStore } from './RootStore'

export const FIELD_KIND_NAMES: Record<FieldKind, string> = {
  text: '文本',
  number: '数字',
  date: '日期',
  choice: '选项',
  phone: '电话',
  photo: '照片',
}

export type { FieldInput } from '../../types/mapdata'

/** Options typed one per line (or separated by commas), trimmed, empty and repeated ones dropped. */
export function parseOptions(text: string): string[] {
  return Array.from(
    new Set(
      text
        .split(/[\n,，、]/)
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  )
}

export class FieldStore {
  byLayer: ReadonlyMap<number, LayerField[]> = new Map()
  loadingLayerId: number | null = null

  constructor(private readonly root: RootStore) {
    makeAutoObservable<FieldStore, 'root'>(this, { root: false, byLayer: observable.ref })
  }

  fieldsOf(layerId: number): LayerField[] {
    return this.byLayer.get(layerId) ?? []
  }

  isLoaded(layerId: number): boolean {
    return this.byLayer.has(layerId)
  }

  /** `background`: a teammate's change pulled by the sync store (no loading mask, no error notice). */
  async load(layerId: number, background = false): Promise<LayerField[] | undefined> {
    this.loadingLayerId = layerId
    const list = await this.root.read('/api/layer/field/getlist', { layer_id: layerId }, { background })
    runInAction(() => {
      if (this.loadingLayerId === layerId) this.loadingLayerId = null
      if (list) this.set(layerId, list)
    })
    return list ? this.fieldsOf(layerId) : undefined
  }

  /** The fields of a layer, fetched once. */
  async ensure(layerId: number): Promise<LayerField[] | undefined> {
    if (this.byLayer.has(layerId)) return this.fieldsOf(layerId)
    return this.load(layerId)
  }

  check(input: FieldInput): string | null {
    const name = input.name.trim()
    if (!name) return MAP_MSG.fieldNameRequired
    if (name.length > FIELD_NAME_MAX) return MAP_UI_MSG.fieldNameTooLong(FIELD_NAME_MAX)
    if (this.fieldsOf(input.layer_id).some((f) => f.name === name && f.id !== input.id)) return MAP_MSG.fieldNameDuplicate
    if (input.kind === 'choice') {
      const options = (input.options ?? []).map((o) => o.trim()).filter(Boolean)
      if (!options.length) return MAP_MSG.fieldChoicesRequired
      if (options.length > FIELD_OPTIONS_MAX) return MAP_UI_MSG.fieldOptionsTooMany(FIELD_OPTIONS_MAX)
    }
    return null
  }

  /** `input.rev`: the field's rev when its form opened (types/sync.ts). */
  async save(input: FieldInput): Promise<LayerField | undefined> {
    const problem = this.check(input)
    if (problem) {
      this.root.app.notify(problem, 'warning')
      return undefined
    }
    const body = {
      ...(input.id ? { id: input.id } : {}),
      layer_id: input.layer_id,
      name: input.name.trim(),
      kind: input.kind,
      options: input.kind === 'choice' ? Array.from(new Set((input.options ?? []).map((o) => o.trim()).filter(Boolean))) : [],
      required: !!input.required,
      rev: input.rev,
    }
    // A stale rev opens the conflict sheet; the field as its form found it tells mine from theirs.
    const held = input.id ? this.fieldsOf(input.layer_id).find((f) => f.id === input.id) : undefined
    const base = held && (input.rev === undefined || input.rev === held.rev) ? held : undefined
    const [saved, handled] = await this.root.saveRev('/api/layer/field/save', body, { kind: 'field', base, resave: (next: FieldInput) => this.save(next) })
    if (!saved || handled) return saved
    runInAction(() => {
      this.root.app.clearNotices()
      const list = this.fieldsOf(input.layer_id)
      this.set(input.layer_id, list.some((f) => f.id === saved.id) ? list.map((f) => (f.id === saved.id ? saved : f)) : [...list, saved])
      this.root.app.notify(MSG.savedOk, 'success')
    })
    return saved
  }

  /** Moves a field one place up (-1) or down (+1); the server keeps the order. */
  async move(layerId: number, id: number, dir: -1 | 1): Promise<boolean> {
    const list = [...this.fieldsOf(layerId)]
    const i = list.findIndex((f) => f.id === id)
    const j = i + dir
    if (i < 0 || j < 0 || j >= list.length) return false
    ;[list[i], list[j]] = [list[j], list[i]]
    const before = this.fieldsOf(layerId)
    this.set(
      layerId,
      list.map((f, k) => ({ ...f, sort: k + 1 })),
    )
    const saved = await this.root.api.post('/api/layer/field/sort', { layer_id: layerId, ids: list.map((f) => f.id) })
    runInAction(() => this.set(layerId, saved ?? before))
    return !!saved
  }

  async remove(layerId: number, id: number, rev?: number): Promise<boolean> {
    const res = await this.root.api.request('/api/layer/field/delete', { id, rev }).then(
      () => true,
      () => false,
    )
    if (!res) return false
    runInAction(() => {
      this.set(
        layerId,
        this.fieldsOf(layerId).filter((f) => f.id !== id),
      )
      this.root.app.notify(MAP_UI_MSG.deletedOk, 'success')
    })
    return true
  }

  reset(): void {
    this.byLayer = new Map()
  }

  private set(layerId: number, list: LayerField[]): void {
    const next = new Map(this.byLayer)
    next.set(
      layerId,
      [...list].sort((a, b) => a.sort - b.sort || a.id - b.id),
    )
    this.byLayer = next
  }
}
