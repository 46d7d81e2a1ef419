/**
 * /share/management: the group's shares — mine, or all for managers — with kind, creator,
 * created time, expiry state and password; copy the link, open it, delete it (the link dies at once).
 */
import { Button, Dialog, Radio, Tag } from '@nutui/nutui-react-taro'
import { Text, View } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import { useEffect, useState } from 'react'
import type { Share } from '../../../types/share'
import { PageShell } from '../../components/PageShell'
import { SHARE_KIND_NAMES, shareExpiry } from '../../domain/share'
import { dateTime } from '../../domain/time'
import { useStores } from '../../stores/context'
import './index.scss'
import { shareStores } from '../../stores/shareStores'
import { LoadMore } from '../../components/LoadMore'

function ShareExpiryLine({ share }: { share: Share }) {
  const { text, tone } = shareExpiry(share.exp, share.expired, new Date())
  return <Text className={`share-item__exp share-item__exp--${tone}`}>{text}</Text>
}

const ShareList = observer(function ShareList() {
  const { shares, layers } = useStores(shareStores)
  const [deleting, setDeleting] = useState<Share | null>(null)

  useEffect(() => {
    if (!layers.loaded) void layers.load()
    void shares.load(1)
  }, [layers, shares])

  const dataLabel = (s: Share) => (s.type === 1 ? s.data_ids.map((id) => layers.byId.get(id)?.name ?? `#${id}`).join('、') : `${s.data_ids.length}个${SHARE_KIND_NAMES[s.type]}`)

  return (
    <View className='shares'>
      {shares.isManager ? (
        <View className='shares-scope'>
          <Radio.Group value={shares.scope} direction='horizontal' onChange={(v) => void shares.setScope(v as 'mine' | 'all')}>
            <Radio value='mine' shape='button'>
              我的分享
            </Radio>
            <Radio value='all' shape='button'>
              团队全部
            </Radio>
          </Radio.Group>
        </View>
      ) : null}
      {shares.page > 0 && !shares.list.length ? <Text className='shares-empty muted'>还没有分享，在图层面板或标注详情中点“分享”创建</Text> : null}
      {shares.list.map((s) => (
        <View key={s.id} className='share-item'>
          <View className='share-item__head'>
            <Tag type='primary' className='share-item__kind'>
              {SHARE_KIND_NAMES[s.type]}
            </Tag>
            <Text className='share-item__name'>{s.name}</Text>
          </View>
          <Text className='share-item__meta muted'>{dataLabel(s)}</Text>
          <Text className='share-item__meta muted'>
            {s.op_user.nickname} · {dateTime(s.addtime)}
            {s.need_pwd ? ' · 有密码' : ''}
          </Text>
          <ShareExpiryLine share={s} />
          <View className='share-item__actions'>
            <Button size='small' fill='outline' type='primary' className='share-item__copy' onClick={() => void shares.copy(shares.linkOf(s))}>
              复制链接
            </Button>
            <Button size='small' fill='outline' type='danger' className='share-item__delete' onClick={() => setDeleting(s)}>
              删除
            </Button>
          </View>
        </View>
      ))}
      <LoadMore more={shares.hasMore} loading={shares.loadingList} onMore={() => void shares.loadMore()} />
      <Dialog
        className='dialog--destructive'
        title='删除分享'
        visible={!!deleting}
        content={deleting ? `确定删除「${deleting.name}」吗？删除后链接立即失效。` : ''}
        confirmText='删除'
        cancelText='取消'
        onConfirm={() => {
          const s = deleting
          setDeleting(null)
          if (s) void shares.remove(s.id)
        }}
        onCancel={() => setDeleting(null)}
      />
    </View>
  )
})

function ShareManagementPage() {
  return (
    <PageShell className='shares-page'>
      <ShareList />
    </PageShell>
  )
}

export default observer(ShareManagementPage)
