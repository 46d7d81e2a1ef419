import { Search } from '@nutui/icons-react-taro'
import { Button, Empty } from '@nutui/nutui-react-taro'
import { observer } from 'mobx-react-lite'
import { PageShell } from '../../components/PageShell'
import { useStores } from '../../stores/context'

function NotFoundPage() {
  const { navigate } = useStores()
  return (
    <PageShell className='not-found-page page-pad'>
      <Empty title='页面不存在' description='您访问的页面不存在或已被移除' image={<Search size={72} color='#C9CDD4' />} />
      <Button block type='primary' onClick={() => navigate('/map', 'relaunch')}>
        返回首页
      </Button>
    </PageShell>
  )
}

export default observer(NotFoundPage)
