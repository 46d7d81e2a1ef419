/**
 * /web?url=...: an external page inside the app. Only http(s) addresses open (domain/web);
 * anything else says '链接无效'. The platform decides how: WeChat's web-view, or an iframe on H5.
 */
import { Search } from '@nutui/icons-react-taro'
import { Button, Empty } from '@nutui/nutui-react-taro'
import { View } from '@tarojs/components'
import { useRouter } from '@tarojs/taro'
import { observer } from 'mobx-react-lite'
import { useState } from 'react'
import { PageShell } from '../../components/PageShell'
import { APP_MSG } from '../../domain/appMessages'
import { webTarget } from '../../domain/web'
import { WebFrame } from '../../components/WebFrame'
import { useStores } from '../../stores/context'
import './index.scss'

function WebPage() {
  const { navigate } = useStores()
  const router = useRouter()
  // Read once: the address of this page instance, whatever opens on top of it later.
  const [target] = useState(() => webTarget(router.params.url))

  return (
    <PageShell className='web-page'>
      {target.ok ? (
        <WebFrame url={target.url} />
      ) : (
        <View className='web-invalid page-pad'>
          <Empty title={target.message} description={APP_MSG.webUrlHint} image={<Search size={72} color='#C9CDD4' />} />
          <Button block type='primary' onClick={() => navigate('/map', 'relaunch')}>
            返回首页
          </Button>
        </View>
      )}
    </PageShell>
  )
}

export default observer(WebPage)
