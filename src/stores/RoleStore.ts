/** Roles of the selected group (SPEC 3/6): each grants modules and group actions to its users. */
import { makeAutoObservable, runInAction } from 'mobx'
import type { ModuleItem, Role } from '../../types/teams'
import { TEAM_UI_MSG } from '../domain/messages'
import { checkRoleName } from '../domain/teamRules'
import type { TreeSelectNode } from '../domain/treeSelect'
import type { RootStore } from './RootStore'

/** The two branches of the module picker. */
const MODULE_BRANCHES = [
  { id: 'branch:1', name: '功能模块', type: 1 },
  { id: 'branch:2', name: '团队操作', type: 2 },
] as const

export class RoleStore {
  list: Role[] = []
  catalogue: ModuleItem[] = []
  loaded = false

  constructor(private readonly root: RootStore) {
    makeAutoObservable<RoleStore, 'root'>(this, { root: false })
  }

  byId(id: number): Role | undefined {
    return this.list.find((r) => r.id === id)
  }

  rolesOf(userId: number): Role[] {
    return this.list.filter((r) => r.user_ids.includes(userId))
  }

  moduleName(id: string): string {
    return this.catalogue.find((m) => m.id === id)?.name ?? id
  }

  /** The module picker's tree: two branches, the tier's locked modules left out (they cannot be granted). */
  get moduleNodes(): TreeSelectNode[] {
    const usable = this.catalogue.filter((m) => m.enabled)
    const branches = MODULE_BRANCHES.filter((b) => usable.some((m) => m.type === b.type)).map((b) => ({ id: b.id, name: b.name, parentId: null }))
    return [...branches, ...usable.map((m) => ({ id: m.id, name: m.name, parentId: `branch:${m.type}`, mandatory: m.mandatory }))]
  }

  /** Modules the free tier lists but cannot use (shown locked, SPEC 6). */
  get lockedModules(): ModuleItem[] {
    return this.catalogue.filter((m) => !m.enabled)
  }

  async load(): Promise<boolean> {
    const [roles, catalogue] = await Promise.all([this.root.api.post('/api/role/getlist', {}), this.root.api.post('/api/module/getlist/group', {})])
    runInAction(() => {
      if (roles) this.list = roles
      if (catalogue) this.catalogue = catalogue
      this.loaded = !!roles && !!catalogue
    })
    return !!roles && !!catalogue
  }

  async save(input: { id?: number; name: string }): Promise<Role | undefined> {
    const problem = checkRoleName(input.name)
    if (problem) {
      this.root.app.notify(problem, 'warning')
      return undefined
    }
    const saved = await this.root.api.post('/api/role/save', { ...input, name: input.name.trim() })
    if (saved) runInAction(() => this.put(saved))
    return saved
  }

  async remove(id: number): Promise<boolean> {
    const ok = await this.root.api.request('/api/role/delete', { id }).then(
      () => true,
      () => false,
    )
    if (ok) runInAction(() => (this.list = this.list.filter((r) => r.id !== id)))
    return ok
  }

  async saveUsers(roleId: number, userIds: number[]): Promise<boolean> {
    const saved = await this.root.api.post('/api/role/save/join', { role_id: roleId, user_ids: userIds })
    if (saved) runInAction(() => this.put(saved))
    if (saved) this.root.app.notify(TEAM_UI_MSG.saved, 'success')
    return !!saved
  }

  /** Saves the ticked modules (the picker's branch nodes are not modules and are dropped). */
  async saveModules(roleId: number, ticked: readonly (string | number)[]): Promise<boolean> {
    const ids = ticked.map(String).filter((id) => this.catalogue.some((m) => m.id === id))
    const saved = await this.root.api.post('/api/role/save/module', { role_id: roleId, module_ids: ids })
    if (saved) runInAction(() => this.put(saved))
    if (saved) this.root.app.notify(TEAM_UI_MSG.saved, 'success')
    return !!saved
  }

  private put(r: Role): void {
    const i = this.list.findIndex((x) => x.id === r.id)
    this.list = i < 0 ? [...this.list, r] : this.list.map((x) => (x.id === r.id ? r : x))
  }

  reset(): void {
    this.list = []
    this.catalogue = []
    this.loaded = false
  }
}
