/**
 * The H5 title bar of a secondary page: a back control and the page title from the route table.
 * Only H5 loads it (lazily, from PageShell): the mini-program keeps WeChat's own navigation bar.
 */
import { Text, View } from '@tarojs/components'
import { useStores } from '../../stores/context'
import './index.scss'

export default function PageHeader({ title, fallback }: { title: string; fallback: string }) {
  const root = useStores()
  return (
    <View className='page-header'>
      <View className='page-header__back' aria-label='返回' onClick={() => root.navigateBack(fallback)}>
        ‹
      </View>
      <Text className='page-header__title'>{title}</Text>
    </View>
  )
}
