/**
 * /distribution/view?code= (SPEC 2 "distribution view", public). The promoter who
 * registered the code on this device sees their own page: the invitation link as a QR code with
 * 复制链接, how many signed up through it and paid, and 进入应用. Anyone else sees the invitation:
 * who invites, the link and 立即使用 (no figures: they are the promoter's). Both get the app download
 * page. An unknown code shows 推广码无效 and no code offers /reg, each with a plain 进入应用.
 */
import { Failure, Link, Tips } from '@nutui/icons-react-taro'
import { Button, Empty } from '@nutui/nutui-react-taro'
import { Image, Text, View } from '@tarojs/components'
import { useDidShow, useRouter } from '@tarojs/taro'
import { observer } from 'mobx-react-lite'
import { PageShell } from '../../../components/PageShell'
import { DEFAULT_SYSTEM_CONFIG } from '../../../domain/constants'
import { inviteLinkParts } from '../../../domain/distribution'
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
  const own = store.isOwn
  const brand = root.app.system_config.brand || DEFAULT_SYSTEM_CONFIG.brand
  const [linkHead, linkCode] = inviteLinkParts(store.inviteLink)
  return (
    <>
      {own ? (
        <View className='dist-hero dist-hero--own'>
          <Text className='dist-own-title'>{DIST_MSG.ownTitle}</Text>
          <Text className='dist-own-name'>{view.company ? `${view.name} · ${view.company}` : view.name}</Text>
          <Text className='dist-own-hint muted'>{DIST_MSG.ownHint}</Text>
        </View>
      ) : (
        <View className='dist-hero'>
          <View className='dist-avatar'>{Array.from(view.name)[0]}</View>
          <Text className='dist-inviter'>{DIST_MSG.inviter(view.name)}</Text>
          <Text className='dist-brand'>{brand}</Text>
          {view.company ? <Text className='dist-company muted'>{view.company}</Text> : null}
        </View>
      )}
      <View className='dist-card dist-invite'>
        <Text className='dist-card__title'>{DIST_MSG.inviteLinkTitle}</Text>
        <Image className='dist-qr' src={qrDataUrl(store.inviteLink)} showMenuByLongpress />
        <Text className='dist-qr-tip muted'>{DIST_MSG.qrTip}</Text>
        <Text className='dist-link' userSelect>
          {linkHead}
          <Text className='dist-link__code'>{linkCode}</Text>
        </Text>
        <View className='dist-actions'>
          <Button className='dist-copy' fill='outline' type='primary' onClick={() => void store.copyLink()}>
            {DIST_MSG.copyLink}
          </Button>
          {own ? (
            <Button className='dist-enter' type='primary' onClick={() => store.enterApp()}>
              {DIST_MSG.enterApp}
            </Button>
          ) : (
            <Button className='dist-use' type='primary' onClick={() => store.useNow()}>
              {DIST_MSG.useNow}
            </Button>
          )}
        </View>
      </View>
      {own ? <Stats /> : null}
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

/** The promoter's figures: only on their own page. */
const Stats = observer(function Stats() {
  const view = useStores(distributionStores).distribution.view!
  return (
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
      <Button block fill='outline' type='primary' className='dist-enter' onClick={() => store.enterApp()}>
        {DIST_MSG.enterApp}
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
  return <PageShell className='dist-page'>{state === 'ready' && distribution.view ? <Promotion /> : state === 'invalid' || state === 'missing' || state === 'failed' ? <Problem /> : null}</PageShell>
}

export default observer(DistributionViewPage)
