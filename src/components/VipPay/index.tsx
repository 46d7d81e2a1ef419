/**
 * The local payment sandbox's confirmation: a server without WeChat Pay merchant
 * credentials completes orders itself, so that the whole purchase can be tried on this machine.
 * Shown by the pages that start a payment (/vip, /order). It names the purchase only: the server's
 * set-up is the operator's business (the server logs that it pays in the sandbox).
 */
import { Dialog } from '@nutui/nutui-react-taro'
import { observer } from 'mobx-react-lite'
import { formatFen } from '../../domain/vip'
import { VIP_MSG } from '../../domain/vipMessages'
import { useStores } from '../../stores/context'
import { vipStores } from '../../stores/vipStores'

export const SandboxPayDialog = observer(function SandboxPayDialog() {
  const { vip } = useStores(vipStores)
  const order = vip.sandboxOrder
  return (
    <Dialog
      className='sandbox-pay'
      title={VIP_MSG.sandboxPayTitle}
      visible={!!order}
      closeOnOverlayClick={false}
      content={order ? VIP_MSG.sandboxPayContent(order.product_name, formatFen(order.amount)) : ''}
      confirmText='确认支付'
      cancelText='取消'
      onConfirm={() => void vip.confirmSandbox()}
      onCancel={() => vip.dismissSandbox()}
    />
  )
})
