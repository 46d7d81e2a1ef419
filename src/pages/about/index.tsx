/**
 * /about: the brand and logo of the system config, the app and client versions (SPEC 9),
 * what the product does, and the customer-service sheet.
 */
import { Cell } from '@nutui/nutui-react-taro'
import { Image, Text, View } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import { useEffect } from 'react'
import { PageShell } from '../../components/PageShell'
import { APP_MSG } from '../../domain/appMessages'
import { APP_VERSION_STR, CLIENT_VERSION, DEFAULT_SYSTEM_CONFIG } from '../../domain/constants'
import { useStores } from '../../stores/context'
import './index.scss'

function AboutPage() {
  const { app, notes } = useStores()
  const { brand, logo } = app.system_config
  const name = brand || DEFAULT_SYSTEM_CONFIG.brand

  useEffect(() => {
    void app.loadConfig()
  }, [app])

  return (
    <PageShell className='about-page'>
      <View className='about-head'>
        {logo ? <Image className='about-logo' src={notes.photoUrl(logo)} mode='aspectFit' /> : <View className='about-logo about-logo--text'>{name.slice(0, 1)}</View>}
        <Text className='about-brand'>{name}</Text>
        <Text className='about-version muted'>{APP_MSG.versionLabel(APP_VERSION_STR, CLIENT_VERSION)}</Text>
      </View>
      <Text className='about-desc'>{APP_MSG.aboutDescription}</Text>
      <Cell.Group className='about-cells'>
        <Cell title='版本号' extra={APP_VERSION_STR} />
        <Cell title='客户端版本' extra={String(CLIENT_VERSION)} />
        <Cell className='about-service' title='联系客服' clickable onClick={() => app.setServiceSheet(true)} />
      </Cell.Group>
    </PageShell>
  )
}

export default observer(AboutPage)
