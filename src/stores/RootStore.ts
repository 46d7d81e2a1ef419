/** Builds every store from injected dependencies (DESIGN 4): tests pass fakes, the app the real ones. */
import { ApiClient, type CallOptions, type HttpTransport } from '../api/client'
import type { DeviceInfo } from '../platform/device/types'
import type { KeyValueStorage } from '../platform/storage/types'
import type { PageLocation } from '../platform/nav/types'
import type { GeoPlatform } from '../platform/location/types'
import type { PayPlatform } from '../platform/pay/types'
import type { CameraPlatform } from '../platform/camera/types'
import type { SharePlatform } from '../platform/share/types'
import type { UploadPlatform } from '../platform/upload/types'
import type { FileAdapter } from '../platform/file/types'
import type { PrintPlatform } from '../platform/print/types'
import type { ScreenPlatform } from '../platform/screen/types'
import type { MapCapabilities } from '../platform/map/types'
import type { OpenDownloadUrl } from '../platform/upgrade/types'
import type { SocketPlatform } from '../platform/socket/types'
import type { OfflinePlatform } from '../platform/offline/types'
import type { DirectionsPlatform } from '../platform/directions/types'
import type { PrivacyPlatform } from '../platform/privacy/types'
import { ERRCODE, type ApiError } from '../api/errors'
import type { ApiPath, ApiReq, ApiRes } from '../../types/api'
import type { Navigate } from '../router/navigate'
import { reaction, type IReactionDisposer } from 'mobx'
import { AppStore } from './AppStore'
import { DirectionsStore } from './DirectionsStore'
import { FieldStore } from './FieldStore'
import { IconStore } from './IconStore'
import { MapStore } from './MapStore'
import { LayerStore } from './LayerStore'
import { LocationStore } from './LocationStore'
import { ConsentStore } from './ConsentStore'
import { MarkerStore } from './MarkerStore'
import { NoteStore } from './NoteStore'
import { SessionStore } from './SessionStore'
import type { DepartmentStore } from './DepartmentStore'
import { GroupRefreshStore, realScheduler, type Scheduler } from './GroupRefreshStore'
import { storeFactory, type LazyKey, type LazyStore } from './lazyStores'
import type { RoleStore } from './RoleStore'
import type { RouteStore } from './RouteStore'
import type { PrintStore } from './PrintStore'
import type { TaskStore } from './TaskStore'
import type { DistributionStore } from './DistributionStore'
import type { OpLogStore } from './OpLogStore'
import type { DataListStore } from './DataListStore'
import type { SignStore } from './SignStore'
import type { ShareStore } from './ShareStore'
import type { ShareViewStore } from './ShareViewStore'
import type { TeamStore } from './TeamStore'
import type { VipStore } from './VipStore'
import type { SyncStore } from './SyncStore'
import type { SyncChange } from '../../types/sync'
import type { OfflineCacheStore } from './OfflineCacheStore'
import type { OutboxStore } from './OutboxStore'

export interface Platform {
  storage: KeyValueStorage
  device: DeviceInfo
  navigate: Navigate
  /** Where the user is now (for the navigation guard). */
  location: () => PageLocation
  /** Rewrites the address bar (H5 aliases); a no-op elsewhere. */
  replaceAddress: (pathWithQuery: string) => void
  /** Back to the page that opened this one; false (and nothing happens) when it was opened directly. */
  back: () => boolean
  /** Loads a page's code (by SPEC path) ahead of its first open, where pages load on demand (H5). */
  warmPage: (pathWithQuery: string) => void
  /** Clipboard and links into the H5 app. */
  share: SharePlatform
  /**
   * Paying for membership orders (WeChat Pay, the host app, or none), loaded on first use: its code
   * (and the host bridge's) travels with the membership pages, not with every page.
   */
  pay: () => Promise<PayPlatform>
  /** Positions, addresses and the location setting (tracking). */
  geo: GeoPlatform
  /** The watermark camera's access, the host app's camera and image saving (check-in), loaded on first use. */
  camera: () => Promise<CameraPlatform>
  /** Picking images and sending them to /api/system/upload, loaded on first use (Taro's H5 picker and uploader are large). */
  upload: () => Promise<UploadPlatform>
  /** Saving exported layers and picking files to import, loaded on first use. */
  files: () => Promise<FileAdapter>
  /** Showing, saving and opening a printed sheet (打印), loaded on first use. */
  print: () => Promise<PrintPlatform>
  /** The window's size. */
  screen: ScreenPlatform
  /** Which base-map layers and style elements this platform's map can switch. */
  mapCapabilities: MapCapabilities
  /** Opens an installer or the download page (the host app's open_url or the browser); false where nothing opens it (the mini-program). */
  openDownloadUrl: OpenDownloadUrl
  /** The live-sync push socket, loaded on first use (its code travels with the map, not with /login). */
  socket: () => Promise<SocketPlatform>
  /** Durable storage of the map data and the outbox for working without signal, and the network's state; loaded with the map. */
  offline: () => Promise<OfflinePlatform>
  /** 导航: hands a place to the phone's map (WeChat's map page, the host app, AMap in the browser). */
  directions: DirectionsPlatform
  /** WeChat's privacy agreement (the mini-program); absent where nothing asks for it. */
  privacy?: PrivacyPlatform
}

/**
 * A save refused with CONFLICT, as the store that sent it describes it (`theirs` comes from the
 * error): what the conflict sheet shows, and how to save again. Only types here: the sheet's code
 * and its rules load with the map (SyncStore, src/domain/sync.ts).
 */
export interface RefusedSave<T = unknown> {
  kind: import('../../types/sync').SyncKind
  /** The version the edit started from, when known: tells my changes from theirs. */
  base?: unknown
  /** What this phone tried to save. */
  mine: unknown
  /** Saves again (the sheet's choice, over the current rev; without an id: a new entity). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each kind's store saves its own input type; the sheet only hands back what that store described
  resave: (input: any, base?: unknown) => Promise<T | undefined>
}

/**
 * The copy of the map data this phone saved (set by the offline cache store when it loads with the
 * map): answers the reads it holds when the network is down, so that the map, lists, search and
 * details still show.
 */
export interface OfflineSink {
  /** The device says it has no network: reads go to the saved copy at once. */
  offline(): boolean
  /** The saved answer to a read, or undefined when this phone has none. */
  answer<P extends ApiPath>(path: P, body: ApiReq<P>): Promise<ApiRes<P> | undefined>
}

/**
 * Where the core stores hand a save the network refused (set by the outbox store when it loads with
 * the map): it keeps the save on the phone, shows it at once (a create under a temp id), and sends
 * it when the network returns. Only types here: the outbox's code is not in the /login bundle.
 */
export interface OutboxSink {
  /** False when the phone knows it has no network: saves go to the outbox without trying. */
  online(): boolean
  /** A change of this marker (or note) waits in the outbox: later ones queue behind it, in order. */
  holds(kind: 'marker' | 'note', id: number): boolean
  saveMarker(body: import('../../types/mapdata').MarkerInput, base?: import('../../types/mapdata').Marker): Promise<import('../../types/mapdata').Marker | undefined>
  removeMarker(id: number): Promise<boolean>
  saveNote(body: import('../domain/outbox').NoteBody, base?: import('../../types/mapdata').Note): Promise<import('../../types/mapdata').Note | undefined>
  removeNote(note: { id: number; marker_id: number; rev?: number }): Promise<boolean>
  /** Keeps a picked photo for a note until it can be uploaded; its url names the kept file. */
  keepPhoto(filePath: string): Promise<import('../../types/mapdata').Upload | undefined>
  /** A kept photo's local URL (to show it), and back. */
  localUrl(kept: string): string | undefined
  keptOf(localUrl: string): string | undefined
  /** An id for a create, sent as `client_id` so a repeat after a lost answer makes nothing new (its code stays out of /login). */
  newClientId(): string
  /** Logout: drops what waits (the user was warned). */
  forget(): Promise<void>
}

/** The stores made at start: what code that a page of any kind uses may rely on (the lazy ones come with their pages). */
export type CoreStores = Omit<RootStore, LazyKey>

export interface RootDeps {
  transport: HttpTransport
  baseUrl: string
  platform: Platform
  /** Timers of the group refresh poll (fake timers in tests). */
  scheduler?: Scheduler
}

export class RootStore {
  readonly platform: Platform
  readonly api: ApiClient
  readonly app: AppStore
  readonly session: SessionStore
  readonly layers: LayerStore
  readonly markers: MarkerStore
  readonly fields: FieldStore
  readonly notes: NoteStore
  readonly icons: IconStore
  readonly map: MapStore
  readonly groupRefresh: GroupRefreshStore
  /** Location tracking. */
  readonly tracker: LocationStore
  /** Invitations waiting for the user's answer, and their signed-in devices. */
  readonly consent: ConsentStore
  /** 导航 to a place, from every page that shows one. */
  readonly directions: DirectionsStore
  /** Timers of polls (fake timers in tests). */
  readonly scheduler: Scheduler
  private readonly lazyStores = new Map<LazyKey, LazyStore>()
  /** Opens the conflict sheet and settles with what the user's choice saved (set by the sync store when it loads). */
  conflictSink: ((refused: RefusedSave, theirs: unknown) => Promise<unknown>) | null = null
  /** The saved map data that answers reads without network (set by the offline cache store when it loads). */
  offlineSink: OfflineSink | null = null
  /** Keeps saves made without network (set by the outbox store when it loads). */
  outboxSink: OutboxSink | null = null
  /** Hears teammates' changes that live sync applies (set by the data list store while it lives). */
  dataListSink: ((changes: SyncChange[]) => void) | null = null
  /** Where the API lives (uploads go there too). */
  readonly baseUrl: string
  private readonly disposers: IReactionDisposer[] = []

  constructor(deps: RootDeps) {
    this.platform = deps.platform
    this.scheduler = deps.scheduler ?? realScheduler
    this.baseUrl = deps.baseUrl
    this.api = new ApiClient({
      transport: deps.transport,
      baseUrl: deps.baseUrl,
      header: () => this.session.header,
      notify: (text, type) => this.app.notify(text, type),
      loading: (delta) => this.app.setLoading(delta),
    })
    this.app = new AppStore(this)
    this.session = new SessionStore(this)
    this.api.onUnauthorized(() => this.session.handleUnauthorized())
    this.layers = new LayerStore(this)
    this.markers = new MarkerStore(this)
    this.fields = new FieldStore(this)
    this.notes = new NoteStore(this)
    this.icons = new IconStore(this)
    this.map = new MapStore(this)
    this.groupRefresh = new GroupRefreshStore(this, deps.scheduler)
    this.tracker = new LocationStore(this)
    this.consent = new ConsentStore(this)
    this.directions = new DirectionsStore(this)
    // Another user or another map: nothing of the previous map data may show.
    this.disposers.push(
      reaction(
        () => `${this.session.user?.id ?? ''}:${this.session.user?.select_groupid ?? ''}`,
        () => {
          this.resetMapData()
          // Signed out: no more positions are taken or reported.
          if (!this.session.user) this.tracker.stop()
        },
      ),
      // A membership that changed (payment, reset, refresh poll, another map) may bring its dialog.
      reaction(
        () => {
          const vip = this.session.user?.group_vip
          return `${this.session.user?.id ?? ''}:${this.session.is_admin}:${vip?.level ?? ''}:${vip?.group_vip_exp ?? ''}:${this.session.user?.verifyed ?? ''}`
        },
        () => this.app.checkVipPrompts(),
      ),
      // Another person signed in (or nobody): their invitations, devices and sharing choice are theirs.
      reaction(
        () => this.session.user?.id ?? 0,
        () => {
          this.consent.reset()
          this.tracker.forgetSharing()
        },
      ),
    )
  }

  resetMapData(): void {
    this.layers.reset()
    this.markers.reset()
    this.fields.reset()
    this.notes.reset()
    this.icons.reset()
    this.map.reset()
    for (const store of this.lazyStores.values()) store.reset?.()
  }

  /**
   * A save that sends the rev its edit started from. Refused as stale (CONFLICT), the conflict sheet
   * opens and this settles with what the user's choice saved, flagged `true` (that save already
   * updated the stores); any other business error shows the server's message.
   */
  saveRev<P extends ApiPath>(
    path: P,
    body: ApiReq<P>,
    save: Omit<RefusedSave<ApiRes<P>>, 'mine'>,
    /** Keeps the save in the outbox when the network fails (it updates the stores itself). */
    offline?: () => Promise<ApiRes<P> | undefined>,
  ): Promise<[ApiRes<P> | undefined, boolean]> {
    // Promise chains, not async functions: the /login bundle is built for old WebViews, where every async function costs.
    return this.api.request(path, body, { quiet: true, offlineKept: !!offline }).then(
      (saved) => [saved, false],
      (e: ApiError) => {
        if (e.kind === 'network' && offline) return offline().then((kept) => [kept, true])
        if (e.errcode === ERRCODE.CONFLICT && this.conflictSink) return this.conflictSink({ ...save, mine: body }, e.data ?? null).then((saved) => [saved as ApiRes<P> | undefined, true])
        if (e.kind === 'business') this.app.notify(e.message, 'danger')
        return [undefined, true]
      },
    )
  }

  /**
   * A read the saved copy can answer (offlineSink): without network it answers instead of showing
   * 网络错误 (the sync chip says 离线 and the cache store says once what the map shows); any other
   * failure, or nothing saved, goes as api.post.
   */
  read<P extends ApiPath>(path: P, body: ApiReq<P>, opts?: CallOptions): Promise<ApiRes<P> | undefined> {
    const sink = this.offlineSink
    const post = () => this.api.post(path, body, opts)
    if (!sink) return post()
    const saved = () => sink.answer(path, body)
    if (sink.offline()) return saved().then((res) => res ?? post())
    return this.api.request(path, body, { ...opts, quietNetwork: true }).catch((e: ApiError) =>
      e.kind !== 'network'
        ? undefined
        : saved().then((res) => {
            if (res === undefined && !opts?.background) this.app.notify(e.message, 'danger')
            return res
          }),
    )
  }

  get sync(): SyncStore {
    return this.lazy('sync') as SyncStore
  }

  get offlineCache(): OfflineCacheStore {
    return this.lazy('offlineCache') as OfflineCacheStore
  }

  get outbox(): OutboxStore {
    return this.lazy('outbox') as OutboxStore
  }

  get team(): TeamStore {
    return this.lazy('team') as TeamStore
  }

  get departments(): DepartmentStore {
    return this.lazy('departments') as DepartmentStore
  }

  get roles(): RoleStore {
    return this.lazy('roles') as RoleStore
  }

  get shares(): ShareStore {
    return this.lazy('shares') as ShareStore
  }

  get vip(): VipStore {
    return this.lazy('vip') as VipStore
  }

  get route(): RouteStore {
    return this.lazy('route') as RouteStore
  }

  get task(): TaskStore {
    return this.lazy('task') as TaskStore
  }

  get print(): PrintStore {
    return this.lazy('print') as PrintStore
  }

  get sign(): SignStore {
    return this.lazy('sign') as SignStore
  }

  get shareView(): ShareViewStore {
    return this.lazy('shareView') as ShareViewStore
  }

  get distribution(): DistributionStore {
    return this.lazy('distribution') as DistributionStore
  }

  get oplog(): OpLogStore {
    return this.lazy('oplog') as OpLogStore
  }

  get dataList(): DataListStore {
    return this.lazy('dataList') as DataListStore
  }

  /** A page's store, created on first use from the factory its page registered (lazyStores.ts). */
  private lazy(key: LazyKey): LazyStore {
    let store = this.lazyStores.get(key)
    if (!store) {
      const make = storeFactory(key)
      if (!make) throw new Error(`store "${key}" used by a page that does not import its registration`)
      store = make(this)
      this.lazyStores.set(key, store)
    }
    return store
  }

  navigate: Navigate = (path, mode) => this.platform.navigate(path, mode)

  /** Back to the page that opened this one (a list, the map); opened directly, go to `fallback` instead, in place of this page. */
  navigateBack(fallback: string): void {
    if (!this.platform.back()) this.navigate(fallback, 'redirect')
  }

  dispose(): void {
    for (const d of this.disposers) d()
    this.groupRefresh.dispose()
    this.tracker.dispose()
    this.map.dispose()
    this.app.dispose()
    this.session.dispose()
    for (const store of this.lazyStores.values()) store.dispose?.()
  }
}
