/**
 * The mini-program's privacy agreement in the app's own dialog: shown when WeChat holds a private
 * API (a position, a photo, the clipboard, a chat file) until the user agrees. It says what is
 * collected and why, opens the console's guide (查看《隐私保护指引》), and answers WeChat: 同意并继续 is
 * a button with open-type agreePrivacyAuthorization (WeChat accepts an agreement only from such a
 * tap), 拒绝 lets the waiting call fail with a Chinese message while the app stays usable.
 * PageShell loads it only when it is due.
 */
import { Dialog } from '@nutui/nutui-react-taro'
import { Button, Text, View } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import { PRIVACY_MSG } from '../../domain/privacy'
import { useStores } from '../../stores/context'
import './index.scss'

const AGREE_BUTTON_ID = 'privacy-agree'

function PrivacyDialog() {
  const { app } = useStores()
  return (
    <Dialog
      className='privacy-dialog'
      title={PRIVACY_MSG.title}
      visible={app.privacy_asking}
      closeOnOverlayClick={false}
      footer={
        <View className='privacy-dialog__actions'>
          <Button className='privacy-dialog__refuse' onClick={() => app.refusePrivacy()}>
            {PRIVACY_MSG.refuse}
          </Button>
          <Button id={AGREE_BUTTON_ID} className='privacy-dialog__agree' openType='agreePrivacyAuthorization' onAgreePrivacyAuthorization={() => app.agreePrivacy(AGREE_BUTTON_ID)}>
            {PRIVACY_MSG.agree}
          </Button>
        </View>
      }
    >
      <View className='privacy-dialog__body'>
        <Text className='privacy-dialog__intro'>{PRIVACY_MSG.intro}</Text>
        <Text className='privacy-dialog__link' onClick={() => void app.openPrivacyContract()}>
          {PRIVACY_MSG.contractLink}
        </Text>
      </View>
    </Dialog>
  )
}

export default observer(PrivacyDialog)
