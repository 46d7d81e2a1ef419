/** The 加载更多 under a paged list: shown while the server has more, busy while the next page loads. */
import { Button } from '@nutui/nutui-react-taro'
import { View } from '@tarojs/components'

export function LoadMore(props: { more: boolean; loading: boolean; onMore: () => void }) {
  if (!props.more) return null
  return (
    <View className='page-pad'>
      <Button block fill='none' loading={props.loading} onClick={props.onMore}>
        加载更多
      </Button>
    </View>
  )
}
