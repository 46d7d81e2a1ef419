/**
 * /share/view?id= (public, no login): the password prompt when the share has one, then
 * the shared layers and markers on the map with only the controls the share's mask allows (title,
 * search, toolbox, refresh, toggle title, locate on mobile, the attached map style), and a clear
 * page for expired, deleted or unknown shares.
 */
import { Category, Eye, Location, Refresh, Zoom } from '@nutui/icons-react-taro'
import { Button, Input, SearchBar } from '@nutui/nutui-react-taro'
import { Text, View } from '@tarojs/components'
import { useRouter, useShareAppMessage, useShareTimeline } from '@tarojs/taro'
import { observer } from 'mobx-react-lite'
import { useEffect, useState } from 'react'
import { PageShell } from '../../../components/PageShell'
import { SHARE_BTN } from '../../../domain/constants'
import { MAP_MSG } from '../../../domain/messages'
import { SHARE_MSG } from '../../../domain/shareMessages'
import { MARKER_TYPE_NAMES } from '../../../domain/points'
import { SHARE_KIND_NAMES, shareExpiry } from '../../../domain/share'
import { MapView } from '../../../components/MapView'
import { NavigateButton } from '../../../components/NavigateButton'
import { markerNavPlace } from '../../../domain/markerPlace'
import { useStores } from '../../../stores/context'
import './index.scss'
import { shareViewStores } from '../../../stores/shareViewStores'

const DEFAULT_CENTER = { lng: 116.397428, lat: 39.90923 }

function Blocked({ title, text }: { title: string; text: string }) {
  return (
    <View className='share-blocked'>
      <Text className='share-blocked__title'>{title}</Text>
      <Text className='share-blocked__text muted'>{text}</Text>
    </View>
  )
}

const Password = observer(function Password() {
  const { shareView: v } = useStores(shareViewStores)
  const [pwd, setPwd] = useState('')
  return (
    <View className='share-pwd'>
      <Text className='share-pwd__title'>{v.meta?.name}</Text>
      <Text className='share-pwd__sub muted'>
        {v.meta?.op_user.nickname ? `${v.meta.op_user.nickname}分享的` : ''}
        {v.meta ? SHARE_KIND_NAMES[v.meta.type] : ''}数据，需要密码查看
      </Text>
      <Input className='share-pwd__input' name='share-pwd' type='password' placeholder='请输入分享密码' maxLength={6} value={pwd} onChange={(x) => setPwd(x)} />
      {v.error ? <Text className='share-pwd__error'>{v.error}</Text> : null}
      <Button block type='primary' className='share-pwd__submit' loading={v.checking} onClick={() => void v.checkPassword(pwd)}>
        查看
      </Button>
    </View>
  )
})

const SharedMap = observer(function SharedMap() {
  const { shareView: v, app, platform } = useStores(shareViewStores)
  const [layersOpen, setLayersOpen] = useState(false)
  const style = v.flag(SHARE_BTN.MAP_STYLE) ? v.meta?.style : null
  const basemap = style ? { ...style, satellite: style.type === 1, roadnet: false, traffic: style.traffic } : undefined
  const selected = v.selected
  const expiry = v.meta ? shareExpiry(v.meta.exp, v.meta.expired, new Date()) : null

  const locateMe = async () => {
    try {
      const p = await platform.geo.locate()
      v.moveTo(p.lng, p.lat, 16)
    } catch {
      app.notify('定位失败，请检查定位权限', 'warning')
    }
  }

  return (
    <View className='share-map'>
      <MapView
        center={v.target ?? DEFAULT_CENTER}
        zoom={v.target?.zoom ?? 11}
        className='share-map__view'
        draw={v.drawList}
        selectedId={v.selectedId}
        titleStyleOf={v.titlesOn ? v.titleStyleOf : undefined}
        target={v.target}
        basemap={basemap}
        tileSource={app.tile_source}
        onViewChange={(view) => v.setView(view)}
        onMarkerTap={(id) => v.select(id)}
        onClusterTap={(c) => v.tapCluster(c)}
        onMapTap={() => v.select(null)}
        onError={(msg) => app.notify(msg, 'danger')}
        onBasemapError={() => app.notify(MAP_MSG.basemapFailed, 'warning')}
      />
      <View className='share-top'>
        <View className='share-head'>
          <View className='share-head__row'>
            <Text className='share-head__name'>{v.meta?.name}</Text>
            <Text className='share-head__count muted' data-count={v.markers.length}>
              共{v.markers.length}个标注
            </Text>
          </View>
          <View className='share-head__row share-head__sub'>
            {expiry ? <Text className={`share-head__exp share-head__exp--${expiry.tone}`}>{expiry.text}</Text> : null}
            <Text className='share-head__brand'>{app.system_config.brand || '团队地图'}</Text>
          </View>
        </View>
        {v.flag(SHARE_BTN.SEARCH) ? <SearchBar className='share-search' placeholder='搜索分享的标注' value={v.keyword} onChange={(kw) => v.setKeyword(kw)} /> : null}
      </View>
      <View className='map-tools share-tools'>
        {v.flag(SHARE_BTN.TOOLBOX) ? (
          <>
            <View className={`map-tool share-tool share-tool--layers ${layersOpen ? 'map-tool--on' : ''}`} onClick={() => setLayersOpen(!layersOpen)}>
              <Category size={20} color='#165DFF' />
              <Text className='map-tool__label'>图层</Text>
            </View>
            <View className='map-tool share-tool share-tool--fit' onClick={() => v.fit()}>
              <Zoom size={20} color='#165DFF' />
              <Text className='map-tool__label'>全览</Text>
            </View>
          </>
        ) : null}
        {v.flag(SHARE_BTN.TOGGLE_TITLE) ? (
          <View className={`map-tool share-tool share-tool--titles ${v.titlesOn ? '' : 'map-tool--on'}`} onClick={() => v.toggleTitles()}>
            <Eye size={20} color='#165DFF' />
            <Text className='map-tool__label'>{v.titlesOn ? '隐藏名称' : '显示名称'}</Text>
          </View>
        ) : null}
        {v.flag(SHARE_BTN.REFRESH) ? (
          <View className='map-tool share-tool share-tool--refresh' onClick={() => void v.reload()}>
            <Refresh size={20} color='#165DFF' />
            <Text className='map-tool__label'>刷新</Text>
          </View>
        ) : null}
        {/* SPEC 9: flag 32, locate, is for phones only. */}
        {v.flag(SHARE_BTN.LOCATE) && platform.device.kind() === 'mobile' ? (
          <View className='map-tool share-tool share-tool--locate' onClick={() => void locateMe()}>
            <Location size={20} color='#165DFF' />
            <Text className='map-tool__label'>定位</Text>
          </View>
        ) : null}
      </View>
      {layersOpen ? (
        <View className='share-layers'>
          {v.layers.map((l) => (
            <View key={l.id} className={`share-layer ${v.hiddenLayerIds.includes(l.id) ? 'share-layer--off' : ''}`} onClick={() => v.toggleLayer(l.id)}>
              <Text>{l.name}</Text>
              <Text className='muted'>{v.hiddenLayerIds.includes(l.id) ? '已隐藏' : '显示中'}</Text>
            </View>
          ))}
        </View>
      ) : null}
      {selected ? (
        <View className='share-detail'>
          <View className='share-detail__head'>
            <Text className='share-detail__name'>{selected.name}</Text>
            <Text className='share-detail__close' onClick={() => v.select(null)}>
              关闭
            </Text>
          </View>
          <View className='share-detail__row'>
            <Text className='share-detail__meta muted'>
              {v.layerName(selected.layer_id)} · {MARKER_TYPE_NAMES[selected.type]}
            </Text>
            <NavigateButton place={markerNavPlace(selected)} className='share-detail__navigate' />
          </View>
        </View>
      ) : null}
    </View>
  )
})

const ShareView = observer(function ShareView() {
  const { shareView: v } = useStores(shareViewStores)
  switch (v.state) {
    case 'password':
      return <Password />
    case 'ready':
      return <SharedMap />
    case 'expired':
      return <Blocked title={SHARE_MSG.expired} text='该分享已超过有效期，请联系分享者重新分享' />
    case 'missing':
      return <Blocked title={SHARE_MSG.notFound} text='链接可能有误，或分享者已删除该分享' />
    case 'failed':
      return <Blocked title='加载失败' text={v.error} />
    default:
      return <Blocked title='加载中…' text='' />
  }
})

function ShareViewPage() {
  const { shareView } = useStores(shareViewStores)
  const router = useRouter()
  const id = router.params.id ? decodeURIComponent(router.params.id) : ''

  useEffect(() => {
    void shareView.open(id)
  }, [id, shareView])

  // weapp: forwarding this page in a chat opens the same share, its card showing the share's map;
  // Moments is offered for public shares only (the store withdraws it for a password share).
  useShareAppMessage(() => {
    const { title, path, imageUrl } = shareView.forward
    return { title, path, imageUrl }
  })
  useShareTimeline(() => {
    const { title, query, imageUrl } = shareView.forward
    return { title, query, imageUrl }
  })

  return (
    <PageShell className='share-view-page'>
      <ShareView />
    </PageShell>
  )
}

export default observer(ShareViewPage)
