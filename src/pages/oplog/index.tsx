/** /oplog: the operation log, newest first, filtered by entity and action; restorable deletes have 恢复. */
import { Button, Dialog, Radio, Tag } from '@nutui/nutui-react-taro'
import { Text, View } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import { useEffect, useState } from 'react'
import type { OpAction, OpEntity, OpLog } from '../../../types/mapdata'
import { PageShell } from '../../components/PageShell'
import { MAP_UI_MSG } from '../../domain/messages'
import { DATA_LIST_MSG } from '../../domain/dataListMessages'
import { dateTime } from '../../domain/time'
import { useStores } from '../../stores/context'
import { oplogStores } from '../../stores/oplogStores'
import { OP_ACTION_NAMES, OP_ENTITY_NAMES, describeChanges } from '../../stores/OpLogStore'
import './index.scss'

const ENTITY_FILTERS: { value: OpEntity | ''; label: string }[] = [{ value: '', label: '全部' }, ...(Object.keys(OP_ENTITY_NAMES) as OpEntity[]).map((k) => ({ value: k, label: OP_ENTITY_NAMES[k] }))]
const ACTION_FILTERS: { value: OpAction | ''; label: string }[] = [{ value: '', label: '全部' }, ...(Object.keys(OP_ACTION_NAMES) as OpAction[]).map((k) => ({ value: k, label: OP_ACTION_NAMES[k] }))]
const ACTION_TAG: Record<OpAction, 'success' | 'primary' | 'danger' | 'warning'> = { create: 'success', update: 'primary', delete: 'danger', restore: 'warning' }

/** One row of choices above the log (all, or one entity / action). */
function FilterRow({ label, value, options, onChange }: { label: string; value: string; options: { value: string; label: string }[]; onChange: (v: string) => void }) {
  return (
    <View className='oplog-filter'>
      <Text className='oplog-filter__label'>{label}</Text>
      <Radio.Group value={value} direction='horizontal' onChange={(v) => onChange(String(v))}>
        {options.map((f) => (
          <Radio key={f.value || 'all'} value={f.value} shape='button' className='oplog-filter__item'>
            {f.label}
          </Radio>
        ))}
      </Radio.Group>
    </View>
  )
}

const LogList = observer(function LogList() {
  const { oplog, layers } = useStores(oplogStores)
  const [restoring, setRestoring] = useState<OpLog | null>(null)
  const [batch, setBatch] = useState<string | null>(null)

  useEffect(() => {
    if (!layers.loaded) void layers.load()
    void oplog.load()
  }, [layers, oplog])

  return (
    <View className='oplog'>
      <View className='oplog-filters'>
        <FilterRow label='对象' value={oplog.entity} options={ENTITY_FILTERS} onChange={(v) => void oplog.setEntity(v as OpEntity | '')} />
        <FilterRow label='操作' value={oplog.action} options={ACTION_FILTERS} onChange={(v) => void oplog.setAction(v as OpAction | '')} />
      </View>

      {oplog.page > 0 && !oplog.list.length ? <Text className='oplog-empty'>暂无操作记录</Text> : null}

      {oplog.list.map((log) => {
        const changes = describeChanges(log, (id) => layers.pathLabel(id))
        return (
          <View key={log.id} className='oplog-item'>
            <View className='oplog-item__head'>
              <Tag type={ACTION_TAG[log.action]} className='oplog-item__tag'>
                {OP_ACTION_NAMES[log.action]}
              </Tag>
              <Text className='oplog-item__what'>
                {OP_ENTITY_NAMES[log.entity]}「{log.name}」
              </Text>
            </View>
            <Text className='oplog-item__meta muted'>
              {log.user_name} · {dateTime(log.at)}
            </Text>
            {changes.length ? (
              <View className='oplog-item__changes'>
                {changes.map((c) => (
                  <Text key={c.label} className='oplog-item__change'>
                    {c.label}：{log.action === 'update' ? `${c.before} → ${c.after}` : log.action === 'delete' ? c.before : c.after}
                  </Text>
                ))}
              </View>
            ) : null}
            {log.batch_id ? (
              <View className='oplog-item__actions'>
                <Button size='small' fill='outline' onClick={() => setBatch(log.batch_id ?? null)}>
                  {DATA_LIST_MSG.restoreBatch}
                </Button>
              </View>
            ) : null}
            {oplog.canRestore(log) ? (
              <View className='oplog-item__actions'>
                <Button size='small' type='primary' fill='outline' loading={oplog.restoringId === log.id} onClick={() => setRestoring(log)}>
                  恢复
                </Button>
              </View>
            ) : null}
          </View>
        )
      })}

      {oplog.canLoadMore ? (
        <Button className='oplog-more' block fill='none' loading={oplog.loading} onClick={() => void oplog.loadMore()}>
          加载更多
        </Button>
      ) : oplog.list.length ? (
        <Text className='oplog-end muted'>没有更多了</Text>
      ) : null}

      <Dialog
        title={DATA_LIST_MSG.restoreBatch}
        visible={!!batch}
        content={DATA_LIST_MSG.restoreBatchConfirm}
        confirmText='恢复'
        cancelText='取消'
        onConfirm={() => {
          const id = batch
          setBatch(null)
          if (id) void oplog.restoreBatch(id)
        }}
        onCancel={() => setBatch(null)}
      />

      <Dialog
        title='恢复数据'
        visible={!!restoring}
        content={restoring ? MAP_UI_MSG.restoreConfirm(restoring.name) : ''}
        confirmText='恢复'
        cancelText='取消'
        onConfirm={() => {
          const log = restoring
          setRestoring(null)
          if (log) void oplog.restore(log)
        }}
        onCancel={() => setRestoring(null)}
      />
    </View>
  )
})

function OpLogPage() {
  return (
    <PageShell className='oplog-page'>
      <LogList />
    </PageShell>
  )
}

export default observer(OpLogPage)
