/**
 * /reg (SPEC 2 "distribution register", public): a promoter registers with a name, a phone
 * confirmed by an SMS code (the same code button as /login) and an optional company, and lands on
 * their promotion page. The same phone registering again gets its existing code back.
 */
import { Button, Input } from '@nutui/nutui-react-taro'
import { Text, View } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import { useState } from 'react'
import { PageShell } from '../../components/PageShell'
import { SendCodeButton } from '../../components/SendCodeButton'
import { DISTRIBUTOR_COMPANY_MAX, DISTRIBUTOR_NAME_MAX } from '../../domain/distribution'
import { DIST_MSG } from '../../domain/distributionMessages'
import { useStores } from '../../stores/context'
import { distributionStores } from '../../stores/distributionStores'
import './index.scss'

function RegPage() {
  const root = useStores(distributionStores)
  const store = root.distribution
  const [form, setForm] = useState({ name: '', phone: '', code: '', company: '' })
  const set = (key: keyof typeof form) => (value: string) => setForm((f) => ({ ...f, [key]: value }))

  const submit = async () => {
    const next = await store.register(form)
    if (next) root.navigate(next, 'redirect')
  }

  return (
    <PageShell className='reg-page'>
      <View className='reg-hero'>
        <Text className='reg-title'>{DIST_MSG.regTitle}</Text>
        <Text className='reg-subtitle'>{DIST_MSG.regSubtitle}</Text>
      </View>
      <View className='reg-card'>
        <View className='reg-field'>
          <Text className='reg-label'>姓名</Text>
          <Input className='reg-input' name='name' maxLength={DISTRIBUTOR_NAME_MAX} placeholder='请输入姓名' value={form.name} onChange={set('name')} />
        </View>
        <View className='reg-field'>
          <Text className='reg-label'>手机号</Text>
          <Input className='reg-input' name='phone' type='tel' maxLength={11} placeholder='请输入手机号' value={form.phone} onChange={set('phone')} />
        </View>
        <View className='reg-field'>
          <Text className='reg-label'>验证码</Text>
          <Input className='reg-input' name='code' type='number' maxLength={6} placeholder='请输入验证码' value={form.code} onChange={set('code')} />
          <SendCodeButton className='reg-send' phone={form.phone} />
        </View>
        <View className='reg-field'>
          <Text className='reg-label'>公司</Text>
          <Input className='reg-input' name='company' maxLength={DISTRIBUTOR_COMPANY_MAX} placeholder='公司或团队名称（选填）' value={form.company} onChange={set('company')} />
        </View>
        <Button className='reg-submit' block type='primary' loading={store.registering} onClick={() => void submit()}>
          {DIST_MSG.regSubmit}
        </Button>
        <Text className='reg-tip muted'>{DIST_MSG.regTip}</Text>
      </View>
    </PageShell>
  )
}

export default observer(RegPage)
