/**
 * Location tracking (SPEC 4/8/9): once location access is granted the position is polled
 * every 2 s and moves the self-location marker; every 10th poll, when signed in, it is
 * reverse-geocoded (inside China's range) and reported to the team. A refusal shows SPEC 8's
 * '权限错误' dialog (authorise opens the setting, cancel keeps the app usable without a position).
 * Tracking starts by itself only when access was granted before: nobody is asked on opening the map.
 */
import { makeAutoObservable, runInAction } from 'mobx'
import { LOCATION_POLL_MS } from '../domain/constants'
import { MAP_UI_MSG, MSG } from '../domain/messages'
import { LOCATION_SHARE_MSG } from '../domain/consentMessages'
import { pollStep } from '../domain/tracking'
import { LocationError, type Position } from '../platform/location/types'
import type { RootStore } from './RootStore'

export class LocationStore {
  /** Successful polls since tracking started. */
  polls = 0
  running = false
  /** SPEC 8 location-permission dialog. */
  showPermissionDialog = false
  /** Whether the user shares their position with their team (settings); null until read (shared by default). */
  sharing: boolean | null = null

  private timer: unknown = null
  private busy = false
  private inflight: Promise<Position | null> | null = null
  private geocoderFailed = false

  constructor(private readonly root: RootStore) {
    makeAutoObservable<LocationStore, 'root' | 'timer' | 'busy' | 'inflight' | 'geocoderFailed'>(this, { root: false, timer: false, busy: false, inflight: false, geocoderFailed: false })
  }

  /** Starts tracking if location access was granted before (the map page calls this on entry). */
  async resume(): Promise<void> {
    if (this.running) return
    const granted = await this.root.platform.geo.permissionGranted()
    this.setPermission(granted)
    if (granted) await this.poll(false)
  }

  /**
   * The user asked where they are (the locate control): one position now, and tracking from then
   * on. Null when there is none (a refusal shows the permission dialog, anything else a notice).
   */
  async locateNow(): Promise<Position | null> {
    return this.poll(true)
  }

  /** '去授权': opens the setting where location access is granted, or says where to find it. */
  async openSetting(): Promise<void> {
    this.showPermissionDialog = false
    const opened = await this.root.platform.geo.openAuthSetting()
    if (!opened) this.root.app.notify(MAP_UI_MSG.locationSettingHint, 'warning')
  }

  /** The position goes to the team now: tracking runs, the user is signed in to a team and shares it. */
  get sharedWithTeam(): boolean {
    return this.running && this.sharing !== false && this.root.session.loggedIn && !!this.root.session.user?.select_groupid
  }

  /** Reads the sharing choice (the map and settings call it on entry). */
  async loadSharing(): Promise<void> {
    if (!this.root.session.loggedIn) return
    const res = await this.root.api.post('/api/user/location/setting/get', {}, { background: true })
    runInAction(() => {
      if (res) this.sharing = res.share
    })
  }

  /** Settings' switch: off, the server drops the last position at once and keeps no new one; reports stop here too. */
  async setSharing(share: boolean): Promise<boolean> {
    const before = this.sharing
    this.sharing = share
    const res = await this.root.api.post('/api/user/location/setting', { share })
    runInAction(() => {
      this.sharing = res ? res.share : before
    })
    if (res) this.root.app.notify(share ? LOCATION_SHARE_MSG.turnedOn : LOCATION_SHARE_MSG.turnedOff, 'success')
    return !!res
  }

  forgetSharing(): void {
    this.sharing = null
  }

  closePermissionDialog(): void {
    this.showPermissionDialog = false
  }

  stop(): void {
    if (this.timer !== null) this.root.scheduler.clearInterval(this.timer)
    this.timer = null
    this.running = false
    this.polls = 0
  }

  private setPermission(allowed: boolean | null): void {
    this.root.app.uni_location_permission = { is_request: allowed !== null, allowed: allowed === true }
  }

  private async poll(userAsked: boolean): Promise<Position | null> {
    if (this.busy) {
      // A tap while a background poll is under way gets that poll's answer instead of nothing.
      if (userAsked && this.inflight) {
        const p = await this.inflight
        return p ?? this.poll(true)
      }
      return null
    }
    this.busy = true
    const run = this.locateOnce(userAsked)
    this.inflight = run
    try {
      return await run
    } finally {
      this.inflight = null
      this.busy = false
    }
  }

  private async locateOnce(userAsked: boolean): Promise<Position | null> {
    try {
      const p = await this.root.platform.geo.locate()
      runInAction(() => {
        this.setPermission(true)
        this.polls += 1
      })
      this.root.app.setSelfLocation(p)
      if (!this.running) this.startTimer()
      const step = pollStep(this.polls, this.root.session.loggedIn, p)
      // Not shared: the position stays on this phone (the map still shows it to the user).
      if (step.report && this.sharing !== false) await this.report(p, step.geocode)
      return p
    } catch (err) {
      const denied = err instanceof LocationError && err.kind === 'denied'
      if (denied) {
        this.stop()
        runInAction(() => {
          this.setPermission(false)
          if (userAsked) this.showPermissionDialog = true
        })
      } else if (err instanceof LocationError && err.kind === 'privacy') {
        // Refused (or undeclared) privacy agreement: polling on would put WeChat's prompt up every
        // few seconds; the next 定位 asks again.
        this.stop()
        if (userAsked) this.root.app.notify(err.message, 'warning')
      } else if (userAsked) {
        this.root.app.notify(MAP_UI_MSG.locateFailed, 'warning')
      }
      // A poll that found no position (a tunnel, a weak signal) waits for the next one.
      return null
    }
  }

  private startTimer(): void {
    this.running = true
    this.timer = this.root.scheduler.setInterval(() => void this.poll(false), LOCATION_POLL_MS)
  }

  private async report(p: Position, geocode: boolean): Promise<void> {
    let addr = ''
    if (geocode) {
      try {
        addr = (await this.root.platform.geo.reverseGeocode(p)) ?? ''
      } catch {
        // SPEC 8: a geocoder that cannot load is the map's initialisation error (said once).
        if (!this.geocoderFailed) this.root.app.notify(MSG.mapInitError, 'danger')
        this.geocoderFailed = true
      }
    }
    await this.root.api.post('/api/user/location/save', { lng: p.lng, lat: p.lat, addr }, { background: true })
  }

  dispose(): void {
    this.stop()
  }
}
