/**
 * /distribution/view?code= (issue 8, SPEC 2 "distribution view", public): a promoter's page as
 * invitees and the promoter see it: who invites, the invitation link as a QR code with 复制链接 and
 * 立即使用, how many signed up through it and paid, and the app download page. An unknown code shows
 * 推广码无效; no code leads to /reg.
 */
import { Failure, Link, Tips } from '@nutui/icons-react-taro'
import { Button, Empty } from '@nutui/nutui-react-taro'
import { Image, Text, View } from '@tarojs/components'
import { useDidShow, useRouter } from '@tarojs/taro'
import { observer } from 'mobx-react-lite'
import { PageShell } from '../../../components/PageShell'
import { DEFAULT_SYSTEM_CONFIG } from '../../../domain/constants'
import { DIST_MSG } from '../../../domain/distributionMessages'
import { qrDataUrl } from '../../../domain/qr'
import { useStores } from '../../../stores/context'
import { distributionStores } from '../../../stores/distributionStores'
import './index.scss'

function decodeParam(value: string | undefined): string {
  try {
    return decodeURIComponent(value ?? '')
  } catch {
    return value ?? ''
  }
}

const Promotion = observer(function Promotion() {
  const root = useStores(distributionStores)
  const store = root.distribution
  const view = store.view!
  const brand = root.app.system_config.brand || DEFAULT_SYSTEM_CONFIG.brand
  return (
    <>
      <View className='dist-hero'>
        <View className='dist-avatar'>{Array.from(view.name)[0]}</View>
        <Text className='dist-inviter'>{DIST_MSG.inviter(view.name)}</Text>
        <Text className='dist-brand'>{brand}</Text>
        {view.company ? <Text className='dist-company muted'>{view.company}</Text> : null}
      </View>
      <View className='dist-card dist-invite'>
        <Text className='dist-card__title'>{DIST_MSG.inviteLinkTitle}</Text>
        <Image className='dist-qr' src={qrDataUrl(store.inviteLink)} showMenuByLongpress />
        <Text className='dist-qr-tip muted'>{DIST_MSG.qrTip}</Text>
        <Text className='dist-link' userSelect>
          {store.inviteLink}
        </Text>
        <View className='dist-actions'>
          <Button className='dist-copy' fill='outline' type='primary' onClick={() => void store.copyLink()}>
            {DIST_MSG.copyLink}
          </Button>
          <Button className='dist-use' type='primary' onClick={() => store.useNow()}>
            {DIST_MSG.useNow}
          </Button>
        </View>
      </View>
      <View className='dist-card'>
        <Text className='dist-card__title'>{DIST_MSG.statsTitle}</Text>
        <View className='dist-stats'>
          <View className='dist-stat'>
            <Text className='dist-stat__value dist-registered'>{view.registered}</Text>
            <Text className='dist-stat__label muted'>{DIST_MSG.registeredCount}</Text>
          </View>
          <View className='dist-stat'>
            <Text className='dist-stat__value dist-paid'>{view.paid}</Text>
            <Text className='dist-stat__label muted'>{DIST_MSG.paidCount}</Text>
          </View>
        </View>
        <Text className='dist-code muted'>
          {DIST_MSG.codeLabel} {view.code}
        </Text>
      </View>
      <View className='dist-card dist-download'>
        <View className='dist-download__text'>
          <Text className='dist-card__title'>{DIST_MSG.download}</Text>
          <Text className='muted dist-download__hint'>{DIST_MSG.downloadHint}</Text>
        </View>
        <Button className='dist-download__go' size='small' type='primary' fill='outline' onClick={() => void store.openDownload()}>
          {DIST_MSG.downloadGo}
        </Button>
      </View>
    </>
  )
})

const Problem = observer(function Problem() {
  const root = useStores(distributionStores)
  const store = root.distribution
  if (store.state === 'failed') {
    return (
      <View className='dist-problem'>
        <Empty title={DIST_MSG.loadFailed} description={store.error} image={<Failure size={72} color='#C9CDD4' />} />
        <Button block type='primary' onClick={() => void store.reload()}>
          {DIST_MSG.retry}
        </Button>
      </View>
    )
  }
  const invalid = store.state === 'invalid'
  return (
    <View className='dist-problem'>
      <Empty
        title={invalid ? DIST_MSG.codeInvalid : DIST_MSG.codeRequired}
        description={invalid ? DIST_MSG.codeInvalidHint : DIST_MSG.noCodeHint}
        image={invalid ? <Tips size={72} color='#C9CDD4' /> : <Link size={72} color='#C9CDD4' />}
      />
      <Button block type='primary' onClick={() => root.navigate('/reg')}>
        {DIST_MSG.goRegister}
      </Button>
    </View>
  )
})

function DistributionViewPage() {
  const { distribution } = useStores(distributionStores)
  const router = useRouter()
  const code = decodeParam(router.params.code)

  // Each time the page shows (back from the invitation, say), the counts are read again.
  useDidShow(() => {
    void distribution.open(code)
  })

  const state = distribution.state
  return (
    <PageShell className='dist-page'>
      {state === 'ready' && distribution.view ? <Promotion /> : state === 'invalid' || state === 'missing' || state === 'failed' ? <Problem /> : null}
    </PageShell>
  )
}

export default observer(DistributionViewPage)
