/**
 * Mini-program camera view: Taro's Camera component; capture takes the photo with
 * createCameraContext().takePhoto, paints it and the watermark on an off-screen type="2d" canvas at
 * 4x the on-screen size (SPEC 9) and exports it with canvasToTempFilePath.
 */
import { Camera, Canvas, View } from '@tarojs/components'
import Taro from '@tarojs/taro'
import { useEffect, useRef } from 'react'
import { exportSize, type WatermarkText } from '../../domain/watermark'
import { paintWatermarkedPhoto, photoFileName, type Canvas2D } from './draw'
import { CameraError, type CameraViewProps, type CapturedPhoto, type ViewSize } from './types'

const CANVAS_ID = 'watermark-canvas'

const errMsg = (err: unknown) => String((err as { errMsg?: string } | null)?.errMsg ?? err ?? '')

interface CanvasNode {
  width: number
  height: number
  getContext(kind: '2d'): unknown
  createImage(): { src: string; onload: (() => void) | null; onerror: ((e: unknown) => void) | null }
}

function canvasNode(): Promise<CanvasNode> {
  return new Promise((resolve, reject) => {
    Taro.createSelectorQuery()
      .select(`#${CANVAS_ID}`)
      .fields({ node: true, size: true })
      .exec((res) => {
        const node = res?.[0]?.node as CanvasNode | undefined
        if (node) resolve(node)
        else reject(new CameraError('failed', 'no canvas'))
      })
  })
}

async function capture(text: WatermarkText, view: ViewSize): Promise<CapturedPhoto> {
  try {
    const shot = await new Promise<{ tempImagePath: string }>((resolve, reject) => Taro.createCameraContext().takePhoto({ quality: 'high', success: resolve, fail: reject }))
    const info = await Taro.getImageInfo({ src: shot.tempImagePath })
    const canvas = await canvasNode()
    const size = exportSize(view)
    canvas.width = size.width
    canvas.height = size.height
    const img = canvas.createImage()
    await new Promise<void>((resolve, reject) => {
      img.onload = () => resolve()
      img.onerror = reject
      img.src = shot.tempImagePath
    })
    paintWatermarkedPhoto(canvas.getContext('2d') as Canvas2D, img, { width: info.width, height: info.height }, view, text)
    const out = await Taro.canvasToTempFilePath({
      canvas: canvas as never,
      fileType: 'jpg',
      quality: 0.85,
      destWidth: size.width,
      destHeight: size.height,
    } as Taro.canvasToTempFilePath.Option)
    return { path: out.tempFilePath, width: size.width, height: size.height, fileName: photoFileName() }
  } catch (err) {
    if (err instanceof CameraError) throw err
    throw new CameraError(/auth|deny/i.test(errMsg(err)) ? 'denied' : 'failed', errMsg(err))
  }
}

export function CameraView({ facing, width, height, onReady, onError }: CameraViewProps) {
  const latest = useRef({ onReady, onError })
  latest.current = { onReady, onError }
  useEffect(() => {
    latest.current.onReady({ canSwitch: true, capture: (text) => capture(text, { width, height }) })
  }, [facing, width, height])
  return (
    <View className='camera-view' style={{ width: `${width}px`, height: `${height}px` }}>
      <Camera
        className='camera-view__camera'
        devicePosition={facing}
        flash='off'
        style={{ width: `${width}px`, height: `${height}px` }}
        onError={(e) => latest.current.onError(new CameraError(/auth|deny/i.test(errMsg(e.detail)) ? 'denied' : 'failed', errMsg(e.detail)))}
      />
      {/* off screen: only its export is seen */}
      <Canvas type='2d' id={CANVAS_ID} style={{ position: 'fixed', left: '-10000px', top: '0', width: `${width}px`, height: `${height}px` }} />
    </View>
  )
}
