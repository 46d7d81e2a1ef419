/**
 * The 获取验证码 button of every form that confirms a phone by SMS (/login, /reg): asks the session
 * store for a code and shows its cooldown countdown, shared by those pages.
 */
import { Button } from '@nutui/nutui-react-taro'
import { observer } from 'mobx-react-lite'
import { useStores } from '../../stores/context'

export const SendCodeButton = observer(function SendCodeButton({ phone, className }: { phone: string; className?: string }) {
  const { session } = useStores()
  const countdown = session.codeCountdown
  return (
    <Button className={className} size='small' fill='outline' type='primary' disabled={countdown > 0 || session.sendingCode} onClick={() => void session.sendCode(phone)}>
      {countdown > 0 ? `${countdown}秒后重新获取` : '获取验证码'}
    </Button>
  )
})
