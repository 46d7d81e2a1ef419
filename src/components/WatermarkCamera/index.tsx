/**
 * The watermark camera (SPEC 2, 8, 9): full screen, the video window height - 200 high
 * with the watermark shown over it as it will be painted, and below it 取消, the shutter and
 * 切换 (where another camera exists). Inside the host app the host's camera takes the photo
 * instead. A refused camera shows the help panel (restart, check permissions, reinstall, contact
 * service); a page without https says https is needed; any other failure '相机拍照错误，请稍后再试'.
 */
import { Dialog } from '@nutui/nutui-react-taro'
import { Text, View } from '@tarojs/components'
import { useEffect, useRef, useState } from 'react'
import { CHECKIN_MSG } from '../../domain/checkinMessages'
import { cameraVideoHeight, layoutWatermark, WATERMARK_STYLE, type WatermarkText } from '../../domain/watermark'
import { CameraError, CameraView, type CameraHandle, type CameraPlatform, type CapturedPhoto, type Facing } from '../CameraView'
import { useStores } from '../../stores/context'
import './index.scss'

export interface WatermarkCameraProps {
  visible: boolean
  /** What is painted on the photo (from the check-in ticket). */
  watermark: WatermarkText
  onShot: (photo: CapturedPhoto) => void
  onClose: () => void
}

type Help = 'denied' | 'insecure' | null

/** A rough text measure for the on-screen preview (the canvas measures exactly when painting). */
const previewMeasure = (text: string, size: number) => Array.from(text).reduce((w, ch) => w + (/[\u2e80-\uffef]/.test(ch) ? size : size * 0.56), 0)

export function WatermarkCamera({ visible, watermark, onShot, onClose }: WatermarkCameraProps) {
  const { app, platform } = useStores()
  const [camera, setCamera] = useState<CameraPlatform | null>(null)
  const [ready, setReady] = useState<CameraHandle | null>(null)
  const [facing, setFacing] = useState<Facing>('back')
  const [busy, setBusy] = useState(false)
  const [help, setHelp] = useState<Help>(null)
  const [size] = useState(() => ({ width: platform.screen.windowWidth(), height: cameraVideoHeight(platform.screen.windowHeight()) }))
  const latest = useRef({ watermark, onShot, onClose })
  latest.current = { watermark, onShot, onClose }

  const fail = (err: unknown) => {
    const kind = err instanceof CameraError ? err.kind : 'failed'
    if (kind === 'denied' || kind === 'insecure') setHelp(kind)
    else {
      app.notify(CHECKIN_MSG.cameraFailed, 'danger')
      latest.current.onClose()
    }
  }

  useEffect(() => {
    if (!visible) {
      setCamera(null)
      setReady(null)
      setHelp(null)
      setBusy(false)
      return
    }
    let cancelled = false
    void (async () => {
      try {
        const c = await platform.camera()
        await c.prepare()
        if (cancelled) return
        if (c.source() === 'host') {
          setBusy(true)
          const photo = await c.hostCapture(latest.current.watermark, size.width)
          if (cancelled) return
          if (photo) latest.current.onShot(photo)
          latest.current.onClose()
          return
        }
        setCamera(c)
      } catch (err) {
        if (!cancelled) fail(err)
      }
    })()
    return () => {
      cancelled = true
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the camera opens when the sheet shows; the callbacks and size it needs later are read through `latest`
  }, [visible])

  const shoot = async () => {
    if (!ready || busy) return
    setBusy(true)
    try {
      const photo = await ready.capture(watermark)
      onShot(photo)
      onClose()
    } catch (err) {
      fail(err)
    } finally {
      setBusy(false)
    }
  }

  if (!visible) return null
  const layout = layoutWatermark(watermark, size, previewMeasure)
  return (
    <View className='wm-camera' data-testid='watermark-camera'>
      <View className='wm-camera__view' style={{ height: `${size.height}px` }}>
        {camera ? <CameraView key={facing} facing={facing} width={size.width} height={size.height} onReady={setReady} onError={(err) => fail(err)} /> : null}
        {!ready && !help ? <Text className='wm-camera__hint'>{CHECKIN_MSG.cameraStarting}</Text> : null}
        <View
          className='wm-camera__mark'
          style={{ left: `${layout.box.x}px`, top: `${layout.box.y}px`, width: `${layout.box.width}px`, height: `${layout.box.height}px`, background: WATERMARK_STYLE.boxColor }}
        >
          <View
            className='wm-camera__bar-mark'
            style={{
              left: `${layout.bar.x - layout.box.x}px`,
              top: `${layout.bar.y - layout.box.y}px`,
              width: `${layout.bar.width}px`,
              height: `${layout.bar.height}px`,
              background: WATERMARK_STYLE.barColor,
            }}
          />
          {layout.lines.map((l, i) => (
            <Text key={i} className='wm-camera__line' style={{ left: `${l.x - layout.box.x}px`, top: `${l.y - layout.box.y}px`, fontSize: `${l.size}px`, fontWeight: l.bold ? 'bold' : 'normal' }}>
              {l.text}
            </Text>
          ))}
        </View>
      </View>
      <View className='wm-camera__bar'>
        <Text className='wm-camera__cancel' onClick={onClose}>
          {CHECKIN_MSG.cancel}
        </Text>
        <View className={`wm-camera__shutter ${ready && !busy ? '' : 'wm-camera__shutter--off'}`} data-testid='camera-shutter' onClick={() => void shoot()}>
          <View className='wm-camera__shutter-inner' />
        </View>
        {ready?.canSwitch ? (
          <Text
            className='wm-camera__switch'
            onClick={() => {
              setReady(null)
              setFacing((f) => (f === 'back' ? 'front' : 'back'))
            }}
          >
            {CHECKIN_MSG.switchCamera}
          </Text>
        ) : (
          <View className='wm-camera__switch wm-camera__switch--none' />
        )}
      </View>

      <Dialog
        className='wm-camera__help'
        title={CHECKIN_MSG.cameraHelpTitle}
        visible={!!help}
        content={
          help === 'insecure' ? (
            <Text>{CHECKIN_MSG.cameraHttps}</Text>
          ) : (
            <View className='wm-camera__steps'>
              <Text className='wm-camera__intro'>{CHECKIN_MSG.cameraHelpIntro}</Text>
              {CHECKIN_MSG.cameraHelpSteps.map((s, i) => (
                <Text key={s} className='wm-camera__step'>
                  {i + 1}. {s}
                </Text>
              ))}
            </View>
          )
        }
        confirmText={help === 'denied' ? CHECKIN_MSG.openSettings : CHECKIN_MSG.gotIt}
        cancelText={CHECKIN_MSG.contactService}
        onConfirm={() => {
          if (help === 'denied') void platform.camera().then((c) => c.openSettings())
          setHelp(null)
          onClose()
        }}
        onCancel={() => {
          setHelp(null)
          onClose()
          app.setServiceSheet(true)
        }}
      />
    </View>
  )
}

export default WatermarkCamera
