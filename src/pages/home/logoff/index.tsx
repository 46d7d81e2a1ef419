import { Button, Checkbox, Dialog } from '@nutui/nutui-react-taro'
import { Text, View } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import { useState } from 'react'
import { PageShell } from '../../../components/PageShell'
import { MSG } from '../../../domain/messages'
import { useStores } from '../../../stores/context'
import './index.scss'

function LogoffPage() {
  const { session } = useStores()
  const [agreed, setAgreed] = useState(false)
  const [confirming, setConfirming] = useState(false)

  return (
    <PageShell className='logoff-page page-pad'>
      <Text className='logoff-title'>注销账号</Text>
      <View className='logoff-box'>
        <Text className='logoff-item'>· 您的账号、登录记录将被删除</Text>
        <Text className='logoff-item'>· 您创建的地图及其中的图层、标注、成员将被永久删除</Text>
        <Text className='logoff-item'>· 删除后无法恢复，请先导出需要保留的数据</Text>
      </View>
      <Checkbox className='logoff-agree' checked={agreed} onChange={(v) => setAgreed(v)} label='我已了解注销后数据无法恢复' />
      <Button className='logoff-submit' block type='danger' disabled={!agreed} onClick={() => setConfirming(true)}>
        注销账号
      </Button>
      <Dialog
        className='dialog--destructive'
        title='确认注销'
        visible={confirming}
        content={MSG.logoffConfirm}
        confirmText='确认注销'
        cancelText='取消'
        onConfirm={() => {
          setConfirming(false)
          void session.logoff()
        }}
        onCancel={() => setConfirming(false)}
      />
    </PageShell>
  )
}

export default observer(LogoffPage)
