import { Phone } from '@nutui/icons-react-taro'
import { Button, Empty } from '@nutui/nutui-react-taro'
import { Text } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import { PageShell } from '../../components/PageShell'
import { useStores } from '../../stores/context'
import './index.scss'

function WarningPage() {
  const { app, platform, navigate } = useStores()
  return (
    <PageShell className='warning-page page-pad'>
      <Empty title='请在手机上打开' description='团队地图为手机设计，请用手机浏览器或微信扫码打开本页面' image={<Phone size={72} color='#165DFF' />} />
      {platform.device.canOverrideDesktop() ? (
        <>
          <Text className='warning-dev muted'>开发者调试：可以在电脑浏览器中继续使用</Text>
          <Button
            className='warning-continue'
            block
            fill='outline'
            type='primary'
            onClick={() => {
              app.continueOnDesktop()
              navigate('/map', 'relaunch')
            }}
          >
            继续使用（开发者）
          </Button>
        </>
      ) : null}
    </PageShell>
  )
}

export default observer(WarningPage)
