/** Notes of a marker with their photos, and the form to add one (notes with photos). */
import { Button, Dialog, Image, TextArea } from '@nutui/nutui-react-taro'
import { Text, View } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import { useState } from 'react'
import type { Layer, Note } from '../../../types/mapdata'
import { NOTE_MAX } from '../../domain/markers'
import { MAP_UI_MSG } from '../../domain/messages'
import { PERM } from '../../domain/permissions'
import { dateTime } from '../../domain/time'
import { useStores } from '../../stores/context'
import { PhotoUploader } from '../FieldValueInput/PhotoUploader'
import { PhotoPreview } from '../PhotoPreview'
import { usePanel } from '../DraggablePanel'
import './index.scss'

export interface NoteListProps {
  markerId: number
  layer: Layer | undefined
}

const noteElementId = (id: number) => `note-${id}`

export const NoteList = observer(function NoteList({ markerId, layer }: NoteListProps) {
  const { notes, layers, session } = useStores()
  const panel = usePanel()
  const [content, setContent] = useState('')
  const [photos, setPhotos] = useState<string[]>([])
  // A note saved while a photo is still uploading would be saved without that photo.
  const [uploading, setUploading] = useState(false)
  const [editing, setEditing] = useState<Note | null>(null)
  const [deleting, setDeleting] = useState<Note | null>(null)
  const [preview, setPreview] = useState<{ urls: string[]; index: number } | null>(null)
  const list = notes.notesOf(markerId)
  const canAdd = layers.can(layer, PERM.NOTE_ADD)
  const mine = (n: Note) => n.user_id === session.user?.id

  const submit = async () => {
    const saved = await notes.save({ id: editing?.id, marker_id: markerId, content, photos, rev: editing?.rev }, editing ?? undefined)
    if (saved) {
      setContent('')
      setPhotos([])
      setEditing(null)
      // The form stays where it was; the note just saved is what the user wants to see.
      panel.reveal(noteElementId(saved.id))
    }
  }

  const startEdit = (n: Note) => {
    setEditing(n)
    setContent(n.content)
    setPhotos(n.photos)
  }

  return (
    <View className='note-list'>
      {list.length === 0 && notes.loadingMarkerId !== markerId ? <Text className='note-list__empty'>暂无备注</Text> : null}
      {list.map((n) => (
        <View key={n.id} id={noteElementId(n.id)} className='note'>
          <View className='note__head'>
            <Text className='note__user'>{n.user_name}</Text>
            <Text className='note__time'>{dateTime(n.created_at)}</Text>
          </View>
          {n.content ? <Text className='note__content'>{n.content}</Text> : null}
          {n.photos.length ? (
            <View className='note__photos'>
              {n.photos.map((p, i) => (
                <Image
                  key={p}
                  className='note__photo'
                  src={notes.photoUrl(p)}
                  mode='aspectFill'
                  width='80'
                  height='80'
                  onClick={() => setPreview({ urls: n.photos.map((u) => notes.photoUrl(u)), index: i })}
                />
              ))}
            </View>
          ) : null}
          <View className='note__actions'>
            {layers.can(layer, PERM.NOTE_EDIT) || mine(n) ? (
              <Text className='note__action' onClick={() => startEdit(n)}>
                编辑
              </Text>
            ) : null}
            {layers.can(layer, PERM.NOTE_DELETE) || mine(n) ? (
              <Text className='note__action note__action--danger' onClick={() => setDeleting(n)}>
                删除
              </Text>
            ) : null}
          </View>
        </View>
      ))}

      {canAdd || editing ? (
        <View className='note-form'>
          <Text className='note-form__title'>{editing ? '编辑备注' : '添加备注'}</Text>
          <TextArea className='note-form__text' placeholder='请输入备注内容' value={content} maxLength={NOTE_MAX} showCount rows={3} onFocus={() => panel.expand()} onChange={(v) => setContent(v)} />
          <PhotoUploader value={photos} onChange={setPhotos} onBusyChange={setUploading} />
          <View className='note-form__buttons'>
            {editing ? (
              <Button
                size='small'
                fill='outline'
                onClick={() => {
                  setEditing(null)
                  setContent('')
                  setPhotos([])
                }}
              >
                取消编辑
              </Button>
            ) : null}
            <Button size='small' type='primary' loading={notes.saving || uploading} disabled={uploading} onClick={() => void submit()}>
              {editing ? '保存备注' : '添加备注'}
            </Button>
          </View>
        </View>
      ) : null}

      <Dialog
        className='dialog--destructive'
        title='删除备注'
        visible={!!deleting}
        content={MAP_UI_MSG.deleteNoteConfirm}
        confirmText='删除'
        cancelText='取消'
        onConfirm={() => {
          const n = deleting
          setDeleting(null)
          if (n) void notes.remove(n)
        }}
        onCancel={() => setDeleting(null)}
      />
      <PhotoPreview urls={preview?.urls ?? []} index={preview?.index ?? 0} visible={!!preview} onClose={() => setPreview(null)} />
    </View>
  )
})
