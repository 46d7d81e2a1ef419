import { Button } from '@nutui/nutui-react-taro'
import { Image, Text, View } from '@tarojs/components'
import { useRouter } from '@tarojs/taro'
import { observer } from 'mobx-react-lite'
import { useEffect, useState } from 'react'
import { PageShell } from '../../components/PageShell'
import { warningEntryPath } from '../../domain/desktop'
import { useStores } from '../../stores/context'
import './index.scss'

function WarningPage() {
  const { app, platform, navigate } = useStores()
  const router = useRouter()
  const path = warningEntryPath(router.params.from)
  const url = platform.share.webOrigin() + path
  const [qr, setQr] = useState('')
  useEffect(() => {
    let live = true
    // The QR encoder loads only here, after the page shows (it is no part of the page's bundle).
    void import('../../domain/qr').then(({ qrDataUrl }) => live && setQr(qrDataUrl(url, 5, 10)))
    return () => {
      live = false
    }
  }, [url])
  return (
    <PageShell className='warning-page page-pad'>
      <View className='warning-device' />
      <Text className='warning-title'>请在手机上打开</Text>
      <Text className='warning-desc muted'>团队地图为手机设计，请用手机浏览器或微信扫码打开本页面</Text>
      <View className='warning-qr'>
        {qr ? <Image className='warning-qr__image' src={qr} /> : <View className='warning-qr__image' />}
        <Text className='warning-qr__url muted'>{url}</Text>
      </View>
      {platform.device.canOverrideDesktop() ? (
        <View className='warning-dev'>
          <Text className='warning-dev__tip muted'>开发者调试：可以在电脑浏览器中继续使用</Text>
          <Button
            className='warning-continue'
            size='small'
            fill='outline'
            type='primary'
            onClick={() => {
              app.continueOnDesktop()
              navigate(path === '/' ? '/map' : path, 'relaunch')
            }}
          >
            继续使用（开发者）
          </Button>
        </View>
      ) : null}
    </PageShell>
  )
}

export default observer(WarningPage)
