/** weapp: WeChat's own map component (GCJ-02 natively). */
import { Map } from '@tarojs/components'
import { useEffect } from 'react'
import { MSG } from '../../domain/messages'
import type { MapViewProps } from './types'

export function MapView({ center, zoom, className, onReady, onError }: MapViewProps) {
  useEffect(() => onReady?.(), [])
  return (
    <Map
      id='main-map'
      className={className}
      longitude={center.lng}
      latitude={center.lat}
      scale={zoom}
      showLocation
      showScale
      style={{ width: '100%', height: '100%' }}
      onError={() => onError?.(MSG.mapInitError)}
    />
  )
}
