import type { PropsWithChildren } from 'react'
import Taro, { useLaunch, usePageNotFound } from '@tarojs/taro'
import { appRootStore, StoreProvider } from './stores/context'
import './app.scss'

function App({ children }: PropsWithChildren) {
  useLaunch(() => {
    const { app } = appRootStore()
    // Before any page asks for a position: WeChat holds private APIs until the privacy agreement.
    app.listenPrivacy()
    // The group's system config (sign radius, brand, cluster counts, customer service) for every page.
    void app.loadConfig()
    // The upgrade prompt (SPEC 4): Android or HarmonyOS H5 only, at most once a day; signed in or not.
    void app.checkUpgrade()
  })
  // Any other path shows the not-found page (SPEC 2).
  usePageNotFound(() => {
    void Taro.redirectTo({ url: '/pages/not-found/index' })
  })
  return <StoreProvider>{children}</StoreProvider>
}

export default App
