/**
 * H5 base map. With an AMap key: AMap JS API 2.0 through its loader. Without one: Leaflet, showing
 * OSM tiles when reachable and a plain background when not; stored GCJ-02 is converted to WGS-84.
 */
import { View } from '@tarojs/components'
import { useEffect, useRef } from 'react'
import { DEFAULT_MAP_PLUGIN_VERSION } from '../../domain/constants'
import { gcj02ToWgs84 } from '../../domain/geo'
import { MSG } from '../../domain/messages'
import type { MapViewProps } from './types'
import 'leaflet/dist/leaflet.css'

export function MapView({ center, zoom, className, onReady, onError }: MapViewProps) {
  const host = useRef<HTMLDivElement | null>(null)

  useEffect(() => {
    let disposed = false
    let destroy: (() => void) | undefined
    const el = host.current
    if (!el) return
    const start = AMAP_KEY ? startAmap : startLeaflet
    start(el, { center, zoom })
      .then((d) => {
        if (disposed) d()
        else {
          destroy = d
          onReady?.()
        }
      })
      .catch(() => onError?.(MSG.mapInitError))
    return () => {
      disposed = true
      destroy?.()
    }
  }, [])

  return <View className={className} style={{ width: '100%', height: '100%' }}><div ref={host} className='map-canvas' data-testid='map-canvas' style={{ width: '100%', height: '100%' }} /></View>
}

async function startLeaflet(el: HTMLElement, { center, zoom }: { center: MapViewProps['center']; zoom: number }): Promise<() => void> {
  const L = (await import('leaflet')).default
  const wgs = gcj02ToWgs84(center)
  const map = L.map(el, { zoomControl: false, attributionControl: true }).setView([wgs.lat, wgs.lng], zoom)
  L.tileLayer(MAP_TILE_URL, { maxZoom: 19, attribution: '&copy; OpenStreetMap' }).addTo(map)
  L.control.zoom({ position: 'bottomright' }).addTo(map)
  return () => map.remove()
}

async function startAmap(el: HTMLElement, { center, zoom }: { center: MapViewProps['center']; zoom: number }): Promise<() => void> {
  if (AMAP_SECURITY_CODE) (window as any)._AMapSecurityConfig = { securityJsCode: AMAP_SECURITY_CODE }
  const AMapLoader = (await import('@amap/amap-jsapi-loader')).default
  const AMap = await AMapLoader.load({ key: AMAP_KEY, version: DEFAULT_MAP_PLUGIN_VERSION, plugins: ['AMap.Scale', 'AMap.ToolBar'] })
  const map = new AMap.Map(el, { center: [center.lng, center.lat], zoom, viewMode: '2D' })
  return () => map.destroy()
}
