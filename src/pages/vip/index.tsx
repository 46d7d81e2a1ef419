/**
 * /vip, the membership centre (SPEC 2/3/9): the team's level and expiry, what it uses
 * against its limits (as bars, beyond the SPEC), the questionnaire's extra trial days, the three
 * products with the server's prices, a discount code, and buying (administrator only). In the
 * mini-program on iOS (app.canBuyMembership false) only the level, limits and expiry show.
 */
import { Button, Input, Progress, Tag } from '@nutui/nutui-react-taro'
import { Text, View } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import { useEffect } from 'react'
import { PageShell } from '../../components/PageShell'
import { SandboxPayDialog } from '../../components/VipPay'
import { VIP_MSG } from '../../domain/vipMessages'
import { formatStorage, LEVEL } from '../../domain/tiers'
import { formatFen, productAction, usageMeters } from '../../domain/vip'
import { dateTime } from '../../domain/time'
import { useStores } from '../../stores/context'
import './index.scss'
import { vipStores } from '../../stores/vipStores'

const METER_COLOR = { ok: '#165DFF', warn: '#FF7D00', over: '#F53F3F' } as const

const VipCentre = observer(function VipCentre() {
  const { vip, app, navigate } = useStores(vipStores)
  const info = vip.info

  useEffect(() => {
    void vip.load()
  }, [vip])

  if (!info) return null
  const status = info.level === LEVEL.FREE ? '免费版，无到期时间' : info.expired ? `已于 ${dateTime(info.vip_exp!)} 到期` : `有效期至 ${dateTime(info.vip_exp!)}（剩余${info.days_left}天）`

  return (
    <View className='vip'>
      <View className={`vip-card ${info.expired ? 'vip-card--expired' : ''}`}>
        <View className='vip-card__head'>
          <Text className='vip-card__level'>{info.level_name}</Text>
          {info.expired ? <Tag type='danger'>已过期</Tag> : null}
          {info.custom ? <Tag type='warning'>定制</Tag> : null}
        </View>
        <Text className='vip-card__exp'>{status}</Text>
        {info.hidden_markers > 0 && info.restore_until ? (
          <Text className='vip-card__hidden'>
            {app.canBuyMembership ? `${info.hidden_markers}条标注因重置为免费版被隐藏，${dateTime(info.restore_until)}前续费可恢复` : `${info.hidden_markers}条标注因重置为免费版被隐藏`}
          </Text>
        ) : null}
      </View>

      <View className='vip-section'>
        <Text className='vip-section__title'>{info.expired ? '用量（已按免费版额度计算）' : '用量'}</Text>
        {usageMeters(info).map((m) => (
          <View key={m.key} className={`vip-meter vip-meter--${m.key} vip-meter--${m.state}`}>
            <View className='vip-meter__head'>
              <Text className='vip-meter__label'>{m.label}</Text>
              <Text className='vip-meter__text'>{m.text}</Text>
            </View>
            <Progress percent={m.percent} color={METER_COLOR[m.state]} strokeWidth='8' showText={false} />
          </View>
        ))}
      </View>

      {info.can_get_trial_bonus ? (
        <View className='vip-section vip-bonus'>
          <Text className='vip-bonus__text'>填写问卷，试用期再延长30天</Text>
          <Button size='small' type='primary' className='vip-bonus__button' onClick={() => void vip.openVerify()}>
            填写问卷
          </Button>
        </View>
      ) : null}

      {app.canBuyMembership ? <VipProducts /> : null}

      <View className='vip-links'>
        {app.canBuyMembership ? (
          <Button block fill='outline' className='vip-orders' onClick={() => navigate('/order')}>
            我的订单
          </Button>
        ) : null}
        <Button block fill='none' className='vip-service' onClick={() => app.setServiceSheet(true)}>
          联系客服
        </Button>
      </View>
      {app.canBuyMembership ? <SandboxPayDialog /> : null}
    </View>
  )
})

/** The products with their prices, the discount code and the buy buttons (where buying is allowed). */
const VipProducts = observer(function VipProducts() {
  const { vip } = useStores(vipStores)
  const info = vip.info
  if (!info) return null
  const now = new Date()
  return (
    <View className='vip-section'>
      <Text className='vip-section__title'>会员套餐（每次购买一年）</Text>
      {vip.products.map(({ product, price }) => {
        const action = productAction({ level: info.level, vip_exp: info.vip_exp }, product, now)
        return (
          <View key={product.id} className={`vip-product vip-product--${product.id}`}>
            <View className='vip-product__info'>
              <Text className='vip-product__name'>{product.name}</Text>
              <Text className='vip-product__limits muted'>{`${product.marker_limit}条标注 · ${product.join_limit}名协作成员 · ${formatStorage(product.file_size_limit)}存储`}</Text>
            </View>
            <View className='vip-product__buy'>
              <Text className='vip-product__price'>{`¥${formatFen(price.amount)}`}</Text>
              {price.discount_amount > 0 ? <Text className='vip-product__list muted'>{`¥${formatFen(price.price)}`}</Text> : null}
              {vip.isAdmin ? (
                <Button size='small' type='primary' className='vip-product__button' disabled={!!action.disabledReason || vip.buying} onClick={() => void vip.buy(product.id)}>
                  {action.label}
                </Button>
              ) : null}
            </View>
          </View>
        )
      })}
      {vip.isAdmin ? (
        <View className='vip-discount'>
          <Input className='vip-discount__input' placeholder='优惠码（选填）' value={vip.discountCode} maxLength={64} onChange={(v) => vip.setDiscountCode(v)} />
          <Button size='small' fill='outline' type='primary' onClick={() => void vip.checkDiscount()}>
            使用
          </Button>
        </View>
      ) : (
        <Text className='vip-admin-only muted'>{VIP_MSG.buyAdminOnly}</Text>
      )}
      {vip.discount ? <Text className='vip-discount__ok'>{`已使用优惠码 ${vip.discount.discount.code}：${vip.discount.discount.name}`}</Text> : null}
    </View>
  )
})

function VipPage() {
  return (
    <PageShell className='vip-page'>
      <VipCentre />
    </PageShell>
  )
}

export default observer(VipPage)
