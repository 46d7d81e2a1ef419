/** The loading indicator every call drives (SPEC 7). Shown after a short delay to avoid flicker. */
import { Loading } from '@nutui/nutui-react-taro'
import { View } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import { useEffect, useState } from 'react'
import { useStores } from '../../stores/context'
import { Spinner } from '../Spinner'
import './index.scss'

export const LoadingMask = observer(function LoadingMask() {
  const { app } = useStores()
  const [visible, setVisible] = useState(false)
  useEffect(() => {
    if (!app.show_loading) {
      setVisible(false)
      return
    }
    const t = setTimeout(() => setVisible(true), 300)
    return () => clearTimeout(t)
  }, [app.show_loading])
  if (!visible) return null
  return (
    <View className='loading-mask' aria-busy='true'>
      <View className='loading-mask__box'>
        <Loading direction='vertical' icon={<Spinner />}>
          加载中
        </Loading>
      </View>
    </View>
  )
})
