/**
 * /myinfo: the avatar (tap to pick and upload a new one), the nickname (edit and save
 * through /api/user/save) and the phone number, masked.
 */
import { Avatar, Button, Cell, Input, Popup } from '@nutui/nutui-react-taro'
import { Text, View } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import { useEffect, useState } from 'react'
import { PageShell } from '../../components/PageShell'
import { APP_MSG } from '../../domain/appMessages'
import { NICKNAME_MAX } from '../../domain/constants'
import { maskPhone } from '../../domain/validate'
import { useStores } from '../../stores/context'
import './index.scss'

function MyInfoPage() {
  const { session, notes } = useStores()
  const user = session.user
  const [editing, setEditing] = useState<string | null>(null)
  const [saving, setSaving] = useState(false)
  const [uploading, setUploading] = useState(false)

  useEffect(() => notes.preloadUploader(), [notes])

  const changeAvatar = async () => {
    if (uploading) return
    const [path] = await notes.chooseImages(1)
    if (!path) return
    setUploading(true)
    // Avatars go up as notes' photos do, marked as avatars (the server's `type` field).
    const uploaded = await notes.uploadPhoto(path, (p, target) => notes.sendFile(p, { ...target, formData: { ...target.formData, type: 'avatar' } }))
    if (uploaded) await session.saveProfile({ avatar: uploaded.url })
    setUploading(false)
  }

  const saveNickname = async () => {
    if (editing === null || saving) return
    setSaving(true)
    const ok = await session.saveProfile({ nickname: editing })
    setSaving(false)
    if (ok) setEditing(null)
  }

  return (
    <PageShell className='myinfo-page'>
      <Cell.Group className='myinfo-cells'>
        <Cell
          className='myinfo-avatar'
          title='头像'
          align='center'
          clickable
          onClick={() => void changeAvatar()}
          extra={
            <View className='myinfo-avatar__extra'>
              {uploading ? <Text className='muted myinfo-avatar__state'>{APP_MSG.avatarUploading}</Text> : null}
              <Avatar size='normal' src={user?.avatar ? notes.photoUrl(user.avatar) : ''}>
                {(user?.nickname || '我').slice(0, 1)}
              </Avatar>
            </View>
          }
        />
        <Cell className='myinfo-nickname' title='昵称' extra={user?.nickname} clickable onClick={() => setEditing(user?.nickname ?? '')} />
        <Cell className='myinfo-phone' title='手机号' extra={maskPhone(user?.phone ?? '')} />
      </Cell.Group>
      <Popup visible={editing !== null} position='bottom' round closeable title='修改昵称' onClose={() => setEditing(null)}>
        <View className='myinfo-form'>
          <Input className='myinfo-form__input' name='nickname' maxLength={NICKNAME_MAX} placeholder='请输入昵称' value={editing ?? ''} onChange={(v) => setEditing(v)} clearable />
          <Text className='myinfo-form__hint muted'>团队成员将通过昵称认识您，最多{NICKNAME_MAX}个字</Text>
          <Button block type='primary' className='myinfo-form__submit' loading={saving} onClick={() => void saveNickname()}>
            保存
          </Button>
        </View>
      </Popup>
    </PageShell>
  )
}

export default observer(MyInfoPage)
