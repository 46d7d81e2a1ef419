/**
 * Every page renders inside PageShell: it runs the navigation guard on each page entry and hosts the
 * notice bar and the loading mask. Content shows only once the guard allows the page.
 */
import { View } from '@tarojs/components'
import { useDidHide, useDidShow } from '@tarojs/taro'
import { observer } from 'mobx-react-lite'
import { lazy, Suspense, useState, type PropsWithChildren } from 'react'
import { decideEntry, moduleBlockOf, moduleLockedByTierOf } from '../../router/entry'
import { backFallbackOf, MEMBERSHIP_PATHS, resolveRoute, START_PATHS, type RouteDef } from '../../router/routes'
import { useStores } from '../../stores/context'
import { LoadingMask } from '../LoadingMask'
import { NoticeBar } from '../NoticeBar'

// The membership dialogs load only when one is due (they stay out of every page's bundle).
const VipModals = lazy(() => import('../VipModals'))
const UpgradeDialog = lazy(() => import('../UpgradeDialog'))
const LocationPermissionDialog = lazy(() => import('../LocationPermissionDialog'))
const InvitationDialog = lazy(() => import('../InvitationDialog'))
const PrivacyDialog = lazy(() => import('../PrivacyDialog'))
// H5 has no navigation bar of its own: secondary pages get a title bar with back. It loads lazily so
// that the start pages (/login above all) carry none of it; the mini-program keeps WeChat's bar.
const PageHeader = process.env.TARO_ENV === 'h5' ? lazy(() => import('../PageHeader')) : null
/** 我的 lists the invitations itself: no dialog over the list. */
const INVITATIONS_LISTED_PATH = '/home'
/** A new user finishing the set-up is not interrupted: a due dialog waits for the map. */
const QUIET_PATHS = ['/guide', '/guide/init']

export const PageShell = observer(function PageShell({ children, className }: PropsWithChildren<{ className?: string }>) {
  const root = useStores()
  const { app } = root
  const [allowed, setAllowed] = useState(false)
  // Only the page on top hosts the global dialogs (H5 keeps earlier pages alive underneath).
  const [shown, setShown] = useState(true)
  const [path, setPath] = useState('')
  // A page of the signed-in user's own (the guide included): where a team's invitation is asked about.
  const [ownPage, setOwnPage] = useState(false)
  const [header, setHeader] = useState<RouteDef | null>(null)

  useDidShow(() => {
    setShown(true)
    const decision = decideEntry(root)
    if (decision.action === 'allow') {
      setAllowed(true)
      const route = resolveRoute(root.platform.location().pathname)
      setHeader(route && route.title && !START_PATHS.includes(route.path) ? route : null)
      // Public pages (a share link, the login page) are not about the user's own team.
      setPath(route?.access === 'login' && !QUIET_PATHS.includes(route.path) ? route.path : '')
      setOwnPage(route?.access === 'login' && route.path !== INVITATIONS_LISTED_PATH)
      if (route?.access === 'login' && !MEMBERSHIP_PATHS.includes(route.path) && root.session.loggedIn) app.checkVipPrompts()
    } else {
      setAllowed(false)
      root.navigate(decision.to, 'redirect')
    }
  })
  useDidHide(() => setShown(false))

  const vipDialogDue = app.show_vip_expired_modal || app.show_vip_exp_modal || app.show_trial_welcome || app.show_verify_modal || app.show_service_sheet

  // Read on each render so that a module granted by the group refresh opens the page at once.
  const blocked = allowed ? moduleBlockOf(root) : null

  return (
    <View className={`page ${className ?? ''}`}>
      {PageHeader && header ? (
        <Suspense fallback={<View className='page-header-slot' />}>
          <PageHeader title={header.title} fallback={backFallbackOf(header.path)} />
        </Suspense>
      ) : null}
      {blocked ? (
        <View className='page-blocked'>
          {blocked}
          {moduleLockedByTierOf(root) ? (
            <View className='page-blocked__vip' onClick={() => root.navigate('/vip')}>
              开通会员
            </View>
          ) : null}
          <View className='page-blocked__back' onClick={() => root.navigate('/map', 'relaunch')}>
            返回地图
          </View>
        </View>
      ) : allowed ? (
        children
      ) : null}
      {allowed && shown && path && vipDialogDue && root.session.loggedIn ? (
        <Suspense fallback={null}>
          <VipModals path={path} />
        </Suspense>
      ) : null}
      {allowed && shown && app.app_upgrade.show ? (
        <Suspense fallback={null}>
          <UpgradeDialog />
        </Suspense>
      ) : null}
      {allowed && shown && ownPage && root.session.loggedIn && root.consent.asking ? (
        <Suspense fallback={null}>
          <InvitationDialog />
        </Suspense>
      ) : null}
      {allowed && shown && root.tracker.showPermissionDialog ? (
        <Suspense fallback={null}>
          <LocationPermissionDialog />
        </Suspense>
      ) : null}
      {shown && app.privacy_asking ? (
        // Not behind the entry guard: the sign-in page may be the one waiting for the agreement.
        <Suspense fallback={null}>
          <PrivacyDialog />
        </Suspense>
      ) : null}
      <NoticeBar />
      <LoadingMask />
    </View>
  )
})
