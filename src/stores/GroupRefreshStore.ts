/**
 * Group data refresh (SPEC 4 and 9): every 10 s while logged in with a group, fetch user info; when
 * the selected group, module count, level or VIP expiry changed, or a module is new, show the
 * data-refresh notice and take the new user info, and after 3 s send a user on the guide page to
 * the map. The layer list is fetched too and re-adopted when it differs. Runs once per RootStore;
 * stops on logout. The timers come from an injectable scheduler (fake timers in tests).
 */
import { makeAutoObservable, reaction, runInAction, type IReactionDisposer } from 'mobx'
import { GROUP_REFRESH_MS, REFRESH_NOTICE_DELAY_MS } from '../domain/constants'
import { standingChanged } from '../domain/groupRefresh'
import { PATHS } from '../domain/guard'
import { TEAM_UI_MSG } from '../domain/messages'
import type { RootStore } from './RootStore'

export interface Scheduler {
  setInterval(fn: () => void, ms: number): unknown
  clearInterval(handle: unknown): void
  setTimeout(fn: () => void, ms: number): unknown
  clearTimeout(handle: unknown): void
}

export const realScheduler: Scheduler = {
  setInterval: (fn, ms) => setInterval(fn, ms),
  clearInterval: (h) => clearInterval(h as ReturnType<typeof setInterval>),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
}

export class GroupRefreshStore {
  /** Ticks done (for tests and diagnostics). */
  ticks = 0
  private interval: unknown = null
  private pendingRedirect: unknown = null
  private busy = false
  private readonly disposer: IReactionDisposer

  constructor(
    private readonly root: RootStore,
    private readonly scheduler: Scheduler = realScheduler,
  ) {
    makeAutoObservable<GroupRefreshStore, 'root' | 'scheduler' | 'interval' | 'pendingRedirect' | 'busy' | 'disposer'>(this, {
      root: false,
      scheduler: false,
      interval: false,
      pendingRedirect: false,
      busy: false,
      disposer: false,
    })
    // Runs exactly while someone is logged in with a group; logout (or leaving every group) stops it.
    this.disposer = reaction(
      () => this.root.session.loggedIn && this.root.session.hasGroup,
      (on) => (on ? this.start() : this.stop()),
      { fireImmediately: true },
    )
  }

  get running(): boolean {
    return this.interval !== null
  }

  start(): void {
    if (this.interval !== null) return
    this.interval = this.scheduler.setInterval(() => void this.tick(), GROUP_REFRESH_MS)
  }

  stop(): void {
    if (this.interval !== null) this.scheduler.clearInterval(this.interval)
    if (this.pendingRedirect !== null) this.scheduler.clearTimeout(this.pendingRedirect)
    this.interval = null
    this.pendingRedirect = null
  }

  /** One poll; quiet (no loading mask, no error notice): a failed poll simply waits for the next. */
  async tick(): Promise<void> {
    if (this.busy || !this.root.session.loggedIn) return
    this.busy = true
    try {
      const before = this.root.session.user
      const res = await this.root.api.request('/api/user/getinfo', {}, { quiet: true, background: true }).catch(() => undefined)
      const now = this.root.session.user
      // Logged out or switched meanwhile: this answer belongs to another session.
      if (!res || !before || !now || now.id !== before.id || now.select_groupid !== before.select_groupid) return
      if (standingChanged(before, res.user)) {
        this.root.session.adopt(res)
        this.root.app.notify(TEAM_UI_MSG.dataRefreshed, 'primary')
        if (this.pendingRedirect === null) {
          this.pendingRedirect = this.scheduler.setTimeout(() => {
            this.pendingRedirect = null
            if (this.root.platform.location().pathname === PATHS.guide && this.root.session.hasGroup) this.root.navigate(PATHS.map, 'relaunch')
          }, REFRESH_NOTICE_DELAY_MS)
        }
      }
      if (this.root.session.hasGroup && this.root.layers.loaded) {
        const list = await this.root.api.request('/api/layer/getlist', {}, { quiet: true, background: true }).catch(() => undefined)
        if (list && this.root.session.user?.select_groupid === now.select_groupid && this.root.layers.adoptList(list)) await this.root.markers.syncShown()
      }
    } finally {
      runInAction(() => {
        this.ticks++
      })
      this.busy = false
    }
  }

  dispose(): void {
    this.stop()
    this.disposer()
  }
}
