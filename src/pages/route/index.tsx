/**
 * /route: the routes the user sees (managers: the team's; others: their own) with travel
 * mode, distance and time, first and last stop; open one (/route/add?id=), share it (share type 3
 * through the share dialog, loaded on first use), delete it after a confirmation.
 */
import { Button, SearchBar, Tag } from '@nutui/nutui-react-taro'
import { Text, View } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import { lazy, Suspense, useEffect, useState } from 'react'
import type { SavedRoute } from '../../../types/routes'
import { PageShell } from '../../components/PageShell'
import { ROUTE_MSG } from '../../domain/routeMessages'
import { TRAVEL_MODE_NAMES, formatRouteSummary, isEstimate } from '../../domain/routes'
import { dateTime } from '../../domain/time'
import { useStores } from '../../stores/context'
import { useShareForward } from '../../hooks/useShareForward'
import './index.scss'
import { routeStores } from '../../stores/routeStores'
import { DeleteConfirm } from '../../components/DeleteConfirm'
import { LoadMore } from '../../components/LoadMore'

/** The share dialog loads when a route is first shared. */
const ShareDialog = lazy(() => import('../../components/ShareDialog').then((m) => ({ default: m.ShareDialog })))

const RouteItem = observer(function RouteItem({ route, onDelete }: { route: SavedRoute; onDelete: (r: SavedRoute) => void }) {
  const root = useStores(routeStores)
  const store = root.route
  const first = route.stops[0]?.name ?? ''
  const last = route.stops[route.stops.length - 1]?.name ?? ''
  const byOther = route.creator.id !== root.session.user?.id
  return (
    <View className='route-item'>
      <View className='route-item__head' onClick={() => root.navigate(`/route/add?id=${route.id}`)}>
        <Tag type='primary' className='route-item__mode'>
          {TRAVEL_MODE_NAMES[route.mode]}
        </Tag>
        <Text className='route-item__name'>{route.name}</Text>
      </View>
      <Text className='route-item__summary'>
        {formatRouteSummary(route.distance, route.duration)}
        {isEstimate(route) ? <Text className='route-item__estimate muted'>（直线估算）</Text> : null}
      </Text>
      <Text className='route-item__meta muted'>
        {first} → {last} · {route.stops.length}个站点
      </Text>
      <Text className='route-item__meta muted'>
        {byOther && route.creator.nickname ? `${route.creator.nickname} · ` : ''}
        {dateTime(route.updated_at)}
      </Text>
      <View className='route-item__actions'>
        <Button size='small' fill='outline' type='primary' className='route-item__open' onClick={() => root.navigate(`/route/add?id=${route.id}`)}>
          {store.canAdd ? '查看/编辑' : '查看'}
        </Button>
        <Button size='small' fill='outline' type='primary' className='route-item__map' onClick={() => root.navigate(`/map?route=${route.id}`)}>
          地图查看
        </Button>
        {store.canShare ? (
          <Button size='small' fill='outline' type='primary' className='route-item__share' onClick={() => store.share(route)}>
            分享
          </Button>
        ) : null}
        {store.canDelete ? (
          <Button size='small' fill='outline' type='danger' className='route-item__delete' onClick={() => onDelete(route)}>
            删除
          </Button>
        ) : null}
      </View>
    </View>
  )
})

const RouteList = observer(function RouteList() {
  const root = useStores(routeStores)
  const { app } = root
  const store = root.route
  const [deleting, setDeleting] = useState<SavedRoute | null>(null)
  const [kw, setKw] = useState(store.kw)
  // Once asked for, the share dialog stays mounted (it keeps its own open/closed state and the success dialog).
  const [shareUsed, setShareUsed] = useState(false)
  useEffect(() => {
    if (app.share_request) setShareUsed(true)
  }, [app.share_request])

  useEffect(() => {
    void store.load(1)
  }, [store])

  return (
    <View className='routes'>
      <View className='routes-bar'>
        <SearchBar className='routes-search' placeholder='搜索路线名称' value={kw} onChange={(v) => setKw(v)} onSearch={(v) => void store.search(v)} onClear={() => void store.search('')} />
        {store.canAdd ? (
          <Button type='primary' size='small' className='routes-add' onClick={() => root.navigate('/route/add')}>
            新建路线
          </Button>
        ) : null}
      </View>
      {store.page > 0 && !store.list.length ? <Text className='routes-empty muted'>{store.kw.trim() ? ROUTE_MSG.listSearchEmpty : ROUTE_MSG.empty}</Text> : null}
      {store.list.map((r) => (
        <RouteItem key={r.id} route={r} onDelete={setDeleting} />
      ))}
      <LoadMore more={store.hasMore} loading={store.loadingList} onMore={() => void store.loadMore()} />
      <DeleteConfirm title='删除路线' subject={deleting} message={(r) => ROUTE_MSG.deleteConfirm(r.name)} onDelete={(r) => void store.remove(r.id)} onClose={() => setDeleting(null)} />
      {shareUsed || app.share_request ? (
        <Suspense fallback={null}>
          <ShareDialog />
        </Suspense>
      ) : null}
    </View>
  )
})

function RoutePage() {
  useShareForward()
  return (
    <PageShell className='routes-page'>
      <RouteList />
    </PageShell>
  )
}

export default observer(RoutePage)
