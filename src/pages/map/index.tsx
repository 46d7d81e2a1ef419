import { Category, Plus, Search } from '@nutui/icons-react-taro'
import { Avatar, Button, Cell, Popup, SearchBar } from '@nutui/nutui-react-taro'
import { Text, View } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import { useEffect, useState } from 'react'
import { LayerPanel } from '../../components/LayerPanel'
import { MarkerDetail } from '../../components/MarkerDetail'
import { PageShell } from '../../components/PageShell'
import { DEFAULT_CENTER } from '../../domain/geo'
import { MAP_UI_MSG } from '../../domain/messages'
import { MARKER_TYPE_NAMES } from '../../domain/points'
import { membershipLabel } from '../../domain/tiers'
import { MapView } from '../../platform/map/MapView'
import { useStores } from '../../stores/context'
import './index.scss'

/** Loads the map data once the guard let the page in (PageShell renders children only then). */
function MapData() {
  const { layers, markers } = useStores()
  useEffect(() => {
    void layers.load().then((ok) => ok && markers.loadShown())
    void layers.loadTitleStyles()
  }, [])
  return null
}

const SearchPanel = observer(function SearchPanel({ visible, onClose }: { visible: boolean; onClose: () => void }) {
  const { markers, layers } = useStores()
  const [kw, setKw] = useState(markers.searchKw)

  return (
    <Popup visible={visible} position='top' className='map-search' onClose={onClose}>
      <View className='map-search__bar'>
        <SearchBar
          className='map-search__input'
          placeholder='搜索标注名称、备注、字段内容'
          value={kw}
          onChange={(v) => setKw(v)}
          onSearch={(v) => void markers.search(v)}
          onClear={() => markers.clearSearch()}
          right={
            <Text className='map-search__go' onClick={() => void markers.search(kw)}>
              搜索
            </Text>
          }
        />
        <Text className='map-search__cancel' onClick={onClose}>
          取消
        </Text>
      </View>
      <View className='map-search__results'>
        {markers.searched && !markers.searchResults.length ? <Text className='map-search__empty'>{MAP_UI_MSG.searchEmpty}</Text> : null}
        {markers.searchResults.map((m) => (
          <Cell
            key={m.id}
            clickable
            title={m.name}
            description={`${MARKER_TYPE_NAMES[m.type]} · ${layers.pathLabel(m.layer_id) || '图层'}`}
            onClick={() => {
              onClose()
              void markers.openDetail(m.id)
            }}
          />
        ))}
        {markers.canSearchMore ? (
          <Button className='map-search__more' block fill='none' loading={markers.searching} onClick={() => void markers.searchMore()}>
            加载更多
          </Button>
        ) : null}
        {markers.searched && markers.searchResults.length ? <Text className='map-search__total muted'>共{markers.searchTotal}个结果</Text> : null}
      </View>
    </Popup>
  )
})

function MapPage() {
  const { session, app, navigate } = useStores()
  const [panel, setPanel] = useState(false)
  const [search, setSearch] = useState(false)
  const user = session.user
  const center = app.self_location ?? app.map_view?.center ?? DEFAULT_CENTER

  return (
    <PageShell className='map-page'>
      <MapData />
      <View className='map-area'>
        <MapView center={center} zoom={app.map_view?.zoom ?? 11} className='map-view' onError={(msg) => app.notify(msg, 'danger')} />
      </View>
      <View className='map-top'>
        <View className='map-header'>
          <View className='map-header__text'>
            <Text className='map-group'>{user?.select_groupname}</Text>
            <Text className='map-level'>{membershipLabel(user?.group_vip, new Date())}</Text>
          </View>
          <View className='map-me' onClick={() => navigate('/home')}>
            <Avatar size='small' src={user?.avatar || ''} className='map-avatar'>
              {(user?.nickname || '我').slice(0, 1)}
            </Avatar>
            <Text className='map-nickname'>{user?.nickname}</Text>
          </View>
        </View>
        <View className='map-search-entry' onClick={() => setSearch(true)}>
          <Search size={14} color='#86909C' />
          <Text className='map-search-entry__text'>搜索标注</Text>
        </View>
      </View>
      <View className='map-tools'>
        <View className='map-tool' onClick={() => setPanel(true)}>
          <Category size={20} color='#165DFF' />
          <Text className='map-tool__label'>图层</Text>
        </View>
        <View className='map-tool map-tool--primary' onClick={() => navigate('/addinfo')}>
          <Plus size={20} color='#FFFFFF' />
          <Text className='map-tool__label'>添加</Text>
        </View>
      </View>
      <LayerPanel visible={panel} onClose={() => setPanel(false)} />
      <SearchPanel visible={search} onClose={() => setSearch(false)} />
      <MarkerDetail />
    </PageShell>
  )
}

export default observer(MapPage)
