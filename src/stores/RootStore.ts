/** Builds every store from injected dependencies (DESIGN 4): tests pass fakes, the app the real ones. */
import { ApiClient, type HttpTransport } from '../api/client'
import type { DeviceInfo } from '../platform/device/base'
import type { KeyValueStorage } from '../platform/storage/memory'
import type { PageLocation } from '../platform/nav/index.types'
import type { Navigate } from '../router/navigate'
import { AppStore } from './AppStore'
import { SessionStore } from './SessionStore'

export interface Platform {
  storage: KeyValueStorage
  device: DeviceInfo
  navigate: Navigate
  /** Where the user is now (for the navigation guard). */
  location: () => PageLocation
  /** Rewrites the address bar (H5 aliases); a no-op elsewhere. */
  replaceAddress: (pathWithQuery: string) => void
}

export interface RootDeps {
  transport: HttpTransport
  baseUrl: string
  platform: Platform
}

export class RootStore {
  readonly platform: Platform
  readonly api: ApiClient
  readonly app: AppStore
  readonly session: SessionStore

  constructor(deps: RootDeps) {
    this.platform = deps.platform
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
  }

  navigate: Navigate = (path, mode) => this.platform.navigate(path, mode)

  dispose(): void {
    this.app.dispose()
    this.session.dispose()
  }
}
