/**
 * Full-screen photo viewer (SPEC 2 "image preview with long-press 'save image'", SPEC 9 zoom 1/3
 * to 3): pinch or the -/+ buttons zoom within 1/3 and 3, a swipe or the side areas step through the
 * pictures, a tap in the middle closes, and a long press opens an action sheet with 保存图片 (the
 * album on weapp, the host app's save_img, a download in a browser).
 *
 * Built on NutUI's Overlay and ActionSheet rather than its ImagePreview: that one cannot zoom below
 * 1 (it snaps back), and its Swiper and Video would weigh on every page chunk that shows photos.
 */
import { ActionSheet, Overlay } from '@nutui/nutui-react-taro'
import { Image, Text, View } from '@tarojs/components'
import { useEffect, useRef, useState } from 'react'
import { CHECKIN_MSG } from '../../domain/checkinMessages'
import { pinchZoom, stepZoom, swipeIndex } from '../../domain/imagePreview'
import { useStores } from '../../stores/context'
import './index.scss'

export interface PhotoPreviewProps {
  urls: string[]
  index: number
  visible: boolean
  onClose: () => void
}

interface TouchPoint {
  pageX: number
  pageY: number
}

/** What both platforms' touch events carry. */
interface TouchLike {
  touches: ArrayLike<TouchPoint>
  changedTouches: ArrayLike<TouchPoint>
  preventDefault?: () => void
}

/** How long one finger rests on the picture before the save menu opens. */
const LONG_PRESS_MS = 500

const distance = (a: TouchPoint, b: TouchPoint) => Math.hypot(a.pageX - b.pageX, a.pageY - b.pageY)

export function PhotoPreview({ urls, index, visible, onClose }: PhotoPreviewProps) {
  const { app, platform } = useStores()
  const [current, setCurrent] = useState(index)
  const [scale, setScale] = useState(1)
  const [sheet, setSheet] = useState(false)
  const gesture = useRef<{ startX: number; pinch: { d0: number; s0: number } | null; moved: boolean; longPressAt: number; timer: ReturnType<typeof setTimeout> | null }>({
    startX: 0,
    pinch: null,
    moved: false,
    longPressAt: 0,
    timer: null,
  })
  const cancelLongPress = () => {
    if (gesture.current.timer) clearTimeout(gesture.current.timer)
    gesture.current.timer = null
  }
  useEffect(() => cancelLongPress, [])

  useEffect(() => {
    setCurrent(index)
    setScale(1)
    setSheet(false)
  }, [index, visible])

  const show = (i: number) => {
    setCurrent(i)
    setScale(1)
  }
  const step = (d: number) => show((current + d + urls.length) % urls.length)

  const save = async () => {
    setSheet(false)
    const url = urls[current]
    if (!url) return
    const camera = await platform.camera()
    const outcome = await camera.saveImage(url)
    if (outcome === 'saved') app.notify(CHECKIN_MSG.imageSaved, 'success')
    else if (outcome === 'downloaded') app.notify(CHECKIN_MSG.imageDownloaded, 'success')
    else if (outcome === 'denied') {
      app.notify(CHECKIN_MSG.albumDenied, 'warning')
      void camera.openSettings()
    } else app.notify(CHECKIN_MSG.imageSaveFailed, 'danger')
  }

  const onTouchStart = (e: TouchLike) => {
    const g = gesture.current
    g.moved = false
    cancelLongPress()
    if (e.touches.length >= 2) g.pinch = { d0: distance(e.touches[0], e.touches[1]), s0: scale }
    else if (e.touches.length === 1) {
      g.startX = e.touches[0].pageX
      // one finger held still: the save menu
      g.timer = setTimeout(() => {
        g.timer = null
        g.longPressAt = Date.now()
        setSheet(true)
      }, LONG_PRESS_MS)
    }
  }
  const onTouchMove = (e: TouchLike) => {
    const g = gesture.current
    g.moved = true
    cancelLongPress()
    if (g.pinch && e.touches.length >= 2) setScale(pinchZoom(g.pinch.s0, g.pinch.d0, distance(e.touches[0], e.touches[1])))
  }
  const onTouchEnd = (e: TouchLike) => {
    const g = gesture.current
    cancelLongPress()
    // the finger that opened the save menu: no click may follow (it would land on the menu's mask and close it)
    if (Date.now() - g.longPressAt < 1000) e.preventDefault?.()
    if (g.pinch) {
      if (e.touches.length < 2) g.pinch = null
      return
    }
    // a swipe steps only at the normal size (a zoomed picture is being looked at)
    if (g.moved && scale === 1 && e.changedTouches.length) {
      const next = swipeIndex(current, urls.length, e.changedTouches[0].pageX - g.startX)
      if (next !== current) show(next)
    }
  }
  // a click after a long press or a gesture is not a tap
  const tapped = () => !gesture.current.moved && Date.now() - gesture.current.longPressAt > 800

  return (
    <Overlay visible={visible && urls.length > 0} zIndex={3000} style={{ background: '#000' }} closeOnOverlayClick={false}>
      <View className='photo-preview' data-testid='photo-preview'>
        <View
          className='photo-preview__stage'
          onTouchStart={(e) => onTouchStart(e as unknown as TouchLike)}
          onTouchMove={(e) => onTouchMove(e as unknown as TouchLike)}
          onTouchEnd={(e) => onTouchEnd(e as unknown as TouchLike)}
          onClick={() => {
            if (tapped()) onClose()
          }}
        >
          {urls[current] ? (
            <Image className='photo-preview__img' src={urls[current]} mode='aspectFit' style={{ transform: `scale(${scale})` }} data-scale={String(Math.round(scale * 100) / 100)} />
          ) : null}
        </View>
        {urls.length > 1 ? (
          <>
            <View className='photo-preview__side photo-preview__side--left' onClick={() => step(-1)} />
            <View className='photo-preview__side photo-preview__side--right' onClick={() => step(1)} />
          </>
        ) : null}
        <View className='photo-preview__close' onClick={onClose}>
          ×
        </View>
        <View className='photo-preview__bar'>
          <Text className='photo-preview__zoom photo-preview__zoom--out' onClick={() => setScale((s) => stepZoom(s, -1))}>
            －
          </Text>
          <Text className='photo-preview__scale'>{Math.round(scale * 100)}%</Text>
          <Text className='photo-preview__zoom photo-preview__zoom--in' onClick={() => setScale((s) => stepZoom(s, 1))}>
            ＋
          </Text>
          {urls.length > 1 ? (
            <Text className='photo-preview__count'>
              {current + 1}/{urls.length}
            </Text>
          ) : null}
        </View>
      </View>
      <ActionSheet
        visible={sheet}
        options={[{ name: CHECKIN_MSG.saveImage }]}
        cancelText='取消'
        onSelect={() => void save()}
        onCancel={() => {
          // a click the long press itself produced is not the user closing the menu
          if (Date.now() - gesture.current.longPressAt > 600) setSheet(false)
        }}
      />
    </Overlay>
  )
}

export default PhotoPreview
