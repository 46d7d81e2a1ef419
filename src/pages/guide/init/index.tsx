import { Button, Input } from '@nutui/nutui-react-taro'
import { Text, View } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import { useState } from 'react'
import { PageShell } from '../../../components/PageShell'
import { NICKNAME_MAX } from '../../../domain/constants'
import { PATHS } from '../../../domain/guard'
import { useStores } from '../../../stores/context'
import './index.scss'

function InitPage() {
  const { session, navigate } = useStores()
  const [nickname, setNickname] = useState('')

  const submit = async () => {
    if (await session.initNickname(nickname)) navigate(PATHS.map, 'relaunch')
  }

  return (
    <PageShell className='init-page page-pad'>
      <Text className='init-title'>设置昵称</Text>
      <Text className='init-sub muted'>团队成员将通过昵称认识您</Text>
      <View className='init-field'>
        <Input name='nickname' maxLength={NICKNAME_MAX} placeholder='请输入昵称' value={nickname} onChange={(v) => setNickname(v)} />
      </View>
      <Button className='init-submit' block type='primary' onClick={() => void submit()}>
        完成
      </Button>
    </PageShell>
  )
}

export default observer(InitPage)
