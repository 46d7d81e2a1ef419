import { Button, Input } from '@nutui/nutui-react-taro'
import { Text, View } from '@tarojs/components'
import { useRouter } from '@tarojs/taro'
import { observer } from 'mobx-react-lite'
import { useEffect, useState } from 'react'
import { PageShell } from '../../components/PageShell'
import { SendCodeButton } from '../../components/SendCodeButton'
import { PATHS } from '../../domain/guard'
import { useStores } from '../../stores/context'
import './index.scss'

/**
 * 登录 with its spinner while the sign-in is under way: an observer of its own, so the tap renders
 * the button alone, not the page with its inputs, in the tap's own task on a slow phone.
 */
const SubmitButton = observer(function SubmitButton({ onClick }: { onClick: () => void }) {
  const { session } = useStores()
  return (
    <Button className='login-submit' block type='primary' loading={session.submitting} onClick={onClick}>
      登录
    </Button>
  )
})

function LoginPage() {
  const { session, app, navigate, platform } = useStores()
  const router = useRouter()
  const [phone, setPhone] = useState('')
  const [code, setCode] = useState('')
  const back = router.params.redirect ? decodeURIComponent(router.params.redirect) : PATHS.map
  const next = back.startsWith('/') ? back : PATHS.map

  // While the user waits for the SMS, the page the sign-in opens loads its code (the map's is its
  // largest, with the map engine's): on a slow phone, fetching and running it after the tap were
  // long tasks between the tap and the map.
  const codeSent = session.codeSent
  useEffect(() => {
    if (codeSent) platform.warmPage(next)
  }, [codeSent, next, platform])

  const submit = async () => {
    // An invitation link (/login?channel=dist_<code>, distribution) names the channel the first sign-in records.
    if (await session.login(phone, code, router.params.channel)) navigate(next, 'relaunch')
  }

  return (
    <PageShell className='login-page'>
      <View className='login-hero'>
        <Text className='login-brand'>{app.system_config.brand || '团队地图'}</Text>
        <Text className='login-slogan'>团队协作的地图数据</Text>
      </View>
      <View className='login-card'>
        <View className='login-field'>
          <Text className='login-label'>手机号</Text>
          <Input className='login-input' name='phone' type='tel' maxLength={11} placeholder='请输入手机号' value={phone} onChange={(v) => setPhone(v)} />
        </View>
        <View className='login-field'>
          <Text className='login-label'>验证码</Text>
          <Input className='login-input' name='code' type='number' maxLength={6} placeholder='请输入验证码' value={code} onChange={(v) => setCode(v)} />
          <SendCodeButton className='login-send' phone={phone} />
        </View>
        <SubmitButton onClick={() => void submit()} />
        <Text className='login-tip muted'>未注册的手机号验证后将自动创建账号</Text>
      </View>
    </PageShell>
  )
}

export default observer(LoginPage)
