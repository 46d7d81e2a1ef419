/**
 * The point icon choice of /addinfo: the default pin or one of the group's custom icons
 * (/api/system/get/icon). Group managers upload a new icon (name, then an image) and delete icons.
 */
import { Button, Dialog, Image, Input } from '@nutui/nutui-react-taro'
import { Text, View } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import { useEffect, useState } from 'react'
import { MAP_UI_MSG } from '../../domain/messages'
import { useStores } from '../../stores/context'
import { ICON_NAME_MAX } from '../../stores/IconStore'
import './index.scss'
import { DeleteConfirm } from '../DeleteConfirm'

export interface IconPickerProps {
  value?: string
  color?: string
  onChange: (url: string | undefined) => void
}

export const IconPicker = observer(function IconPicker({ value, color, onChange }: IconPickerProps) {
  const { icons, notes } = useStores()
  const [adding, setAdding] = useState(false)
  const [managing, setManaging] = useState(false)
  const [deleting, setDeleting] = useState<{ id: number; name: string; url: string } | null>(null)
  const [name, setName] = useState('')

  useEffect(() => {
    void icons.ensure()
  }, [icons])

  useEffect(() => {
    if (adding) notes.preloadUploader()
  }, [adding, notes])

  const add = async () => {
    const saved = await icons.add(name, async () => {
      const [path] = await notes.chooseImages(1)
      if (!path) return undefined
      return notes.uploadPhoto(path, notes.sendFile, 'icon')
    })
    if (saved) {
      setAdding(false)
      setName('')
      onChange(saved.url)
    }
  }

  return (
    <View className='icon-picker'>
      <View className='icon-picker__list'>
        <View className={`icon-tile ${!value ? 'icon-tile--on' : ''}`} onClick={() => onChange(undefined)}>
          <View className='icon-tile__pin' style={{ background: color || '#165DFF' }} />
          <Text className='icon-tile__name'>默认</Text>
        </View>
        {icons.list.map((i) => (
          <View key={i.id} className={`icon-tile ${value === i.url ? 'icon-tile--on' : ''}`} onClick={() => (managing ? setDeleting(i) : onChange(i.url))}>
            <Image className='icon-tile__img' src={notes.photoUrl(i.url)} width='32' height='32' mode='scaleToFill' />
            <Text className='icon-tile__name'>{i.name}</Text>
            {managing ? <Text className='icon-tile__remove'>×</Text> : null}
          </View>
        ))}
      </View>
      {icons.canManage ? (
        <View className='icon-picker__actions'>
          <Button size='small' fill='outline' type='primary' onClick={() => setAdding(true)}>
            上传图标
          </Button>
          {icons.list.length ? (
            <Button size='small' fill='outline' onClick={() => setManaging(!managing)}>
              {managing ? '完成' : '删除图标'}
            </Button>
          ) : null}
        </View>
      ) : null}

      <Dialog
        title='上传图标'
        visible={adding}
        confirmText={icons.busy ? '上传中…' : '选择图片'}
        cancelText='取消'
        onConfirm={() => void add()}
        onCancel={() => {
          setAdding(false)
          setName('')
        }}
      >
        <Input className='icon-picker__name' placeholder='请输入图标名称' value={name} maxLength={ICON_NAME_MAX} onChange={(v) => setName(v)} />
      </Dialog>
      <DeleteConfirm
        title='删除图标'
        subject={deleting}
        message={(i) => MAP_UI_MSG.deleteIconConfirm(i.name)}
        onDelete={(i) =>
          void icons.remove(i.id).then((ok) => {
            if (ok && value === i.url) onChange(undefined)
          })
        }
        onClose={() => setDeleting(null)}
      />
    </View>
  )
})
