/**
 * /order: the team's membership orders with their state (a waiting order past its pay
 * window reads as closed), amount and discount; a waiting order can be paid or cancelled.
 */
import { Button, Dialog, Tag } from '@nutui/nutui-react-taro'
import { Text, View } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import { useEffect, useState } from 'react'
import type { VipOrder } from '../../../types/vip'
import { PageShell } from '../../components/PageShell'
import { SandboxPayDialog } from '../../components/VipPay'
import { ORDER_STATUS_TEXT } from '../../domain/vipMessages'
import { dateTime } from '../../domain/time'
import { formatFen, orderStatusAt } from '../../domain/vip'
import { useStores } from '../../stores/context'
import './index.scss'
import { vipStores } from '../../stores/vipStores'
import { LoadMore } from '../../components/LoadMore'

const STATUS_TAG = ['warning', 'success', 'default', 'default'] as const

const OrderList = observer(function OrderList() {
  const { vip, navigate } = useStores(vipStores)
  const [cancelling, setCancelling] = useState<VipOrder | null>(null)

  useEffect(() => {
    void vip.loadOrders(1)
  }, [vip])

  const now = new Date()
  return (
    <View className='orders'>
      {vip.ordersPage > 0 && !vip.orders.length ? (
        <View className='orders-empty'>
          <Text className='muted'>还没有订单</Text>
          <Button size='small' type='primary' onClick={() => navigate('/vip')}>
            去会员中心
          </Button>
        </View>
      ) : null}
      {vip.orders.map((o) => {
        const status = orderStatusAt(o, now)
        return (
          <View key={o.id} className={`order-item order-item--${status}`}>
            <View className='order-item__head'>
              <Text className='order-item__name'>{o.product_name}</Text>
              <Tag type={STATUS_TAG[status]} className='order-item__status'>
                {ORDER_STATUS_TEXT[status]}
              </Tag>
            </View>
            <Text className='order-item__meta muted'>{`订单号 ${o.order_no}`}</Text>
            <Text className='order-item__meta muted'>{`下单时间 ${dateTime(o.created_at)}`}</Text>
            {o.paid_at ? <Text className='order-item__meta muted'>{`支付时间 ${dateTime(o.paid_at)}`}</Text> : null}
            <View className='order-item__amount'>
              <Text className='order-item__price'>{`¥${formatFen(o.amount)}`}</Text>
              {o.discount_amount > 0 ? <Text className='muted'>{`（优惠码 ${o.discount_code} 减 ¥${formatFen(o.discount_amount)}）`}</Text> : null}
            </View>
            {status === 1 && o.vip_exp_after ? <Text className='order-item__meta'>{`会员有效期至 ${dateTime(o.vip_exp_after)}`}</Text> : null}
            {status === 0 ? (
              <View className='order-item__actions'>
                <Button size='small' type='primary' className='order-item__pay' onClick={() => void vip.pay(o)}>
                  去支付
                </Button>
                <Button size='small' fill='outline' className='order-item__cancel' onClick={() => setCancelling(o)}>
                  取消订单
                </Button>
              </View>
            ) : null}
          </View>
        )
      })}
      <LoadMore more={vip.hasMoreOrders} loading={vip.loadingOrders} onMore={() => void vip.loadMoreOrders()} />
      <Dialog
        className='dialog--destructive'
        title='取消订单'
        visible={!!cancelling}
        content={cancelling ? `确定取消「${cancelling.product_name}」的订单吗？` : ''}
        confirmText='取消订单'
        cancelText='再想想'
        onConfirm={() => {
          const o = cancelling
          setCancelling(null)
          if (o) void vip.cancelOrder(o.id)
        }}
        onCancel={() => setCancelling(null)}
      />
      <SandboxPayDialog />
    </View>
  )
})

function OrderPage() {
  return (
    <PageShell className='order-page'>
      <OrderList />
    </PageShell>
  )
}

export default observer(OrderPage)
