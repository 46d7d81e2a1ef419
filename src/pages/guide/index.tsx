import { Button, Cell, Input } from '@nutui/nutui-react-taro'
import { Text, View } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import { useRouter } from '@tarojs/taro'
import { useEffect, useState } from 'react'
import { PageShell } from '../../components/PageShell'
import { PATHS } from '../../domain/guard'
import { useStores } from '../../stores/context'
import './index.scss'

function GuidePage() {
  const { session, navigate, consent } = useStores()
  const router = useRouter()
  // Invited to a team before signing up: asked here, before making a map of one's own.
  useEffect(() => {
    void consent.loadInvitations()
  }, [consent])
  // An invite link opened before having a map lands here with its code (the guard keeps the query).
  const [code, setCode] = useState(() => (router.params.code ? decodeURIComponent(router.params.code) : ''))

  const createOwn = async () => {
    if (await session.createOwnGroup()) navigate(PATHS.map, 'relaunch')
  }
  const join = async () => {
    if (await session.joinTeam(code)) navigate(PATHS.map, 'relaunch')
  }

  return (
    <PageShell className='guide-page page-pad'>
      <Text className='guide-title'>欢迎使用团队地图</Text>
      <Text className='guide-sub muted'>选择一种方式开始</Text>
      <Cell className='guide-card' title='创建我的地图' description='新建自己的团队地图，免费试用7天：300个标注、5位协作成员、300M存储空间' />
      <Button className='guide-create' block type='primary' onClick={() => void createOwn()}>
        创建我的地图
      </Button>
      <View className='guide-divider muted'>或</View>
      <Cell className='guide-card' title='加入团队' description='输入团队管理员发给您的邀请码或邀请链接' />
      <Input className='guide-code' name='invite' placeholder='邀请码或邀请链接' value={code} onChange={(v) => setCode(v)} />
      <Button className='guide-join' block fill='outline' type='primary' onClick={() => void join()}>
        加入团队
      </Button>
      <Button className='guide-logout' block fill='none' onClick={() => void session.logout()}>
        退出登录
      </Button>
    </PageShell>
  )
}

export default observer(GuidePage)
