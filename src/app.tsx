import type { PropsWithChildren } from 'react'
import Taro, { usePageNotFound } from '@tarojs/taro'
import { StoreProvider } from './stores/context'
import './app.scss'

function App({ children }: PropsWithChildren) {
  // Any other path shows the not-found page (SPEC 2).
  usePageNotFound(() => {
    void Taro.redirectTo({ url: '/pages/not-found/index' })
  })
  return <StoreProvider>{children}</StoreProvider>
}

export default App
