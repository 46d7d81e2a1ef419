/**
 * Photos for notes and photo fields: NutUI's Uploader (SPEC 4 upload item: uploading shows a mask
 * with a spinner, a failure shows the failure icon and message), sending through the platform's
 * upload adapter to /api/system/upload.
 */
import { Uploader, type UploaderFileItem } from '@nutui/nutui-react-taro'
import { observer } from 'mobx-react-lite'
import { useEffect, useRef, useState } from 'react'
import type { UploadKind } from '../../stores/NoteStore'
import { useStores } from '../../stores/context'

export interface PhotoUploaderProps {
  /** Server URLs of the photos already there. */
  value: string[]
  onChange: (urls: string[]) => void
  max?: number
  kind?: UploadKind
  disabled?: boolean
  /** Whether a picked photo is still on its way to the server: its URL is not in `value` until it arrives. */
  onBusyChange?: (busy: boolean) => void
}

let uid = 0

export const PhotoUploader = observer(function PhotoUploader({ value, onChange, max = 9, kind = 'note', disabled, onBusyChange }: PhotoUploaderProps) {
  const { notes } = useStores()
  const toItems = (urls: string[]): UploaderFileItem[] => urls.map((u) => ({ uid: `p${++uid}`, url: notes.photoUrl(u), status: 'success', message: '', type: 'image', name: u }))
  const [items, setItems] = useState<UploaderFileItem[]>(() => toItems(value))
  const last = useRef(value.join('|'))

  // A new value from outside (a reset after saving a note) replaces the list.
  useEffect(() => {
    const key = value.join('|')
    if (key !== last.current) {
      last.current = key
      setItems(toItems(value))
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- keyed by the photos themselves: a new array with the same URLs must not reset the uploader's list
  }, [value.join('|')])

  const change = (list: UploaderFileItem[]) => {
    setItems(list)
    const urls = list.filter((i) => i.status === 'success' && i.url).map((i) => notes.serverUrl(String(i.url)))
    last.current = urls.join('|')
    onChange(urls)
    onBusyChange?.(list.some((i) => i.status === 'uploading' || i.status === 'ready'))
  }

  // What the picker hands over: Taro's chosen file (a temporary path; on H5 also the browser's File).
  const upload = async (file: { name?: string; tempFilePath?: string; path?: string; originalFileObj?: { name?: string } }): Promise<UploaderFileItem> => {
    const path: string = file?.tempFilePath ?? file?.path ?? ''
    const name: string | undefined = file?.originalFileObj?.name
    const res = await notes.uploadPhoto(path, (p, target) => notes.sendFile(p, target, name), kind)
    if (!res) throw new Error('upload failed')
    return { url: notes.photoUrl(res.url) }
  }

  return (
    <Uploader value={items} onChange={change} upload={upload} maxCount={max} multiple mediaType={['image']} sizeType={['compressed']} accept='image/*' disabled={disabled} uploadLabel='添加照片' />
  )
})
