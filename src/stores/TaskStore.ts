/**
 * Tasks (/task and /task/add): the task centre's lists per scope (mine, department, all
 * for managers, created by me) with a status filter and the counts per status, the task opened in
 * the detail, starting and completing it (completion takes the id of a check-in made with the
 * check-in sheet for the task), deleting it, and the task being created or edited (TaskDraft).
 * The server decides every rule again (services/tasks.ts); src/domain/tasks.ts holds the pure ones.
 */
import { makeAutoObservable, observable, runInAction } from 'mobx'
import type { Marker, MarkerType } from '../../types/mapdata'
import type { Task, TaskPlace, TaskScope, TaskStatus } from '../../types/tasks'
import type { LngLat } from '../domain/geo'
import { holdsModule } from '../domain/moduleGate'
import { PERM } from '../domain/permissions'
import { markerStopPoint, roundCoord } from '../domain/routes'
import { TASK_MSG } from '../domain/taskMessages'
import { TASK_PLACE_NAME_MAX, canListAllTasks, checkTaskInput, emptyStatusCounts, shanghaiToday } from '../domain/tasks'
import { MarkerSearch } from './MarkerSearch'
import type { RootStore } from './RootStore'

export const TASK_PAGE_SIZE = 20
/** Markers offered per search. */
export const TASK_SEARCH_SIZE = 50

/** Where a task being edited is: a marker of the group, or a place (the user's position). */
export type DraftPlace = { kind: 'marker'; id: number; name: string; lng: number; lat: number } | { kind: 'place'; place: TaskPlace } | null

/** The task being created or edited on /task/add. */
export class TaskDraft {
  id: number | undefined = undefined
  title = ''
  content = ''
  at: DraftPlace = null
  userIds: number[] = []
  departmentIds: number[] = []
  /** 'YYYY-MM-DD' or null. */
  dueDate: string | null = null
  /** The due day the task had when it was loaded (a passed one may stay). */
  savedDue: string | null = null
  saving = false
  loading = false

  /** Markers found by name to pick from. */
  readonly markerSearch: MarkerSearch

  constructor(private readonly root: RootStore) {
    this.markerSearch = new MarkerSearch(root, TASK_MSG.searchKwRequired, TASK_SEARCH_SIZE)
    makeAutoObservable<TaskDraft, 'root'>(this, { root: false, markerSearch: false })
  }

  startNew(): void {
    this.id = undefined
    this.title = ''
    this.content = ''
    this.at = null
    this.userIds = []
    this.departmentIds = []
    this.dueDate = null
    this.savedDue = null
    this.markerSearch.clear()
  }

  /** Loads a task into the editor; false when it cannot be read. */
  async startEdit(id: number): Promise<boolean> {
    this.startNew()
    this.loading = true
    const task = await this.root.api.post('/api/task/getbyid', { id })
    runInAction(() => {
      this.loading = false
      if (task) this.fill(task)
    })
    return !!task
  }

  private fill(task: Task): void {
    this.id = task.id
    this.title = task.title
    this.content = task.content
    this.at = task.marker ? { kind: 'marker', ...task.marker } : task.place ? { kind: 'place', place: task.place } : null
    this.userIds = task.users.map((u) => u.id)
    this.departmentIds = task.departments.map((d) => d.id)
    this.dueDate = task.due_date
    this.savedDue = task.due_date
  }

  setTitle(title: string): void {
    this.title = title
  }

  setContent(content: string): void {
    this.content = content
  }

  setDueDate(day: string | null): void {
    this.dueDate = day
  }

  /** A marker of the group as the task's place; the message when it has no position. */
  pickMarker(marker: Pick<Marker, 'id' | 'name' | 'type' | 'points'>): string | null {
    const at = markerStopPoint(marker.type as MarkerType, marker.points)
    if (!at) return TASK_MSG.markerNoPosition
    this.at = { kind: 'marker', id: marker.id, name: marker.name, lng: at.lng, lat: at.lat }
    this.markerSearch.clear()
    return null
  }

  /** The user's position as the task's place. */
  pickPosition(p: LngLat, name: string = TASK_MSG.myPosition): void {
    this.at = { kind: 'place', place: { name: name.slice(0, TASK_PLACE_NAME_MAX), lng: roundCoord(p.lng), lat: roundCoord(p.lat) } }
  }

  clearPlace(): void {
    this.at = null
  }

  get placeName(): string {
    if (!this.at) return ''
    return this.at.kind === 'marker' ? this.at.name : this.at.place.name
  }

  toggleUser(id: number): void {
    this.userIds = this.userIds.includes(id) ? this.userIds.filter((u) => u !== id) : [...this.userIds, id]
  }

  toggleDepartment(id: number): void {
    this.departmentIds = this.departmentIds.includes(id) ? this.departmentIds.filter((d) => d !== id) : [...this.departmentIds, id]
  }

  // ---- markers to pick from -------------------------------------------------------------------

  // ---- saving ---------------------------------------------------------------------------------

  get input() {
    return {
      ...(this.id !== undefined ? { id: this.id } : {}),
      title: this.title.trim(),
      content: this.content.trim(),
      marker_id: this.at?.kind === 'marker' ? this.at.id : null,
      place: this.at?.kind === 'place' ? this.at.place : null,
      user_ids: this.userIds,
      department_ids: this.departmentIds,
      due_date: this.dueDate,
    }
  }

  /** Checks, saves and returns the saved task; undefined after a message. */
  async save(now: Date = new Date()): Promise<Task | undefined> {
    if (this.saving) return undefined
    const problem = checkTaskInput(this.input, shanghaiToday(now), this.savedDue)
    if (problem) {
      this.root.app.notify(problem, 'warning')
      return undefined
    }
    this.saving = true
    const saved = await this.root.api.post('/api/task/save', this.input)
    runInAction(() => {
      this.saving = false
      if (saved) this.fill(saved)
    })
    if (saved) {
      this.root.task.upsert(saved)
      this.root.task.refresh()
      this.root.app.notify(TASK_MSG.saved, 'success')
    }
    return saved
  }
}

export class TaskStore {
  scope: TaskScope = 'mine'
  /** null: every status. */
  status: TaskStatus | null = null
  kw = ''
  list: Task[] = []
  total = 0
  page = 0
  counts: Record<TaskStatus, number> = emptyStatusCounts()
  loadingList = false
  /** The task shown in the detail, or null. */
  current: Task | null = null
  /** A start or completion on its way. */
  acting = false
  draft: TaskDraft

  constructor(private readonly root: RootStore) {
    this.draft = new TaskDraft(root)
    makeAutoObservable<TaskStore, 'root'>(this, { root: false, list: observable.ref, current: observable.ref, draft: false })
  }

  private holds(id: string): boolean {
    return holdsModule(this.root.session.user?.modules, id)
  }

  /** module_dispatch (the task tabs; the check-in records tab needs none). */
  get canUse(): boolean {
    return this.holds(PERM.MODULE_DISPATCH)
  }

  /** The module is locked by the free tier (not just missing from the member's roles). */
  get lockedByTier(): boolean {
    return !this.canUse && (this.root.session.user?.group_vip?.level ?? 0) === 0
  }

  get isManager(): boolean {
    return this.root.session.is_admin || !!this.root.session.user?.is_manager
  }

  get canAdd(): boolean {
    return this.canUse && (this.isManager || this.holds(PERM.TASK_ADD))
  }

  /** The tabs: 全部 only for managers. */
  get scopes(): TaskScope[] {
    const actor = { is_admin: this.root.session.is_admin, is_manager: !!this.root.session.user?.is_manager }
    return canListAllTasks(actor) ? ['mine', 'department', 'all', 'created'] : ['mine', 'department', 'created']
  }

  get hasMore(): boolean {
    return this.list.length < this.total
  }

  async load(page = 1): Promise<boolean> {
    if (!this.canUse) return false
    this.loadingList = true
    const kw = this.kw.trim()
    const scope = this.scope
    const status = this.status
    const res = await this.root.api.post('/api/task/getlist', {
      scope,
      pageindex: page,
      pagesize: TASK_PAGE_SIZE,
      ...(status ? { status } : {}),
      ...(kw ? { kw } : {}),
    })
    runInAction(() => {
      this.loadingList = false
      // An answer for a tab or filter left meanwhile is dropped.
      if (!res || scope !== this.scope || status !== this.status) return
      this.list = page === 1 ? res.list : [...this.list, ...res.list.filter((t) => !this.list.some((x) => x.id === t.id))]
      this.total = res.total
      this.counts = res.counts
      this.page = page
    })
    return !!res
  }

  loadMore(): Promise<boolean> {
    return this.load(this.page + 1)
  }

  setScope(scope: TaskScope): Promise<boolean> {
    if (scope === this.scope) return Promise.resolve(true)
    this.scope = scope
    this.status = null
    this.list = []
    this.total = 0
    this.page = 0
    this.counts = emptyStatusCounts()
    return this.load(1)
  }

  /** Filters by a status (tapping the chosen one again shows every status). */
  setStatus(status: TaskStatus | null): Promise<boolean> {
    this.status = status === this.status ? null : status
    return this.load(1)
  }

  setKw(kw: string): void {
    this.kw = kw
  }

  search(kw: string): Promise<boolean> {
    this.kw = kw
    return this.load(1)
  }

  /**
   * A saved or changed task replaces its entry where the list shows it. Whether a new task belongs
   * to the tab shown (我的, 部门, ...) and the counts per status are the server's to say: callers
   * fetch the first page again (refresh).
   */
  upsert(task: Task): void {
    if (this.list.some((t) => t.id === task.id)) this.list = this.list.map((t) => (t.id === task.id ? task : t))
    if (this.current?.id === task.id) this.current = task
  }

  /** Fetches the shown tab's first page again, once it has been loaded. */
  refresh(): void {
    if (this.page > 0) void this.load(1)
  }

  open(task: Task): void {
    this.current = task
  }

  /** Opens a task by id (a link, or fresh figures for the one shown); false when it cannot be read. */
  async openById(id: number): Promise<boolean> {
    const task = await this.root.api.post('/api/task/getbyid', { id })
    runInAction(() => {
      if (task) this.current = task
    })
    return !!task
  }

  close(): void {
    this.current = null
  }

  private async act(work: () => Promise<Task | undefined>, message: string): Promise<Task | undefined> {
    if (this.acting) return undefined
    this.acting = true
    const task = await work()
    runInAction(() => {
      this.acting = false
      if (task) this.upsert(task)
    })
    if (task) {
      this.root.app.notify(message, 'success')
      void this.load(1)
    }
    return task
  }

  start(id: number): Promise<Task | undefined> {
    return this.act(() => this.root.api.post('/api/task/start', { id }), TASK_MSG.started)
  }

  /** Completes with the check-in the sheet saved for this task. */
  complete(id: number, signId: number): Promise<Task | undefined> {
    return this.act(() => this.root.api.post('/api/task/complete', { id, sign_id: signId }), TASK_MSG.completed)
  }

  /** Deletes after the page's confirmation; the list and the detail drop it. */
  async remove(id: number): Promise<boolean> {
    const ok = await this.root.api.request('/api/task/delete', { id }).then(
      () => true,
      () => false,
    )
    if (!ok) return false
    runInAction(() => {
      const had = this.list.some((t) => t.id === id)
      this.list = this.list.filter((t) => t.id !== id)
      if (had) this.total = Math.max(0, this.total - 1)
      if (this.current?.id === id) this.current = null
    })
    this.root.app.notify(TASK_MSG.deleted, 'success')
    void this.load(1)
    return true
  }

  reset(): void {
    this.scope = 'mine'
    this.status = null
    this.kw = ''
    this.list = []
    this.total = 0
    this.page = 0
    this.counts = emptyStatusCounts()
    this.current = null
    this.draft.startNew()
  }
}
