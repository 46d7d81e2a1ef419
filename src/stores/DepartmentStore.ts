/**
 * Departments of the selected group (SPEC 3/6): a tree nested to any depth, each with its
 * managers and the layers authorised to it (with the permission ids granted on each).
 */
import { makeAutoObservable, runInAction } from 'mobx'
import type { Department } from '../../types/teams'
import { checkDepartmentName } from '../domain/teamRules'
import { TEAM_UI_MSG } from '../domain/messages'
import { depthOf, subtreeIds, treeOrder, type TreeSelectNode } from '../domain/treeSelect'
import type { RootStore } from './RootStore'

export interface DepartmentRow {
  department: Department
  depth: number
}

export class DepartmentStore {
  list: Department[] = []
  loaded = false

  constructor(private readonly root: RootStore) {
    makeAutoObservable<DepartmentStore, 'root'>(this, { root: false })
  }

  get nodes(): TreeSelectNode[] {
    return this.list.map((d) => ({ id: d.id, parentId: d.parent_id || null, name: d.name }))
  }

  /** The departments in tree order with their depth, for a flat indented list. */
  get rows(): DepartmentRow[] {
    const depth = depthOf(this.nodes)
    const byId = new Map(this.list.map((d) => [d.id, d]))
    return treeOrder(this.nodes).map((n) => ({ department: byId.get(n.id as number)!, depth: depth.get(n.id) ?? 0 }))
  }

  byId(id: number): Department | undefined {
    return this.list.find((d) => d.id === id)
  }

  nameOf(id: number): string {
    return id ? (this.byId(id)?.name ?? '') : ''
  }

  /** "总部 / 销售部 / 华北组" */
  pathLabel(id: number): string {
    const names: string[] = []
    const seen = new Set<number>()
    let cur = this.byId(id)
    while (cur && !seen.has(cur.id)) {
      seen.add(cur.id)
      names.unshift(cur.name)
      cur = cur.parent_id ? this.byId(cur.parent_id) : undefined
    }
    return names.join(' / ')
  }

  /** Where a department may move: anywhere but under itself or one of its descendants. */
  parentChoices(id: number | undefined): Department[] {
    const banned = new Set(id ? subtreeIds(this.nodes, id) : [])
    return this.rows.map((r) => r.department).filter((d) => !banned.has(d.id))
  }

  async load(): Promise<boolean> {
    const res = await this.root.api.post('/api/department/getlist', {})
    runInAction(() => {
      if (res) {
        this.list = res
        this.loaded = true
      }
    })
    return !!res
  }

  async save(input: { id?: number; name: string; parent_id: number }): Promise<Department | undefined> {
    const problem = checkDepartmentName(input.name)
    if (problem) {
      this.root.app.notify(problem, 'warning')
      return undefined
    }
    const saved = await this.root.api.post('/api/department/save', { ...input, name: input.name.trim() })
    if (saved) runInAction(() => this.put(saved))
    return saved
  }

  async remove(id: number): Promise<boolean> {
    const ok = await this.root.api.request('/api/department/delete', { id }).then(
      () => true,
      () => false,
    )
    if (!ok) return false
    this.root.app.notify(TEAM_UI_MSG.removed, 'success')
    await Promise.all([this.load(), this.root.team.load()])
    return true
  }

  async setManagers(departmentId: number, userIds: number[]): Promise<boolean> {
    const saved = await this.root.api.post('/api/department/setting/manager', { department_id: departmentId, userids: userIds })
    if (saved) runInAction(() => this.put(saved))
    return !!saved
  }

  async removeManager(departmentId: number, userId: number): Promise<boolean> {
    const saved = await this.root.api.post('/api/department/delete/manager', { department_id: departmentId, user_id: userId })
    if (saved) runInAction(() => this.put(saved))
    return !!saved
  }

  /**
   * Makes the department's layer authorisation what the editor shows: `opts` on each of `layerIds`,
   * nothing on the layers it held before and no longer does.
   */
  async saveLayerAuth(departmentId: number, layerIds: number[], opts: string[]): Promise<boolean> {
    const before = this.byId(departmentId)?.layer_ids ?? []
    const dropped = before.filter((id) => !layerIds.includes(id))
    try {
      for (const layerId of layerIds) await this.root.api.request('/api/layer/save/auth', { layer_id: layerId, department_id: departmentId, opts })
      if (dropped.length) await this.root.api.request('/api/department/delete/layer/auth', { department_id: departmentId, layer_ids: dropped })
    } catch {
      await this.load()
      return false
    }
    this.root.app.notify(TEAM_UI_MSG.saved, 'success')
    await this.load()
    return true
  }

  private put(d: Department): void {
    const i = this.list.findIndex((x) => x.id === d.id)
    this.list = i < 0 ? [...this.list, d] : this.list.map((x) => (x.id === d.id ? d : x))
  }

  reset(): void {
    this.list = []
    this.loaded = false
  }
}
