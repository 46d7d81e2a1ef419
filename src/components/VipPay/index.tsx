/**
 * The local payment sandbox's confirmation (issue 7): a server without WeChat Pay merchant
 * credentials completes orders itself, so that the whole purchase can be tried on this machine.
 * Shown by the pages that start a payment (/vip, /order).
 */
import { Dialog } from '@nutui/nutui-react-taro'
import { observer } from 'mobx-react-lite'
import { formatFen } from '../../domain/vip'
import { useStores } from '../../stores/context'
import { vipStores } from '../../stores/vipStores'

export const SandboxPayDialog = observer(function SandboxPayDialog() {
  const { vip } = useStores(vipStores)
  const order = vip.sandboxOrder
  return (
    <Dialog
      className='sandbox-pay'
      title='模拟支付'
      visible={!!order}
      closeOnOverlayClick={false}
      content={order ? `本服务器未配置微信支付商户号，将用本地沙箱完成支付：${order.product_name}，¥${formatFen(order.amount)}` : ''}
      confirmText='确认支付'
      cancelText='取消'
      onConfirm={() => void vip.confirmSandbox()}
      onCancel={() => vip.dismissSandbox()}
    />
  )
})
