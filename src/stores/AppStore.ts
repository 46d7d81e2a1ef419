/** Global app settings of SPEC section 3 with SPEC 9's defaults, the notices and the loading mask. */
import { makeAutoObservable, reaction, type IReactionDisposer } from 'mobx'
import type { SystemConfig } from '../../types/entities'
import { MSG } from '../domain/messages'
import { DEFAULT_MAP_STYLE, DEFAULT_SYSTEM_CONFIG, NOTICE_BAR_MS } from '../domain/constants'
import { clusterCountShown } from '../domain/mapSettings'
import { makeNotice, type Notice, type NoticeAction, type NoticeType } from '../domain/notice'
import { isAreaUnit, type AreaUnit } from '../domain/points'
import { DEFAULT_TILE_SOURCE, isTileSourceId, type TileSourceId } from '../domain/tileSources'
import type { AppUpgrade } from '../domain/upgrade'
import { PRIVACY_MSG } from '../domain/privacy'
import { canBuyMembership } from '../domain/vip'
import type { PrivacyChoice } from '../platform/privacy/types'
import { shanghaiDay, trialWelcomeDue, vipPrompt } from '../domain/vipPrompt'
import type { RootStore } from './RootStore'
import { STORAGE_KEYS } from './storageKeys'
import { UpgradeStore } from './UpgradeStore'

/** Notice types that report a problem (a later success replaces them). */
const PROBLEM_TYPES: ReadonlySet<NoticeType> = new Set(['warning', 'danger', 'error'])

export interface MapStyle {
  type: number
  bg: boolean
  road: boolean
  building: boolean
  poi: boolean
  traffic: boolean
}

export interface LngLatValue {
  lng: number
  lat: number
}

export class AppStore {
  /** How many calls are under way; the loading mask shows while any is. */
  loadingCount = 0
  notices: Notice[] = []
  show_login_modal = false
  system_config: SystemConfig = { ...DEFAULT_SYSTEM_CONFIG }
  map_view: { center: LngLatValue; zoom: number } | null = null
  self_location: LngLatValue | null = null
  map_style: MapStyle = { ...DEFAULT_MAP_STYLE }
  satellite_layer = false
  road_layer = false
  traffic_layer = false
  /** The user's choice to show counts on cluster badges; null follows system_config.show_marker_cluster_count. */
  show_cluster_count: boolean | null = null
  /** The unit areas are shown in (settings). */
  area_unit: AreaUnit = 'm2'
  /** Which tiles the keyless H5 map shows (地图样式 → 底图来源), remembered on this device. */
  tile_source: TileSourceId = DEFAULT_TILE_SOURCE
  show_vip_expired_modal = false
  show_vip_exp_modal = false
  show_init_modal = false
  show_verify_modal = false
  /** Days left shown by the expiry reminder. */
  vip_reminder_days = 0
  /** SPEC 2 trial welcome dialog. */
  show_trial_welcome = false
  /** The customer-service sheet. */
  show_service_sheet = false
  /** A private API (location, album, camera ...) waits for the user's answer to the privacy agreement. */
  privacy_asking = false
  /** WeChat's resolvers of the waiting calls: each goes on (or fails) with the user's choice. */
  private privacyResolvers: ((choice: PrivacyChoice) => void)[] = []
  uni_location_permission = { is_request: false, allowed: false }
  /**
   * A share the user asked for on /map (layer panel, marker detail). The share dialog loads on
   * demand and takes the request, so its code stays out of the map page's bundle.
   */
  share_request: { type: 1 | 2 | 3; ids: number[]; name?: string; pickLayers?: boolean } | null = null
  /** Development-only: a developer chose to continue on a desktop browser. */
  allowDesktop = false
  /** The app-upgrade prompt: its state is SPEC 3's app_upgrade. */
  readonly upgrade: UpgradeStore
  private readonly timers = new Set<ReturnType<typeof setTimeout>>()
  /** Per validation notice: the watch that takes it away once its cause is gone. */
  private readonly causeWatchers = new Map<number, IReactionDisposer>()

  constructor(private readonly root: RootStore) {
    this.upgrade = new UpgradeStore(root)
    makeAutoObservable<AppStore, 'root' | 'timers' | 'causeWatchers' | 'privacyResolvers'>(this, { root: false, timers: false, causeWatchers: false, upgrade: false, privacyResolvers: false })
    this.allowDesktop = root.platform.storage.get(STORAGE_KEYS.allowDesktop) === '1'
    const tiles = root.platform.storage.get(STORAGE_KEYS.tileSource)
    if (isTileSourceId(tiles)) this.tile_source = tiles
    this.readBaseSetting()
    // The keyless map's 底图 switch gave way to 底图来源's 无底图: tiles switched off there stay off as 无底图.
    if (this.map_style.bg === false && root.platform.mapCapabilities.tileSources?.length) {
      this.map_style = { ...this.map_style, bg: true }
      this.saveBaseSetting()
      this.setTileSource('none')
    }
  }

  /** The map style and base layers the user chose, kept on the phone (cleared at logout). */
  private readBaseSetting(): void {
    try {
      const saved = JSON.parse(this.root.platform.storage.get(STORAGE_KEYS.baseSetting) || 'null')
      if (!saved || typeof saved !== 'object') return
      const style = saved.map_style ?? {}
      for (const k of ['bg', 'road', 'building', 'poi', 'traffic'] as const) if (typeof style[k] === 'boolean') this.map_style[k] = style[k]
      if (typeof style.type === 'number') this.map_style.type = style.type
      this.satellite_layer = saved.satellite_layer === true
      this.road_layer = saved.road_layer === true
      this.traffic_layer = saved.traffic_layer === true
      if (typeof saved.show_cluster_count === 'boolean') this.show_cluster_count = saved.show_cluster_count
      if (isAreaUnit(saved.area_unit)) this.area_unit = saved.area_unit
    } catch {
      // unreadable: the defaults stay
    }
  }

  private saveBaseSetting(): void {
    const { map_style, satellite_layer, road_layer, traffic_layer, show_cluster_count, area_unit } = this
    this.root.platform.storage.set(STORAGE_KEYS.baseSetting, JSON.stringify({ map_style, satellite_layer, road_layer, traffic_layer, show_cluster_count, area_unit }))
  }

  /** Whether cluster badges show their counts: the user's choice, else the system config. */
  get clusterCountShown(): boolean {
    return clusterCountShown(this.show_cluster_count, this.system_config.show_marker_cluster_count)
  }

  setClusterCountShown(on: boolean): void {
    this.show_cluster_count = on
    this.saveBaseSetting()
  }

  setAreaUnit(unit: AreaUnit): void {
    if (!isAreaUnit(unit)) return
    this.area_unit = unit
    this.saveBaseSetting()
  }

  /** The base map as the renderers take it: style elements and the three layers. */
  get basemap(): MapStyle & { satellite: boolean; roadnet: boolean; traffic: boolean } {
    return { ...this.map_style, satellite: this.satellite_layer, roadnet: this.road_layer, traffic: this.traffic_layer }
  }

  requestShare(request: NonNullable<AppStore['share_request']>): void {
    this.share_request = request
  }

  /** The share dialog took the request. */
  takeShareRequest(): AppStore['share_request'] {
    const r = this.share_request
    this.share_request = null
    return r
  }

  /**
   * Which membership dialog is due (SPEC 4): the expired dialog (administrator or member variant)
   * whenever the selected group's membership has expired, the expiry reminder at most once a day,
   * or the trial welcome once per user. Run on each page entry and when the membership changes.
   */
  checkVipPrompts(now: Date = new Date()): void {
    const { session, platform } = this.root
    const user = session.user
    const vip = user?.group_vip
    if (!user || !vip) {
      this.closeVipModals()
      return
    }
    const membership = { level: vip.level, vip_exp: vip.group_vip_exp }
    const prompt = vipPrompt(membership, session.is_admin, now, platform.storage.get(STORAGE_KEYS.vipReminderDay))
    this.show_vip_expired_modal = prompt?.kind === 'expired_admin' || prompt?.kind === 'expired_member'
    if (prompt?.kind === 'reminder') {
      this.show_vip_exp_modal = true
      this.vip_reminder_days = prompt.days
      platform.storage.set(STORAGE_KEYS.vipReminderDay, shanghaiDay(now))
    }
    // The welcome waits while a membership dialog is due or still open (a second check the same day
    // finds the reminder no longer due but on screen: the welcome must not stack on it).
    if (prompt || this.show_vip_exp_modal) return
    const greeted = (platform.storage.get(STORAGE_KEYS.trialWelcomed) || '').split(',').filter(Boolean)
    if (trialWelcomeDue(membership, session.is_admin, user.verifyed, greeted.includes(String(user.id)), now)) {
      this.show_trial_welcome = true
      platform.storage.set(STORAGE_KEYS.trialWelcomed, [...greeted, String(user.id)].slice(-20).join(','))
    }
  }

  /** SPEC 3 app_upgrade: show, version (the dialog's version line), notes and the installer's address. */
  get app_upgrade(): AppUpgrade {
    return this.upgrade.state
  }

  /** At app start: the upgrade prompt on Android or HarmonyOS H5, at most once a day (SPEC 4). */
  checkUpgrade(now: Date = new Date()): Promise<boolean> {
    return this.upgrade.check(now)
  }

  /** The prompt's 'later'. */
  dismissUpgrade(now: Date = new Date()): void {
    this.upgrade.dismiss(now)
  }

  /** The prompt's 'upgrade now'. */
  upgradeNow(now: Date = new Date()): Promise<boolean> {
    return this.upgrade.upgradeNow(now)
  }

  /** Copies text with SPEC 8's clipboard notices. */
  async copyText(text: string): Promise<boolean> {
    const ok = await this.root.platform.share.copyText(text)
    this.notify(ok ? MSG.copyOk : MSG.copyFailed, ok ? 'success' : 'danger')
    return ok
  }

  closeVipModals(): void {
    this.show_vip_expired_modal = false
    this.show_vip_exp_modal = false
    this.show_trial_welcome = false
  }

  closeReminder(): void {
    this.show_vip_exp_modal = false
  }

  closeTrialWelcome(): void {
    this.show_trial_welcome = false
  }

  setVerifyModal(show: boolean): void {
    this.show_verify_modal = show
    if (show) this.show_trial_welcome = false
  }

  /** At launch: WeChat's prompt for the privacy agreement opens the app's own dialog (PrivacyDialog). */
  listenPrivacy(): void {
    this.root.platform.privacy?.listen((resolve) => this.askPrivacy(resolve))
  }

  askPrivacy(resolve: (choice: PrivacyChoice) => void): void {
    this.privacyResolvers.push(resolve)
    this.privacy_asking = true
  }

  /** The user tapped the agreePrivacyAuthorization button `buttonId`: the waiting calls go on. */
  agreePrivacy(buttonId: string): void {
    this.answerPrivacy({ event: 'agree', buttonId })
  }

  /** 拒绝: the waiting calls fail (their features say so in Chinese); the rest of the app works. */
  refusePrivacy(): void {
    this.answerPrivacy({ event: 'disagree' })
  }

  private answerPrivacy(choice: PrivacyChoice): void {
    const waiting = this.privacyResolvers.splice(0)
    this.privacy_asking = false
    for (const resolve of waiting) resolve(choice)
  }

  async openPrivacyContract(): Promise<void> {
    const opened = (await this.root.platform.privacy?.openContract()) ?? false
    if (!opened) this.notify(PRIVACY_MSG.contractFailed, 'warning')
  }

  setServiceSheet(show: boolean): void {
    this.show_service_sheet = show
  }

  /** Where the user last located themselves (the self-location marker shows there). */
  setSelfLocation(p: LngLatValue | null): void {
    this.self_location = p ? { lng: p.lng, lat: p.lat } : null
  }

  /** One map-style element on or off (SPEC 3 map_style: bg, road, building, poi, traffic). */
  setMapStyle(key: 'bg' | 'road' | 'building' | 'poi' | 'traffic', on: boolean): void {
    this.map_style = { ...this.map_style, [key]: on }
    this.saveBaseSetting()
  }

  /** Another tile source, e.g. where OpenStreetMap is blocked: the map switches at once and this device keeps it. */
  setTileSource(id: TileSourceId): void {
    if (!isTileSourceId(id)) return
    this.tile_source = id
    this.root.platform.storage.set(STORAGE_KEYS.tileSource, id)
  }

  /** The satellite, road-net and traffic layers over the base map. */
  setBaseLayer(layer: 'satellite_layer' | 'road_layer' | 'traffic_layer', on: boolean): void {
    this[layer] = on
    this.saveBaseSetting()
  }

  get show_loading(): boolean {
    return this.loadingCount > 0
  }

  get run_platform(): string {
    return this.root.platform.device.platform
  }

  /** False in the mini-program on iOS (domain/vip canBuyMembership): no price, buying or renewal prompt there. */
  get canBuyMembership(): boolean {
    const device = this.root.platform.device
    return canBuyMembership(device.platform, device.os())
  }

  setLoading(delta: 1 | -1): void {
    this.loadingCount = Math.max(0, this.loadingCount + delta)
  }

  notify(text: string, type: NoticeType = 'error', duration: number = NOTICE_BAR_MS, action?: NoticeAction): Notice {
    const notice = makeNotice(text, type, duration, action)
    // A success contradicts the problems reported before it: it replaces them.
    if (type === 'success') this.dropNotices((n) => PROBLEM_TYPES.has(n.type))
    this.notices.push(notice)
    // The store owns the expiry so that a notice does not restart its time on the next page.
    if (duration > 0) {
      const timer = setTimeout(() => {
        this.timers.delete(timer)
        this.dismiss(notice.id)
      }, duration)
      this.timers.add(timer)
    }
    return notice
  }

  /**
   * A validation notice that lasts only while its cause does: `stillWrong` re-runs the check on the
   * form's observable state, and the notice goes as soon as it answers false (the user fixed the
   * field, or the form closed), so the bar never contradicts the screen.
   */
  notifyInvalid(text: string, stillWrong: () => boolean, type: NoticeType = 'warning'): Notice {
    const notice = this.notify(text, type)
    const stop = reaction(stillWrong, (wrong) => {
      if (!wrong) this.dismiss(notice.id)
    })
    this.causeWatchers.set(notice.id, stop)
    return notice
  }

  dispose(): void {
    for (const t of this.timers) clearTimeout(t)
    this.timers.clear()
    this.dropNotices(() => true)
  }

  /** A form that just succeeded takes its stale validation notices away. */
  clearNotices(): void {
    this.dropNotices(() => true)
  }

  dismiss(id: number): void {
    this.dropNotices((n) => n.id === id)
  }

  private dropNotices(which: (n: Notice) => boolean): void {
    const gone = this.notices.filter(which)
    if (!gone.length) return
    for (const n of gone) {
      this.causeWatchers.get(n.id)?.()
      this.causeWatchers.delete(n.id)
    }
    this.notices = this.notices.filter((n) => !which(n))
  }

  /** The notice on top (the bar shows one at a time, newest first). */
  get currentNotice(): Notice | null {
    return this.notices.length ? this.notices[this.notices.length - 1] : null
  }

  async loadConfig(): Promise<void> {
    const cfg = await this.root.api.post('/api/system/get/config', { no_check_permission: true }, { background: true })
    if (cfg) this.system_config = { ...DEFAULT_SYSTEM_CONFIG, ...cfg }
  }

  continueOnDesktop(): void {
    if (!this.root.platform.device.canOverrideDesktop()) return
    this.allowDesktop = true
    this.root.platform.storage.set(STORAGE_KEYS.allowDesktop, '1')
  }

  /** Logout clears the map state back to its defaults. */
  resetMap(): void {
    this.map_view = null
    this.self_location = null
    this.map_style = { ...DEFAULT_MAP_STYLE }
    this.satellite_layer = false
    this.road_layer = false
    this.traffic_layer = false
    this.show_cluster_count = null
    this.area_unit = 'm2'
    this.show_vip_expired_modal = false
    this.show_vip_exp_modal = false
    this.show_trial_welcome = false
    this.show_verify_modal = false
    this.show_service_sheet = false
  }
}
