/**
 * The check-in sheet (contract in the helpers' brief): locate -> the server's ticket for the
 * target (a refusal, e.g. out of range, shows the server's message) -> target, distance and radius
 * -> 拍照 with the watermark camera -> thumbnails (tap to preview) -> optional remark -> 提交签到
 * uploads the photos and saves -> onDone(record). Without network it says at once that a check-in
 * needs one and its button stays disabled until the network returns. Loaded lazily by whoever opens it.
 */
import { Button, Image, Popup, TextArea } from '@nutui/nutui-react-taro'
import { Text, View } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import { useEffect, useState } from 'react'
import type { SignRecord } from '../../../types/signs'
import { CHECKIN_MSG } from '../../domain/checkinMessages'
import { SIGN_REMARK_MAX } from '../../domain/sign'
import { formatSignDistance, shanghaiDateTime } from '../../domain/watermark'
import { useStores } from '../../stores/context'
import { signStores } from '../../stores/signStores'
import { PhotoPreview } from '../PhotoPreview'
import { WatermarkCamera } from '../WatermarkCamera'
import './index.scss'

export interface CheckInSheetProps {
  visible: boolean
  /** {} = a free check-in at the current position; {marker_id} at a marker; {task_id} for a task. */
  target: { marker_id?: number; task_id?: number }
  /** Shown as the sheet's subtitle: the marker's or task's name. */
  title?: string
  /** At least one watermarked photo before submitting (task completion needs proof). */
  requirePhoto?: boolean
  onDone: (record: SignRecord) => void
  onClose: () => void
}

function CheckInSheet({ visible, target, title, requirePhoto = false, onDone, onClose }: CheckInSheetProps) {
  const { sign, notes } = useStores(signStores)
  const draft = sign.draft
  const [camera, setCamera] = useState(false)
  const [preview, setPreview] = useState<number | null>(null)

  useEffect(() => {
    if (visible) void draft.start({ ...(target.marker_id ? { marker_id: target.marker_id } : {}), ...(target.task_id ? { task_id: target.task_id } : {}) })
    else draft.clear()
    // eslint-disable-next-line react-hooks/exhaustive-deps -- starts or clears the draft when the sheet opens, closes or changes target; the store's draft object is the same throughout
  }, [visible, target.marker_id, target.task_id])

  const close = () => {
    setCamera(false)
    draft.clear()
    onClose()
  }

  const submit = async () => {
    const record = await draft.submit(notes.sendFile, requirePhoto)
    if (record) onDone(record)
  }

  const t = draft.ticket
  const watermark = draft.watermark
  return (
    <>
      <Popup visible={visible} position='bottom' round closeable title={CHECKIN_MSG.sheetTitle} className='checkin-sheet' onClose={close}>
        <View className='checkin-sheet__body' data-testid='checkin-sheet'>
          {title ? <Text className='checkin-sheet__subtitle'>{title}</Text> : null}

          {!draft.online ? (
            <View className='checkin-sheet__offline' data-testid='checkin-offline'>
              <Text className='checkin-sheet__offline-text'>{CHECKIN_MSG.needsNetwork}</Text>
            </View>
          ) : null}
          {draft.phase === 'locating' ? <Text className='checkin-sheet__status'>{CHECKIN_MSG.locating}</Text> : null}
          {draft.phase === 'failed' ? (
            <View className='checkin-sheet__problem'>
              <Text className='checkin-sheet__problem-text'>{draft.problem}</Text>
              <Button size='small' fill='outline' type='primary' onClick={() => void draft.start(draft.target)}>
                {CHECKIN_MSG.retry}
              </Button>
            </View>
          ) : null}

          {t && draft.phase === 'ready' ? (
            <>
              <View className='checkin-sheet__facts'>
                <View className='checkin-sheet__fact'>
                  <Text className='checkin-sheet__label'>签到点</Text>
                  <Text className='checkin-sheet__value'>{t.target.kind === 'free' ? CHECKIN_MSG.free : t.target.name || '—'}</Text>
                </View>
                {t.distance !== null ? (
                  <View className='checkin-sheet__fact'>
                    <Text className='checkin-sheet__label'>距离</Text>
                    <Text className='checkin-sheet__value'>
                      {formatSignDistance(t.distance)}
                      <Text className='checkin-sheet__muted'>（签到范围 {formatSignDistance(t.radius)}）</Text>
                    </Text>
                  </View>
                ) : null}
                <View className='checkin-sheet__fact'>
                  <Text className='checkin-sheet__label'>位置</Text>
                  <Text className='checkin-sheet__value'>{draft.addr || `${t.lng.toFixed(6)}, ${t.lat.toFixed(6)}`}</Text>
                </View>
                <View className='checkin-sheet__fact'>
                  <Text className='checkin-sheet__label'>时间</Text>
                  <Text className='checkin-sheet__value'>{shanghaiDateTime(t.time)}</Text>
                </View>
                <View className='checkin-sheet__fact'>
                  <Text className='checkin-sheet__label'>校验码</Text>
                  <Text className='checkin-sheet__value checkin-sheet__code'>{t.code}</Text>
                </View>
              </View>

              <View className='checkin-sheet__photos'>
                {draft.photos.map((p, i) => (
                  <View key={p.path} className='checkin-sheet__photo'>
                    <Image src={p.path} mode='aspectFill' className='checkin-sheet__thumb' onClick={() => setPreview(i)} />
                    <Text className='checkin-sheet__remove' onClick={() => draft.removePhoto(i)}>
                      ×
                    </Text>
                  </View>
                ))}
                {draft.canAddPhoto ? (
                  <View className='checkin-sheet__shoot' data-testid='checkin-take-photo' onClick={() => setCamera(true)}>
                    <Text className='checkin-sheet__shoot-icon'>＋</Text>
                    <Text className='checkin-sheet__shoot-text'>{CHECKIN_MSG.takePhoto}</Text>
                  </View>
                ) : null}
              </View>
              {requirePhoto && draft.photos.length === 0 ? <Text className='checkin-sheet__muted checkin-sheet__photo-hint'>{CHECKIN_MSG.photoRequired}</Text> : null}

              <TextArea className='checkin-sheet__remark' placeholder={CHECKIN_MSG.remarkPlaceholder} value={draft.remark} rows={2} maxLength={SIGN_REMARK_MAX} onChange={(v) => draft.setRemark(v)} />
              <Button block type='primary' loading={draft.submitting} disabled={!draft.online} className='checkin-sheet__submit' onClick={() => void submit()}>
                {CHECKIN_MSG.submit}
              </Button>
            </>
          ) : null}
          {/* Without network the check-in waits, and says why its button does nothing; it goes on by itself when the network returns. */}
          {draft.phase === 'offline' ? (
            <Button block type='primary' disabled className='checkin-sheet__submit'>
              {CHECKIN_MSG.submit}
            </Button>
          ) : null}
        </View>
      </Popup>
      {watermark ? <WatermarkCamera visible={camera && visible} watermark={watermark} onShot={(p) => draft.addPhoto(p)} onClose={() => setCamera(false)} /> : null}
      <PhotoPreview urls={draft.photos.map((p) => p.path)} index={preview ?? 0} visible={preview !== null} onClose={() => setPreview(null)} />
    </>
  )
}

export default observer(CheckInSheet)
