/** Builders for store and API tests: a RootStore on a fake transport, storage and navigator. */
import type { HttpResponse, HttpTransport } from '../../src/api/client'
import { deviceFromUserAgent } from '../../src/platform/device/base'
import { memoryStorage } from '../../src/platform/storage/memory'
import { RootStore } from '../../src/stores/RootStore'
import '../../src/stores/shareStores'
import '../../src/stores/shareViewStores'
import '../../src/stores/teamStores'
import '../../src/stores/vipStores'
import '../../src/stores/routeStores'
import '../../src/stores/signStores'
import '../../src/stores/syncStores'
import type { PayOutcome, PayPlatform } from '../../src/platform/pay/types'
import { LocationError, type GeoPlatform } from '../../src/platform/location/types'
import type { CameraPlatform, CapturedPhoto } from '../../src/platform/camera/types'
import type { UploadPlatform } from '../../src/platform/upload/types'
import type { FileAdapter } from '../../src/platform/file/types'
import type { PrintPlatform } from '../../src/platform/print/types'
import type { OpenDownloadUrl } from '../../src/platform/upgrade/types'
import type { DirectionsOutcome } from '../../src/platform/directions/types'
import type { NavPlace } from '../../src/domain/directions'
import type { Scheduler } from '../../src/stores/GroupRefreshStore'
import type { SocketConnection, SocketPlatform } from '../../src/platform/socket/types'
import { memoryOffline, type MemoryOffline } from '../../src/platform/offline/memory'
import type { LoginResult, UserInfo } from '../../types/entities'
import type { Marker } from '../../types/mapdata'
import { encodeMarkerColumns } from '../../src/domain/markerColumns'

export type Handler = (body: any) => HttpResponse | Promise<HttpResponse>
export const ok = (data: unknown): HttpResponse => ({ status: 200, data: { header: { errcode: 0, errmsg: '' }, data } })
export const fail = (errcode: number, errmsg: string): HttpResponse => ({ status: 200, data: { header: { errcode, errmsg }, data: null } })

export function fakeTransport(handlers: Record<string, Handler>) {
  const calls: { path: string; body: any }[] = []
  const transport: HttpTransport = {
    async post(url, body) {
      const path = url.replace(/^https?:\/\/[^/]+/, '')
      calls.push({ path, body })
      const h = handlers[path]
      if (!h) return { status: 404, data: 'not found' }
      const res = await h(body)
      return (body as { format?: string } | undefined)?.format === 'columns' ? inColumns(res) : res
    },
  }
  return { transport, calls }
}

/** A page of markers asked for in columns is answered in columns, as the server does: the handlers keep writing SPEC pages. */
function inColumns(res: HttpResponse): HttpResponse {
  const env = res.data as { header?: { errcode: number }; data?: { list?: unknown; total?: number } } | null
  if (res.status !== 200 || env?.header?.errcode !== 0 || !Array.isArray(env.data?.list)) return res
  return { ...res, data: { ...env, data: JSON.parse(JSON.stringify(encodeMarkerColumns(env.data.list as Marker[], env.data.total ?? 0))) } }
}

export function buildUser(over: Partial<UserInfo> = {}): UserInfo {
  return {
    id: 7,
    nickname: '小王',
    avatar: '',
    uid: 'u7',
    phone: '13800138000',
    token: 'tok-7',
    level: 1,
    select_groupid: 3,
    select_groupname: '小王的地图',
    is_manager: false,
    verifyed: false,
    group_vip: { group_vip_exp: '2026-11-29T00:00:00.000Z', level: 1, nickname: '小王', phone: '13800138000', marker_limit: 300, join_limit: 5, file_size_limit: 307200 },
    department_manager: false,
    source: '',
    modules: [],
    vip_exp: '2026-11-29T00:00:00.000Z',
    ...over,
  }
}

export function buildLogin(over: Partial<UserInfo> = {}): LoginResult {
  return { is_admin: true, admin_vip_expired: false, user: buildUser(over) }
}

/** One socket the app opened, driven by the test: open it, push server messages, drop it. */
export class FakeConnection implements SocketConnection {
  readonly sent: any[] = []
  closed = false
  private readonly handlers = { open: [] as (() => void)[], message: [] as ((t: string) => void)[], close: [] as ((c: number) => void)[], error: [] as (() => void)[] }
  constructor(readonly url: string) {}
  send(text: string): void {
    this.sent.push(JSON.parse(text))
  }
  close(): void {
    this.closed = true
  }
  onOpen(fn: () => void): void {
    this.handlers.open.push(fn)
  }
  onMessage(fn: (t: string) => void): void {
    this.handlers.message.push(fn)
  }
  onClose(fn: (c: number) => void): void {
    this.handlers.close.push(fn)
  }
  onError(fn: () => void): void {
    this.handlers.error.push(fn)
  }
  /** The server accepted the connection. */
  open(): void {
    for (const fn of this.handlers.open) fn()
  }
  /** A server message (types/sync.ts SyncServerMessage). */
  push(msg: unknown): void {
    for (const fn of this.handlers.message) fn(JSON.stringify(msg))
  }
  /** The network (or the server) dropped the socket. */
  drop(code = 1006): void {
    this.closed = true
    for (const fn of this.handlers.error) fn()
    for (const fn of this.handlers.close) fn(code)
  }
}

/** The socket platform of a test: every connect() is recorded. */
export function fakeSockets() {
  const connections: FakeConnection[] = []
  const platform: SocketPlatform = {
    connect(url) {
      const c = new FakeConnection(url)
      connections.push(c)
      return c
    },
  }
  return { platform, connections, last: () => connections[connections.length - 1] }
}

const live = new Set<RootStore>()

/** Stops the timers of every RootStore a test built (registered in jest.config.js). */
export function disposeRoots(): void {
  for (const r of live) r.dispose()
  live.clear()
}

export function makeRoot(
  handlers: Record<string, Handler> = {},
  opts: {
    storage?: Record<string, string>
    ua?: string
    path?: string
    clipboardFails?: boolean
    scheduler?: Scheduler
    pay?: Partial<PayPlatform>
    geo?: Partial<GeoPlatform>
    camera?: Partial<CameraPlatform>
    upload?: Partial<UploadPlatform>
    files?: Partial<FileAdapter>
    print?: Partial<PrintPlatform>
    openDownloadUrl?: OpenDownloadUrl
    /** What opening navigation gives (default: the map opened); every place handed over is in `navigatedTo`. */
    directions?: (place: NavPlace) => Promise<DirectionsOutcome>
    openedFrom?: boolean
    sockets?: ReturnType<typeof fakeSockets>
    /** The phone's durable offline storage and network state (share one between two starts of the app). */
    offline?: MemoryOffline
    /** What the map can switch: the keyless H5 map's tile choice, say (AMap's by default). */
    mapCapabilities?: RootStore['platform']['mapCapabilities']
    /** WeChat's privacy agreement (absent: nothing asks for it, as on H5). */
    privacy?: RootStore['platform']['privacy']
  } = {},
) {
  const sockets = opts.sockets ?? fakeSockets()
  const offline = opts.offline ?? memoryOffline()
  const released: CapturedPhoto[] = []
  const copied: string[] = []
  /** Each offer (true) or withdrawal (false) of posting the page to WeChat Moments. */
  const timeline: boolean[] = []
  const { transport, calls } = fakeTransport(handlers)
  const storage = memoryStorage(opts.storage)
  const navigations: { path: string; mode?: string }[] = []
  const navigatedTo: NavPlace[] = []
  let backs = 0
  let location = { pathname: opts.path ?? '/map', search: '' }
  const device = deviceFromUserAgent(
    'h5',
    () => opts.ua ?? 'Mozilla/5.0 (Linux; Android 13) Mobile',
    () => true,
  )
  const root = new RootStore({
    scheduler: opts.scheduler,
    transport,
    baseUrl: 'http://api.test',
    platform: {
      storage,
      device,
      navigate: (path, mode) => {
        navigations.push({ path, mode })
      },
      location: () => location,
      replaceAddress: () => undefined,
      warmPage: () => undefined,
      back: () => {
        if (!opts.openedFrom) return false
        backs++
        return true
      },
      share: {
        copyText: async (text: string) => {
          copied.push(text)
          return !opts.clipboardFails
        },
        webOrigin: () => 'https://map.test',
        allowTimeline: (on: boolean) => void timeline.push(on),
      },
      pay: async (): Promise<PayPlatform> => ({
        channel: () => 'web',
        loginCode: async () => null,
        requestPayment: async (): Promise<PayOutcome> => ({ status: 'failed' }),
        hostPay: async (): Promise<PayOutcome> => ({ status: 'failed' }),
        onOrderPaid: () => () => undefined,
        ...opts.pay,
      }),
      geo: {
        locate: async () => {
          throw new LocationError('unavailable')
        },
        reverseGeocode: async () => null,
        openAuthSetting: async () => false,
        permissionGranted: async () => null,
        ...opts.geo,
      },
      camera: async (): Promise<CameraPlatform> => ({
        source: () => 'view',
        prepare: async () => undefined,
        hostCapture: async () => null,
        saveImage: async () => 'saved',
        openSettings: async () => false,
        release: (photo) => {
          released.push(photo)
        },
        ...opts.camera,
      }),
      upload: async (): Promise<UploadPlatform> => ({
        send: async () => {
          throw new Error('no upload sender given to this test')
        },
        chooseImages: async () => [],
        ...opts.upload,
      }),
      files: async (): Promise<FileAdapter> => ({
        saveTextFile: async (file) => ({ name: file.filename, path: '', needsShare: false }),
        shareSavedFile: async () => undefined,
        pickTextFile: async () => null,
        ...opts.files,
      }),
      print: async (): Promise<PrintPlatform> => ({
        previewImage: async () => undefined,
        savePicture: async () => 'saved',
        openPdf: async () => 'opened',
        openSettings: async () => false,
        ...opts.print,
      }),
      screen: { windowHeight: () => 844, windowWidth: () => 390 },
      mapCapabilities: opts.mapCapabilities ?? { satellite: true, roadnet: true, traffic: true, features: ['bg', 'road', 'building', 'poi'] },
      privacy: opts.privacy,
      // The mini-program's: nothing opens an installer there.
      openDownloadUrl: opts.openDownloadUrl ?? (async () => false),
      socket: async () => sockets.platform,
      offline: async () => offline,
      directions: {
        open: (place) => {
          navigatedTo.push(place)
          return opts.directions ? opts.directions(place) : Promise.resolve('opened')
        },
      },
    },
  })
  live.add(root)
  return {
    root,
    calls,
    storage,
    navigations,
    /** The places handed to the platform's map by 导航. */
    navigatedTo,
    /** How many times a page went back to the page that opened it (openedFrom: true). */
    backs: () => backs,
    copied,
    timeline,
    /** The sockets the sync store opened. */
    sockets,
    /** The offline storage and network state the stores were given. */
    offline,
    /** Photos the stores handed back to the camera platform. */
    released,
    setLocation: (pathname: string, search = '') => {
      location = { pathname, search }
    },
  }
}
