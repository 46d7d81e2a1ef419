import { ArrowRight } from '@nutui/icons-react-taro'
import { Avatar, Button, Cell, Dialog } from '@nutui/nutui-react-taro'
import { Text, View } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import { useEffect, useState } from 'react'
import { PageShell } from '../../components/PageShell'
import { FEATURES, featureOpen, holdsModule } from '../../domain/moduleGate'
import { PERM } from '../../domain/permissions'
import { membershipLabel } from '../../domain/tiers'
import { maskPhone } from '../../domain/validate'
import { OUTBOX_MSG } from '../../domain/outboxMessages'
import { INVITE_MSG } from '../../domain/consentMessages'
import { useStores } from '../../stores/context'
import { syncStores } from '../../stores/syncStores'
import './index.scss'

/** A row that opens another page ends in a chevron, after its value if it has one. */
function goes(value?: string) {
  return (
    <View className='home-go'>
      {value ? <Text>{value}</Text> : null}
      <ArrowRight size={14} color='#C9CDD4' className='home-go__chevron' />
    </View>
  )
}

/** The teams' invitations waiting for the user's answer: each with the team's name and who invited them. */
const Invitations = observer(function Invitations() {
  const { consent } = useStores()
  useEffect(() => {
    void consent.loadInvitations(true)
  }, [consent])
  if (consent.invitations.length === 0) return null
  return (
    <Cell.Group className='home-cells home-invitations' title={INVITE_MSG.title}>
      {consent.invitations.map((i) => (
        <Cell
          key={i.id}
          className='home-invitation'
          title={i.group_name}
          description={INVITE_MSG.byLine(i.inviter_nickname)}
          align='center'
          extra={
            <View className='home-invitation__actions'>
              <Button size='small' type='primary' className='home-invitation__accept' disabled={consent.answering} onClick={() => void consent.accept(i)}>
                {INVITE_MSG.accept}
              </Button>
              <Button size='small' fill='outline' className='home-invitation__decline' disabled={consent.answering} onClick={() => void consent.decline(i)}>
                {INVITE_MSG.decline}
              </Button>
            </View>
          }
        />
      ))}
    </Cell.Group>
  )
})

function HomePage() {
  const { session, navigate, app, notes, outbox } = useStores(syncStores)
  // Saves still waiting for the network would be lost: the logout dialog says how many first.
  const unsynced = outbox.logoutWarning
  const [confirmLogout, setConfirmLogout] = useState(false)
  const user = session.user

  return (
    <PageShell className='home-page'>
      <View className='home-profile' onClick={() => navigate('/myinfo')}>
        <Avatar size='large' src={user?.avatar ? notes.photoUrl(user.avatar) : ''}>
          {(user?.nickname || '我').slice(0, 1)}
        </Avatar>
        <View className='home-profile__text'>
          <Text className='home-nickname'>{user?.nickname}</Text>
          <Text className='home-phone muted'>{maskPhone(user?.phone ?? '')}</Text>
        </View>
      </View>
      <Invitations />
      <Cell.Group className='home-cells'>
        <Cell title='当前地图' extra={user?.select_groupname} />
        <Cell className='home-vip' title='会员' extra={goes(membershipLabel(user?.group_vip, new Date()))} clickable onClick={() => navigate('/vip')} />
        <Cell title='我的身份' extra={session.is_admin ? '管理员' : '成员'} />
      </Cell.Group>
      <Cell.Group className='home-cells'>
        <Cell title='返回地图' extra={goes()} clickable onClick={() => navigate('/map', 'relaunch')} />
        <Cell className='home-team' title='团队成员' extra={goes(session.is_admin || user?.is_manager ? '邀请、角色' : '')} clickable onClick={() => navigate('/group')} />
        {session.is_admin || user?.is_manager ? <Cell className='home-departments' title='部门管理' extra={goes()} clickable onClick={() => navigate('/department')} /> : null}
        <Cell className='home-tasks' title='任务中心' extra={goes(holdsModule(user?.modules, PERM.MODULE_DISPATCH) ? '' : '签到记录')} clickable onClick={() => navigate('/task')} />
        {featureOpen(FEATURES.routing, user?.modules) ? <Cell className='home-routes' title='路线规划' extra={goes()} clickable onClick={() => navigate('/route')} /> : null}
        {featureOpen(FEATURES.share, user?.modules) ? <Cell className='home-shares' title='分享管理' extra={goes()} clickable onClick={() => navigate('/share/management')} /> : null}
        {featureOpen(FEATURES.log, user?.modules) ? <Cell className='home-oplog' title='操作日志' extra={goes()} clickable onClick={() => navigate('/oplog')} /> : null}
        <Cell className='home-orders' title='我的订单' extra={goes()} clickable onClick={() => navigate('/order')} />
      </Cell.Group>
      <Cell.Group className='home-cells'>
        <Cell className='home-myinfo' title='我的信息' extra={goes()} clickable onClick={() => navigate('/myinfo')} />
        <Cell className='home-setting' title='设置' extra={goes()} clickable onClick={() => navigate('/system/setting')} />
        <Cell className='home-service' title='联系客服' clickable onClick={() => app.setServiceSheet(true)} />
        <Cell className='home-about' title='关于' extra={goes()} clickable onClick={() => navigate('/about')} />
        <Cell title='注销账号' extra={goes()} clickable onClick={() => navigate('/logoff')} />
      </Cell.Group>
      <View className='page-pad'>
        <Button className='home-logout' block type='danger' fill='outline' onClick={() => setConfirmLogout(true)}>
          退出登录
        </Button>
      </View>
      <Dialog
        title='退出登录'
        visible={confirmLogout}
        content={unsynced ?? '确定退出当前账号吗？'}
        confirmText={unsynced ? OUTBOX_MSG.logoutAnyway : '退出'}
        cancelText='取消'
        onConfirm={() => {
          setConfirmLogout(false)
          void session.logout()
        }}
        onCancel={() => setConfirmLogout(false)}
      />
    </PageShell>
  )
}

export default observer(HomePage)
