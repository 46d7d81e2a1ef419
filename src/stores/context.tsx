/** The app's one RootStore with the real platform, and useStores() for views. */
import { createContext, useContext, type PropsWithChildren } from 'react'
import { taroTransport } from '../platform/http'
import { device } from '../platform/device'
import { taroNavigator } from '../platform/nav'
import { geoPlatform } from '../platform/location/loader'
import { loadPayPlatform } from '../platform/pay/loader'
import { loadCameraPlatform } from '../platform/camera/loader'
import { sharePlatform } from '../platform/share'
import { taroStorage } from '../platform/storage'
import { loadUploadPlatform } from '../platform/upload/loader'
import { loadFileAdapter } from '../platform/file/loader'
import { loadPrintPlatform } from '../platform/print/loader'
import { loadSocketPlatform } from '../platform/socket/loader'
import { loadOfflinePlatform } from '../platform/offline/loader'
import { screenPlatform } from '../platform/screen'
import { capabilities } from '../platform/map/capabilities'
import { openDownloadUrl } from '../platform/upgrade'
import { directionsPlatform } from '../platform/directions'
import { privacyPlatform } from '../platform/privacy'
import { createNavigate } from '../router/navigate'
import { pageUrlOf } from '../router/routes'
import type { LazyKey, LazyStoreSet } from './lazyStores'
import { RootStore, type CoreStores } from './RootStore'

let root: RootStore | null = null

export function appRootStore(): RootStore {
  root ??= new RootStore({
    transport: taroTransport,
    baseUrl: typeof API_BASE === 'string' ? API_BASE : '',
    platform: {
      storage: taroStorage,
      device,
      navigate: createNavigate(taroNavigator),
      location: () => taroNavigator.location(),
      replaceAddress: (p) => taroNavigator.replaceAddress(p),
      back: () => taroNavigator.backToOpener(),
      warmPage: (p) => taroNavigator.warmPage(pageUrlOf(p)),
      share: sharePlatform,
      pay: loadPayPlatform,
      geo: geoPlatform,
      camera: loadCameraPlatform,
      upload: loadUploadPlatform,
      files: loadFileAdapter,
      print: loadPrintPlatform,
      screen: screenPlatform,
      mapCapabilities: capabilities,
      openDownloadUrl,
      socket: loadSocketPlatform,
      offline: loadOfflinePlatform,
      directions: directionsPlatform,
      privacy: privacyPlatform,
    },
  })
  return root
}

const StoreContext = createContext<RootStore | null>(null)

export function StoreProvider({ children, store }: PropsWithChildren<{ store?: RootStore }>) {
  return <StoreContext.Provider value={store ?? appRootStore()}>{children}</StoreContext.Provider>
}

/** What a view reads: every store made at start, and the lazy stores of the sets it passed. */
export type ViewStores<K extends LazyKey = never> = CoreStores & Pick<RootStore, K>

type KeysOf<S> = S extends LazyStoreSet<infer K> ? K : never

/**
 * The app's stores for a view. A lazy store (root.vip, root.team ...) is readable only when the set
 * its registration module exports is passed (`useStores(vipStores)`), so that the import which
 * registers its factory cannot be forgotten.
 */
export function useStores<S extends LazyStoreSet<LazyKey>[]>(..._sets: S): ViewStores<KeysOf<S[number]>> {
  // Pages of a mini-program may render outside the App tree; fall back to the app's store.
  return useContext(StoreContext) ?? appRootStore()
}
