import { Category, Location, Plus, Search, User } from '@nutui/icons-react-taro'
import { Avatar, Button, Loading } from '@nutui/nutui-react-taro'
import { Text, View } from '@tarojs/components'
import { useRouter } from '@tarojs/taro'
import { observer } from 'mobx-react-lite'
import { lazy, startTransition, Suspense, useCallback, useEffect, useState } from 'react'
import type { MarkerType } from '../../../types/mapdata'
import { PageShell } from '../../components/PageShell'
import { LOCATION_SHARE_MSG } from '../../domain/consentMessages'
import { NOTICE_ACTION_MS } from '../../domain/constants'
import { DEFAULT_CENTER } from '../../domain/geo'
import { withoutClusterCounts } from '../../domain/mapSettings'
import { MAP_MSG, MAP_UI_MSG } from '../../domain/messages'
import { MARKER_TYPE_NAMES } from '../../domain/points'
import { membershipLabel } from '../../domain/tiers'
import { FEATURES, featureOffer } from '../../domain/moduleGate'
import { MapView } from '../../components/MapView'
import { useStores } from '../../stores/context'
import { useShareForward } from '../../hooks/useShareForward'
import { SyncChip } from '../../components/SyncChip'
import { syncStores } from '../../stores/syncStores'
import { Spinner } from '../../components/Spinner'
import { MEASURE_MSG } from '../../domain/measureMessages'
import './index.scss'
import { MARKER_KIND, isPoint } from '../../domain/markerKinds'
import {
  AddSheetOnDemand,
  BasemapSheetOnDemand,
  ConflictSheetOnDemand,
  FilterSheetOnDemand,
  LayerPanelOnDemand,
  MarkerDetailOnDemand,
  MeasureBarOnDemand,
  OutboxSheetOnDemand,
  SearchPanelOnDemand,
} from './onDemand'

/** The share dialog loads when it is first opened (keeps the /map bundle within its budget). */
const ShareDialog = lazy(() => import('../../components/ShareDialog').then((m) => ({ default: m.ShareDialog })))

/** Loads the map data once the guard let the page in (PageShell renders children only then). */
function MapData() {
  const { layers, markers, map, app, offlineCache } = useStores(syncStores)
  // /map?route=<id> (from the route list) draws that saved route and frames it.
  const routeId = Number(useRouter().params.route ?? '')
  useEffect(() => {
    // Without network the loads below are answered from what this phone saved.
    offlineCache.serve()
    if (Number.isInteger(routeId) && routeId > 0) void map.showRoute(routeId)
    void layers
      .load()
      .then((ok) => ok && markers.loadShown())
      // A first look at the team's data: frame all of it, unless the user left the map somewhere or asked for a route.
      .then(async (ok) => {
        if (ok && !app.map_view && !(routeId > 0)) {
          await map.loadEngine()
          map.fitData()
        }
      })
    void layers.loadTitleStyles()
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the map's first load, once per page: later changes of the view or the route parameter must not re-run it
  }, [])
  return null
}

/** The saved route drawn on the map: its name and figures, to its page, or off the map. */
const RouteCard = observer(function RouteCard() {
  const { map, navigate } = useStores()
  const r = map.route
  if (!r) return null
  return (
    <View className='map-route'>
      <View className='map-route__text' onClick={() => navigate(`/route/add?id=${r.id}`)}>
        <Text className='map-route__name'>路线：{r.name}</Text>
        <Text className='map-route__summary muted'>{r.summary}</Text>
      </View>
      <Button size='small' fill='outline' className='map-route__close' onClick={() => map.clearRoute()}>
        关闭
      </Button>
    </View>
  )
})

/** The bar shown while a marker is being drawn: what to tap next, undo, finish, cancel. */
const DrawingBar = observer(function DrawingBar() {
  const { map } = useStores()
  const d = map.drawing
  if (!d) return null
  const fixed = isPoint(d.type) || d.type === MARKER_KIND.rectangle || d.type === MARKER_KIND.circle
  return (
    <View className='map-drawing'>
      <Text className='map-drawing__title'>正在绘制{MARKER_TYPE_NAMES[d.type as MarkerType]}</Text>
      <Text className='map-drawing__hint'>{map.drawingHint}</Text>
      <View className='map-drawing__buttons'>
        <Button size='small' fill='outline' disabled={map.vertexCount === 0} onClick={() => map.undoVertex()}>
          撤销
        </Button>
        {d.type === MARKER_KIND.multiPolygon ? (
          <Button size='small' fill='outline' onClick={() => map.addPart()}>
            新增一部分
          </Button>
        ) : null}
        {!fixed ? (
          <Button size='small' type='primary' onClick={() => map.finishDrawing()}>
            完成
          </Button>
        ) : null}
        <Button size='small' fill='outline' onClick={() => map.cancelDrawing()}>
          取消
        </Button>
      </View>
    </View>
  )
})

/** The bar shown while a saved marker's vertices are moved: hint, save, cancel. */
const EditingBar = observer(function EditingBar() {
  const { map } = useStores()
  const e = map.editing
  if (!e) return null
  return (
    <View className='map-drawing'>
      <Text className='map-drawing__title'>调整“{e.marker.name}”的位置</Text>
      <Text className='map-drawing__hint'>{map.editingHint}</Text>
      <View className='map-drawing__buttons'>
        <Button size='small' type='primary' loading={map.savingGeometry} onClick={() => void map.saveGeometry()}>
          保存位置
        </Button>
        <Button size='small' fill='none' onClick={() => map.cancelEditGeometry()}>
          取消
        </Button>
      </View>
    </View>
  )
})

/**
 * The map and what it draws. Its own observer: a pan or a zoom gives a new draw list, which renders
 * this and the count below the map, not the whole page with its bars, tools and sheets (on a slow
 * phone, a good part of the task after each move).
 */
const MapCanvas = observer(function MapCanvas({ onSwitchTiles }: { onSwitchTiles: () => void }) {
  const { app, map, layers, platform } = useStores()
  const center = app.self_location ?? app.map_view?.center ?? DEFAULT_CENTER
  // eslint-disable-next-line react-hooks/exhaustive-deps -- a new function whenever the title styles change, so that the map redraws its titles
  const titleStyleOf = useCallback((id: number) => layers.titleStyleFor(id), [layers.titleStyles])
  return (
    <MapView
      center={center}
      zoom={app.map_view?.zoom ?? 11}
      className='map-view'
      draw={app.clusterCountShown ? map.drawList : withoutClusterCounts(map.drawList)}
      selectedId={map.selectedId}
      draft={map.drawing ?? map.measure.draft}
      tapsToMap={map.measure.active}
      editing={map.editGeometry}
      titleStyleOf={titleStyleOf}
      target={map.target}
      members={map.members}
      self={app.self_location}
      onReady={() => map.setLoaderState('loaded')}
      basemap={app.basemap}
      tileSource={app.tile_source}
      onError={(msg) => {
        map.setLoaderState('failed')
        app.notify(msg, 'danger')
      }}
      onBasemapError={() =>
        // Where another source can be chosen, the notice offers it (OpenStreetMap is often blocked in China).
        platform.mapCapabilities.tileSources?.length
          ? app.notify(MAP_MSG.basemapFailed, 'warning', NOTICE_ACTION_MS, { label: MAP_UI_MSG.switchTiles, run: onSwitchTiles })
          : app.notify(MAP_MSG.basemapFailed, 'warning')
      }
      onViewChange={(v) => map.setView(v)}
      onMarkerTap={(id) => map.tapMarker(id)}
      onClusterTap={(c) => map.tapCluster(c)}
      onMapTap={(p) => map.tapMap(p)}
      onVertexMove={(part, vertex, p) => map.moveVertex(part, vertex, p)}
      onVertexTap={(part, vertex) => map.selectVertex(part, vertex)}
      onShapesDrawn={() => map.shapesDrawn()}
    />
  )
})

/**
 * How many points and lines/areas are in view; for tests and the bench, data-loaded (the markers
 * loaded) and data-indexed (the markers in the draw index the view is computed from, built after them).
 */
const MapCount = observer(function MapCount() {
  const { map, markers } = useStores()
  const index = map.index
  return (
    <View className='map-count muted' data-loaded={markers.loading ? 'loading' : String(markers.count)} data-indexed={index ? index.points.length + index.shapes.length : 0}>
      {map.heatmap ? `热力图 · ${map.drawList.pointsInView}个点` : `视野内 ${map.drawList.pointsInView}个点 · ${map.drawList.shapes.length}条线/面`}
    </View>
  )
})

/** The quiet line saying the user's position goes to their team now (settings turns it off). */
const LocationShareLine = observer(function LocationShareLine() {
  const { tracker, session } = useStores()
  return tracker.sharedWithTeam ? <View className='map-location-share muted'>{LOCATION_SHARE_MSG.sharing(session.user?.select_groupname ?? '')}</View> : null
})

/**
 * The notice while lines and areas are drawn. Its own observer: it comes and goes with many pans and zooms, and
 * the page around it (its bars, tools and closed sheets) has nothing to render anew for it.
 */
const ShapesLoading = observer(function ShapesLoading() {
  const { map } = useStores()
  return map.shapesLoading ? (
    <View className='map-shapes-loading'>
      <Loading icon={<Spinner />}>正在绘制线和面…</Loading>
    </View>
  ) : null
})

/** The bars at the top: the team, membership and sync state, the user, and the search and filter entries (or the drawing bars). */
const MapTop = observer(function MapTop({ onSearch, onFilter }: { onSearch: () => void; onFilter: () => void }) {
  const { session, navigate, map, markers } = useStores()
  const user = session.user
  return map.measure.active ? (
    <View className='map-top'>
      <MeasureBarOnDemand />
    </View>
  ) : map.drawing || map.editing ? (
    <View className='map-top'>
      <DrawingBar />
      <EditingBar />
    </View>
  ) : (
    <View className='map-top'>
      <View className='map-header'>
        <View className='map-header__text'>
          <Text className='map-group'>{user?.select_groupname}</Text>
          <View className='map-header__line'>
            <Text className='map-level' onClick={() => navigate('/vip')}>
              {membershipLabel(user?.group_vip, new Date())}
            </Text>
            <SyncChip />
          </View>
        </View>
        <View className='map-me' onClick={() => navigate('/home')}>
          <Avatar size='small' src={user?.avatar || ''} className='map-avatar'>
            {(user?.nickname || '我').slice(0, 1)}
          </Avatar>
          <Text className='map-nickname'>{user?.nickname}</Text>
        </View>
      </View>
      <View className='map-search-row'>
        <View className='map-search-entry' onClick={onSearch}>
          <Search size={14} color='#86909C' />
          <Text className='map-search-entry__text'>搜索标注</Text>
        </View>
        <View className={`map-filter-entry ${markers.filterActive ? 'map-filter-entry--on' : ''}`} onClick={onFilter}>
          <Text>{markers.filterActive ? '已筛选' : '筛选'}</Text>
        </View>
      </View>
    </View>
  )
})

/** The tools down the map's right side: base map, heat map, members, measure, locate, layers, print, add. */
const MapTools = observer(function MapTools({ onBasemap, onLayers, onAdd }: { onBasemap: () => void; onLayers: () => void; onAdd: () => void }) {
  const { map, tracker, session, navigate } = useStores()
  // 打印 prints the view; with the tier locking the module its page offers the membership.
  const printOffer = featureOffer(FEATURES.print, session.user?.modules, session.user?.level ?? 0)
  const locateMe = async () => {
    const p = await tracker.locateNow()
    if (!p) return
    map.moveTo(p.lng, p.lat, 16)
    void map.reportPosition(p)
  }
  return (
    <View className='map-tools'>
      <View className='map-tool' onClick={onBasemap}>
        <Text className='map-tool__glyph map-tool__glyph--blue'>图</Text>
        <Text className='map-tool__label'>底图</Text>
      </View>
      <View className={`map-tool ${map.heatmap ? 'map-tool--on' : ''}`} onClick={() => map.setHeatmap(!map.heatmap)}>
        <Text className='map-tool__glyph'>热</Text>
        <Text className='map-tool__label'>{map.heatmap ? '关闭热力' : '热力图'}</Text>
      </View>
      <View className={`map-tool ${map.showMembers ? 'map-tool--on' : ''}`} onClick={() => void map.setShowMembers(!map.showMembers)}>
        <User size={20} color='#165DFF' />
        <Text className='map-tool__label'>{map.showMembers ? '隐藏成员' : '成员位置'}</Text>
      </View>
      <View className={`map-tool map-tool--measure ${map.measure.active ? 'map-tool--on' : ''}`} onClick={() => (map.measure.active ? map.measure.stop() : map.measure.start('length'))}>
        <Text className='map-tool__glyph map-tool__glyph--blue'>测</Text>
        <Text className='map-tool__label'>{MEASURE_MSG.tool}</Text>
      </View>
      <View className='map-tool' onClick={() => void locateMe()}>
        <Location size={20} color='#165DFF' />
        <Text className='map-tool__label'>定位</Text>
      </View>
      <View className='map-tool' onClick={onLayers}>
        <Category size={20} color='#165DFF' />
        <Text className='map-tool__label'>图层</Text>
      </View>
      {printOffer !== 'hidden' ? (
        <View className='map-tool map-tool--print' onClick={() => navigate('/print?view=1')}>
          <Text className='map-tool__glyph map-tool__glyph--blue'>印</Text>
          <Text className='map-tool__label'>打印</Text>
          {printOffer === 'vip' ? <Text className='map-tool__vip'>VIP</Text> : null}
        </View>
      ) : null}
      <View className='map-tool map-tool--primary' onClick={onAdd}>
        <Plus size={20} color='#FFFFFF' />
        <Text className='map-tool__label'>添加</Text>
      </View>
    </View>
  )
})

function MapPage() {
  const { app, map, tracker, consent } = useStores()
  useShareForward()
  // Once asked for, the share dialog stays mounted (it keeps its own open/closed state).
  const [shareUsed, setShareUsed] = useState(false)
  useEffect(() => {
    if (app.share_request) setShareUsed(true)
  }, [app.share_request])
  const [panel, setPanel] = useState(false)
  const [search, setSearch] = useState(false)
  const [adding, setAdding] = useState(false)
  const [basemapOpen, setBasemapOpen] = useState(false)
  const [filterOpen, setFilterOpen] = useState(false)
  useEffect(() => {
    if (map.loaderState === 'notload') map.setLoaderState('loading')
    void map.loadEngine()
  }, [map])
  // The map renders first, then the bars at the top, then the tools and sheets, each in a transition,
  // which React renders in slices between other tasks: on a slow phone the whole page in one render
  // was a 100 ms task between the sign-in and the map, and its first layout (shaping the bars' text)
  // was another.
  const [stage, setStage] = useState(0)
  useEffect(() => {
    if (stage < 2) startTransition(() => setStage(stage + 1))
  }, [stage])

  // Tracking goes on by itself where location access was granted before (SPEC 4 location).
  useEffect(() => {
    void tracker.loadSharing()
    void tracker.resume()
  }, [tracker])
  // A team's invitation waiting for the user's answer is asked once per sign-in or start.
  useEffect(() => {
    void consent.loadInvitations()
  }, [consent])

  return (
    <PageShell className='map-page'>
      <MapData />
      <View className='map-area'>
        <MapCanvas onSwitchTiles={() => setBasemapOpen(true)} />
      </View>
      {stage >= 1 ? <MapTop onSearch={() => setSearch(true)} onFilter={() => setFilterOpen(true)} /> : null}
      {stage >= 2 ? (
        <>
          <ShapesLoading />
          <MapTools onBasemap={() => setBasemapOpen(true)} onLayers={() => setPanel(true)} onAdd={() => setAdding(true)} />
          <RouteCard />
          <MapCount />
          <LocationShareLine />
          <AddSheetOnDemand visible={adding} onClose={() => setAdding(false)} />
          <BasemapSheetOnDemand visible={basemapOpen} onClose={() => setBasemapOpen(false)} />
          <FilterSheetOnDemand visible={filterOpen} onClose={() => setFilterOpen(false)} />
          <LayerPanelOnDemand visible={panel} onClose={() => setPanel(false)} />
          <SearchPanelOnDemand visible={search} onClose={() => setSearch(false)} />
          <MarkerDetailOnDemand />
          <ConflictSheetOnDemand />
          <OutboxSheetOnDemand />
          {shareUsed || app.share_request ? (
            <Suspense fallback={null}>
              <ShareDialog />
            </Suspense>
          ) : null}
        </>
      ) : null}
    </PageShell>
  )
}

export default observer(MapPage)
