/**
 * The outbox sheet (opened from the sync chip): each save waiting to reach the server, what it is,
 * which marker, its state and the server's words for a refusal, with 重试 and 放弃 (after a dialog
 * that says what is lost).
 */
import { Button, Dialog, Popup } from '@nutui/nutui-react-taro'
import { Text, View } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import { OUTBOX_MSG, outboxKindLabel } from '../../domain/outboxMessages'
import { useStores } from '../../stores/context'
import { syncStores } from '../../stores/syncStores'
import './index.scss'

export const OutboxSheet = observer(function OutboxSheet() {
  const { outbox } = useStores(syncStores)
  const asked = outbox.confirming
  return (
    <>
      <Popup visible={outbox.sheetOpen} position='bottom' round closeable title={OUTBOX_MSG.sheetTitle} className='outbox-sheet' onClose={() => outbox.closeSheet()}>
        <View className='outbox-sheet__body'>
          {outbox.shown.length === 0 ? <Text className='outbox-sheet__empty'>{OUTBOX_MSG.empty}</Text> : null}
          {outbox.shown.map((it) => (
            <View key={it.client_id} className={`outbox-item outbox-item--${it.status}`}>
              <View className='outbox-item__main'>
                <View className='outbox-item__head'>
                  <Text className='outbox-item__kind'>{outboxKindLabel(it)}</Text>
                  <Text className={`outbox-item__status outbox-item__status--${it.status}`}>{outbox.statusOf(it)}</Text>
                </View>
                <Text className='outbox-item__subject'>{outbox.subjectOf(it)}</Text>
                {it.status === 'refused' && it.error ? <Text className='outbox-item__error'>{it.error}</Text> : null}
              </View>
              <View className='outbox-item__actions'>
                {it.status === 'refused' ? (
                  <Button size='small' type='primary' fill='outline' className='outbox-item__retry' onClick={() => void outbox.retry(it)}>
                    {OUTBOX_MSG.retry}
                  </Button>
                ) : null}
                <Button size='small' type='default' fill='outline' className='outbox-item__discard' disabled={it.client_id === outbox.sending} onClick={() => outbox.askDiscard(it)}>
                  {OUTBOX_MSG.discard}
                </Button>
              </View>
            </View>
          ))}
          {outbox.shown.length ? (
            <Button block type='primary' className='outbox-sheet__retry-all' loading={!!outbox.sending} onClick={() => void outbox.retry()}>
              {OUTBOX_MSG.retryAll}
            </Button>
          ) : null}
        </View>
      </Popup>
      <Dialog
        className='outbox-discard-dialog'
        title={OUTBOX_MSG.discardTitle}
        visible={!!asked}
        content={asked ? outbox.discardText(asked) : ''}
        confirmText={OUTBOX_MSG.confirmDiscard}
        cancelText={OUTBOX_MSG.cancel}
        onConfirm={() => {
          if (asked) void outbox.discard(asked)
        }}
        onCancel={() => outbox.askDiscard(null)}
      />
    </>
  )
})
