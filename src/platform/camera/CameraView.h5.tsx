/**
 * H5 camera view: getUserMedia into a <video> of the given size (object-fit cover, as the photo is
 * cropped), and capture of the current frame with the watermark at 4x (canvasExport). Refusal is
 * 'denied' (the help panel), a plain-http page 'insecure' (SPEC 8: the camera requires https).
 */
import { useEffect, useRef } from 'react'
import { exportWatermarked } from './canvasExport'
import { cameraProblemOfPage } from './index.h5'
import { CameraError, type CameraViewProps } from './types'

function errorOf(err: unknown): CameraError {
  const name = (err as { name?: string } | null)?.name ?? ''
  const message = String((err as { message?: string } | null)?.message ?? err)
  if (name === 'NotAllowedError' || name === 'PermissionDeniedError' || name === 'SecurityError') return new CameraError('denied', message)
  if (name === 'NotFoundError' || name === 'OverconstrainedError') return new CameraError('unsupported', message)
  return new CameraError('failed', message)
}

function playing(video: HTMLVideoElement): Promise<void> {
  if (video.readyState >= 2 && video.videoWidth > 0) return Promise.resolve()
  return new Promise((resolve, reject) => {
    const done = () => {
      video.removeEventListener('loadeddata', done)
      video.removeEventListener('error', fail)
      resolve()
    }
    const fail = () => reject(new CameraError('failed', 'video error'))
    video.addEventListener('loadeddata', done)
    video.addEventListener('error', fail)
  })
}

export function CameraView({ facing, width, height, onReady, onError }: CameraViewProps) {
  const videoRef = useRef<HTMLVideoElement | null>(null)
  const latest = useRef({ onReady, onError })
  latest.current = { onReady, onError }

  useEffect(() => {
    let stream: MediaStream | null = null
    let cancelled = false
    const stop = () => stream?.getTracks().forEach((t) => t.stop())
    void (async () => {
      const problem = cameraProblemOfPage(window)
      if (problem) return latest.current.onError(problem)
      try {
        stream = await navigator.mediaDevices.getUserMedia({
          video: { facingMode: facing === 'front' ? 'user' : 'environment', width: { ideal: 1920 }, height: { ideal: 1080 } },
          audio: false,
        })
      } catch (err) {
        if (!cancelled) latest.current.onError(errorOf(err))
        return
      }
      const video = videoRef.current
      if (cancelled || !video) return stop()
      try {
        video.srcObject = stream
        await video.play().catch(() => undefined)
        await playing(video)
      } catch (err) {
        if (!cancelled) latest.current.onError(errorOf(err))
        return
      }
      if (cancelled) return
      let cameras = 1
      try {
        cameras = (await navigator.mediaDevices.enumerateDevices()).filter((d) => d.kind === 'videoinput').length
      } catch {
        // unknown: offer no switch
      }
      if (cancelled) return
      latest.current.onReady({
        canSwitch: cameras > 1,
        capture: async (text) => {
          if (!video.videoWidth || !video.videoHeight) throw new CameraError('failed', 'no frame yet')
          return exportWatermarked(video, { width: video.videoWidth, height: video.videoHeight }, { width, height }, text)
        },
      })
    })()
    return () => {
      cancelled = true
      stop()
      // eslint-disable-next-line react-hooks/exhaustive-deps -- the element rendered now is the one to detach the stream from
      if (videoRef.current) videoRef.current.srcObject = null
    }
  }, [facing, width, height])

  return (
    <video
      ref={videoRef}
      className='camera-view__video'
      data-testid='camera-video'
      autoPlay
      muted
      playsInline
      style={{ width: `${width}px`, height: `${height}px`, objectFit: 'cover', display: 'block', background: '#000', transform: facing === 'front' ? 'scaleX(-1)' : undefined }}
    />
  )
}
