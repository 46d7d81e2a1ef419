import { Avatar } from '@nutui/nutui-react-taro'
import { Text, View } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import { PageShell } from '../../components/PageShell'
import { DEFAULT_CENTER } from '../../domain/geo'
import { membershipLabel } from '../../domain/tiers'
import { MapView } from '../../platform/map/MapView'
import { useStores } from '../../stores/context'
import './index.scss'

function MapPage() {
  const { session, app, navigate } = useStores()
  const user = session.user
  const center = app.self_location ?? app.map_view?.center ?? DEFAULT_CENTER

  return (
    <PageShell className='map-page'>
      <View className='map-area'>
        <MapView center={center} zoom={app.map_view?.zoom ?? 11} className='map-view' onError={(msg) => app.notify(msg, 'danger')} />
      </View>
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
    </PageShell>
  )
}

export default observer(MapPage)
