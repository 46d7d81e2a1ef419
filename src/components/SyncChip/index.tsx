/** The map's sync status: 已同步 / 同步中 / 离线, how many teammates have the map open, and what waits in the outbox (a tap opens it). */
import { Tag } from '@nutui/nutui-react-taro'
import { Text } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import { SYNC_MSG } from '../../domain/syncMessages'
import { OUTBOX_MSG } from '../../domain/outboxMessages'
import { useStores } from '../../stores/context'
import { syncStores } from '../../stores/syncStores'
import './index.scss'

const TAG_TYPE = { synced: 'success', syncing: 'primary', offline: 'default' } as const

export const SyncChip = observer(function SyncChip() {
  const { sync, outbox } = useStores(syncStores)
  const others = sync.othersOnline
  const waiting = outbox.count
  if (waiting > 0) {
    const failed = outbox.failedCount
    return (
      <Tag type={failed ? 'warning' : 'primary'} plain round className={`sync-chip sync-chip--pending${failed ? ' sync-chip--failed' : ''}`} onClick={() => outbox.openSheet()}>
        {OUTBOX_MSG.pending(waiting)}
        {failed ? <Text className='sync-chip__failed'>{` · ${OUTBOX_MSG.failed(failed)}`}</Text> : null}
      </Tag>
    )
  }
  return (
    <Tag type={TAG_TYPE[sync.status]} plain round className={`sync-chip sync-chip--${sync.status}`}>
      {sync.statusText}
      {others > 0 ? ` · ${SYNC_MSG.online(others)}` : ''}
    </Tag>
  )
})
