/**
 * /web?url=...: an external page inside the app. Only http(s) addresses open (domain/web);
 * anything else says '链接无效'. The platform decides how: WeChat's web-view, or an iframe on H5.
 * A page that cannot be reached says '页面无法打开' with its address and a retry.
 */
import { Search } from '@nutui/icons-react-taro'
import { Button, Empty } from '@nutui/nutui-react-taro'
import { Text, View } from '@tarojs/components'
import { useRouter } from '@tarojs/taro'
import { observer } from 'mobx-react-lite'
import { useCallback, useState } from 'react'
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
  const [failed, setFailed] = useState(false)
  // Each retry mounts a fresh frame, which loads the page and checks it again.
  const [attempt, setAttempt] = useState(0)
  const onError = useCallback(() => setFailed(true), [])
  const retry = () => {
    setFailed(false)
    setAttempt((n) => n + 1)
  }

  return (
    <PageShell className='web-page'>
      {!target.ok ? (
        <View className='web-invalid page-pad'>
          <Empty title={target.message} description={APP_MSG.webUrlHint} image={<Search size={72} color='#C9CDD4' />} />
          <Button block type='primary' onClick={() => navigate('/map', 'relaunch')}>
            返回首页
          </Button>
        </View>
      ) : failed ? (
        <View className='web-invalid web-failed page-pad'>
          <Empty title={APP_MSG.webUnreachable} description={APP_MSG.webUnreachableHint} image={<Search size={72} color='#C9CDD4' />} />
          <Text className='web-failed__url'>{target.url}</Text>
          <Button block type='primary' onClick={retry}>
            {APP_MSG.webRetry}
          </Button>
        </View>
      ) : (
        <WebFrame key={attempt} url={target.url} onError={onError} />
      )}
    </PageShell>
  )
}

export default observer(WebPage)
