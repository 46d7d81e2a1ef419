/**
 * The check-in records (contract in the helpers' brief): my check-ins, or everyone's for
 * managers and sign_list holders (SPEC 3), newest first with paging; each with user, time, address,
 * target and distance, photos (tap: preview with long-press 保存图片) and whether the server's
 * signature still holds (已校验 / 校验失败 with the reason); 校验照片 has the server hash one record's
 * photo files again (a page never reads them). 去签到 opens the check-in sheet.
 */
import { Button, Image, Tag } from '@nutui/nutui-react-taro'
import { Text, View } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import { lazy, Suspense, useEffect, useState } from 'react'
import type { SignRecord } from '../../../types/signs'
import { CHECKIN_MSG } from '../../domain/checkinMessages'
import { formatSignDistance, shanghaiDateTime } from '../../domain/watermark'
import { useStores } from '../../stores/context'
import { signStores } from '../../stores/signStores'
import { PhotoPreview } from '../PhotoPreview'
import './index.scss'

const CheckInSheet = lazy(() => import('../CheckInSheet'))

export interface SignListProps {
  taskId?: number
  markerId?: number
}

function targetText(r: SignRecord): string {
  if (r.target.kind === 'free') return CHECKIN_MSG.free
  const distance = r.distance === null ? '' : ` · 距离 ${formatSignDistance(r.distance)}`
  return `${r.target.kind === 'task' ? '任务' : '签到点'} ${r.target.name || '—'}${distance}`
}

function SignList({ taskId, markerId }: SignListProps) {
  const { sign } = useStores(signStores)
  const [checkIn, setCheckIn] = useState(false)
  const [preview, setPreview] = useState<{ urls: string[]; index: number } | null>(null)

  useEffect(() => {
    void sign.open({ taskId, markerId })
  }, [taskId, markerId, sign])

  return (
    <View className='sign-list' data-testid='sign-list'>
      <View className='sign-list__head'>
        {sign.canSeeAll ? (
          <View className='sign-list__scopes'>
            {(['mine', 'all'] as const).map((s) => (
              <Text key={s} className={`sign-list__scope ${sign.scope === s ? 'sign-list__scope--on' : ''}`} onClick={() => void sign.setScope(s)}>
                {s === 'mine' ? CHECKIN_MSG.mine : CHECKIN_MSG.all}
              </Text>
            ))}
          </View>
        ) : (
          <Text className='sign-list__title'>{CHECKIN_MSG.mine}</Text>
        )}
        <Button size='small' type='primary' className='sign-list__go' onClick={() => setCheckIn(true)}>
          {CHECKIN_MSG.goSign}
        </Button>
      </View>

      {sign.list.length === 0 && !sign.loading ? <Text className='sign-list__empty'>{CHECKIN_MSG.empty}</Text> : null}
      {sign.list.map((r) => (
        <View key={r.id} className='sign-record' data-testid='sign-record'>
          <View className='sign-record__head'>
            <Text className='sign-record__user'>{r.user.nickname}</Text>
            <Text className='sign-record__time'>{shanghaiDateTime(r.time)}</Text>
          </View>
          <View className='sign-record__badges'>
            {r.verified ? (
              <Tag type='success' className='sign-record__verified'>
                {CHECKIN_MSG.verified}
              </Tag>
            ) : (
              <Tag type='danger' className='sign-record__failed'>
                {CHECKIN_MSG.verifyFailed}
                {r.verify_failure ? `：${CHECKIN_MSG.verifyReason[r.verify_failure]}` : ''}
              </Tag>
            )}
            <Text className='sign-record__code'>校验码 {r.code}</Text>
            {r.photos.length && r.verified ? (
              sign.photosChecked.has(r.id) ? (
                <Text className='sign-record__photos-checked'>{CHECKIN_MSG.photosChecked}</Text>
              ) : (
                <Text className='sign-record__check-photos' onClick={() => void sign.checkPhotos(r.id)}>
                  {sign.checkingId === r.id ? '…' : CHECKIN_MSG.checkPhotos}
                </Text>
              )
            ) : null}
          </View>
          <Text className='sign-record__line'>{targetText(r)}</Text>
          <Text className='sign-record__line sign-record__addr'>{r.addr || `${r.lng.toFixed(6)}, ${r.lat.toFixed(6)}`}</Text>
          {r.remark ? <Text className='sign-record__line sign-record__remark'>{r.remark}</Text> : null}
          {r.photos.length ? (
            <View className='sign-record__photos'>
              {r.photos.map((p, i) => (
                <Image
                  key={p.url}
                  className='sign-record__photo'
                  src={sign.photoUrl(p.url)}
                  mode='aspectFill'
                  width='72'
                  height='72'
                  onClick={() => setPreview({ urls: r.photos.map((x) => sign.photoUrl(x.url)), index: i })}
                />
              ))}
            </View>
          ) : null}
        </View>
      ))}
      {sign.hasMore ? (
        <Button size='small' fill='none' block loading={sign.loading} onClick={() => void sign.loadMore()}>
          {CHECKIN_MSG.loadMore}
        </Button>
      ) : sign.list.length > 0 ? (
        <Text className='sign-list__end'>{CHECKIN_MSG.noMore}</Text>
      ) : null}

      {checkIn ? (
        <Suspense fallback={null}>
          <CheckInSheet visible={checkIn} target={{}} onDone={() => setCheckIn(false)} onClose={() => setCheckIn(false)} />
        </Suspense>
      ) : null}
      <PhotoPreview urls={preview?.urls ?? []} index={preview?.index ?? 0} visible={!!preview} onClose={() => setPreview(null)} />
    </View>
  )
}

export default observer(SignList)
