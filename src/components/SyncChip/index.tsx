/** The map's sync status: 已同步 / 同步中 / 离线, and how many teammates have the map open. */
import { Tag } from '@nutui/nutui-react-taro'
import { observer } from 'mobx-react-lite'
import { SYNC_MSG } from '../../domain/syncMessages'
import { useStores } from '../../stores/context'
import { syncStores } from '../../stores/syncStores'
import './index.scss'

const TAG_TYPE = { synced: 'success', syncing: 'primary', offline: 'default' } as const

export const SyncChip = observer(function SyncChip() {
  const { sync } = useStores(syncStores)
  const others = sync.othersOnline
  return (
    <Tag type={TAG_TYPE[sync.status]} plain round className={`sync-chip sync-chip--${sync.status}`}>
      {sync.statusText}
      {others > 0 ? ` · ${SYNC_MSG.online(others)}` : ''}
    </Tag>
  )
})
