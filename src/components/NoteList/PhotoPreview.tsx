/**
 * A light full-screen photo viewer: tap the left or right side to step, the middle to close.
 * (NutUI's ImagePreview pulls Taro's Swiper and Video into every H5 page chunk, about 65 KB gzip
 * per page, which the /login and /map budgets of DESIGN 7 cannot carry.)
 */
import { Image, Overlay } from '@nutui/nutui-react-taro'
import { Text, View } from '@tarojs/components'
import { useEffect, useState } from 'react'

export interface PhotoPreviewProps {
  urls: string[]
  index: number
  visible: boolean
  onClose: () => void
}

export function PhotoPreview({ urls, index, visible, onClose }: PhotoPreviewProps) {
  const [current, setCurrent] = useState(index)
  useEffect(() => setCurrent(index), [index, visible])
  const step = (d: number) => setCurrent((c) => (c + d + urls.length) % urls.length)
  return (
    <Overlay visible={visible && urls.length > 0} onClick={onClose} zIndex={3000} style={{ background: 'rgba(0,0,0,0.92)' }}>
      <View className='photo-preview' data-testid='photo-preview'>
        {urls[current] ? <Image src={urls[current]} mode='aspectFit' width='100%' height='100%' /> : null}
        {urls.length > 1 ? (
          <>
            <View
              className='photo-preview__side photo-preview__side--left'
              onClick={(e) => {
                e.stopPropagation()
                step(-1)
              }}
            />
            <View
              className='photo-preview__side photo-preview__side--right'
              onClick={(e) => {
                e.stopPropagation()
                step(1)
              }}
            />
            <Text className='photo-preview__count'>
              {current + 1}/{urls.length}
            </Text>
          </>
        ) : null}
      </View>
    </Overlay>
  )
}
