/**
 * Asks the signed-in person about a team's invitation (pre/register): the team's name and who
 * invited them, 加入 or 拒绝; 稍后再说 leaves it for the next sign-in (我的 lists it meanwhile).
 */
import { Button, Dialog } from '@nutui/nutui-react-taro'
import { Text, View } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import { INVITE_MSG } from '../../domain/consentMessages'
import { useStores } from '../../stores/context'
import './index.scss'

export const InvitationDialog = observer(function InvitationDialog() {
  const { consent } = useStores()
  const invitation = consent.asking
  return (
    <Dialog
      className='invite-dialog'
      title={INVITE_MSG.title}
      visible={!!invitation}
      closeOnOverlayClick={false}
      content={
        invitation ? (
          <View className='invite-dialog__body'>
            <Text className='invite-dialog__line'>{INVITE_MSG.line(invitation.inviter_nickname, invitation.group_name)}</Text>
            {consent.invitations.length > 1 ? <Text className='invite-dialog__more muted'>{INVITE_MSG.more(consent.invitations.length - 1)}</Text> : null}
          </View>
        ) : null
      }
      footer={
        invitation ? (
          <View className='invite-dialog__actions'>
            <Button block type='primary' className='invite-dialog__accept' disabled={consent.answering} onClick={() => void consent.accept(invitation)}>
              {INVITE_MSG.accept}
            </Button>
            <Button block fill='outline' type='default' className='invite-dialog__decline' disabled={consent.answering} onClick={() => void consent.decline(invitation)}>
              {INVITE_MSG.decline}
            </Button>
            <Button block fill='none' className='invite-dialog__later' onClick={() => consent.later()}>
              {INVITE_MSG.later}
            </Button>
          </View>
        ) : null
      }
    />
  )
})

export default InvitationDialog
