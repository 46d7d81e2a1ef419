/**
 * Every page renders inside PageShell: it runs the navigation guard on each page entry and hosts the
 * notice bar and the loading mask. Content shows only once the guard allows the page.
 */
import { View } from '@tarojs/components'
import { useDidShow } from '@tarojs/taro'
import { observer } from 'mobx-react-lite'
import { useState, type PropsWithChildren } from 'react'
import { decideEntry, moduleBlockOf } from '../../router/entry'
import { useStores } from '../../stores/context'
import { LoadingMask } from '../LoadingMask'
import { NoticeBar } from '../NoticeBar'

export const PageShell = observer(function PageShell({ children, className }: PropsWithChildren<{ className?: string }>) {
  const root = useStores()
  const [allowed, setAllowed] = useState(false)

  useDidShow(() => {
    const decision = decideEntry(root)
    if (decision.action === 'allow') {
      setAllowed(true)
    } else {
      setAllowed(false)
      root.navigate(decision.to, 'redirect')
    }
  })

  // Read on each render so that a module granted by the group refresh opens the page at once.
  const blocked = allowed ? moduleBlockOf(root) : null

  return (
    <View className={`page ${className ?? ''}`}>
      {blocked ? (
        <View className='page-blocked'>
          {blocked}
          <View className='page-blocked__back' onClick={() => root.navigate('/map', 'relaunch')}>
            返回地图
          </View>
        </View>
      ) : allowed ? (
        children
      ) : null}
      <NoticeBar />
      <LoadingMask />
    </View>
  )
})
