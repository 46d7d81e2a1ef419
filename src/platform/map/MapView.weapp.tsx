/**
 * weapp: WeChat's own map component (GCJ-02 natively), fed the draw list through weappScene. The
 * view is read from the map context after every region change; taps on markers, clusters and the
 * map go to the page's handlers.
 */
import { Map as WxMap } from '@tarojs/components'
import Taro from '@tarojs/taro'
import { useEffect, useMemo, useRef, useState } from 'react'
import { MSG } from '../../domain/messages'
import type { MapViewProps } from './types'
import { MEMBER_ID_BASE, keepIfUnchanged, vertexOfId, weappScene, type Handed, type WxScene } from './weappScene'

const MAP_ID = 'main-map'
/** Copied into the package as files by config/index.ts (the map wants file paths, not data URLs). */
const pinIcon = '/assets/map/pin.png'
const clusterIcon = '/assets/map/cluster.png'

export function MapView(props: MapViewProps) {
  const { center, zoom, className, draw, selectedId, titleStyleOf, draft, editing, target, members, basemap } = props
  const latest = useRef(props)
  latest.current = props
  // The map's scale as last read: titles that would cover each other are laid out at it.
  const [scale, setScale] = useState(zoom)
  const scene = useMemo(
    () => weappScene(draw ?? { clusters: [], points: [], shapes: [], heat: null, pointsInView: 0 }, { selectedId, titleStyleOf, draft, editing, members, pinIcon, clusterIcon, zoom: scale }),
    [draw, selectedId, titleStyleOf, draft, editing, members, scale],
  )
  const sceneRef = useRef(scene)
  sceneRef.current = scene
  // Overlays go through setData: unchanged ones keep their identity, so they are not sent again.
  const overlays = useRef<{ polylines: Handed<WxScene['polylines']> | null; polygons: Handed<WxScene['polygons']> | null; circles: Handed<WxScene['circles']> | null }>({
    polylines: null,
    polygons: null,
    circles: null,
  })
  const handed = useMemo(() => {
    const o = overlays.current
    o.polylines = keepIfUnchanged(o.polylines, scene.polylines)
    o.polygons = keepIfUnchanged(o.polygons, scene.polygons)
    o.circles = keepIfUnchanged(o.circles, scene.circles)
    return { polylines: o.polylines, polygons: o.polygons, circles: o.circles }
  }, [scene])
  // Markers go through the map context, added and removed by difference: re-setting hundreds of
  // markers through setData freezes WeChat's map.
  const drawn = useRef(new Map<number, string>())
  useEffect(() => {
    const ctx = Taro.createMapContext(MAP_ID)
    const next = new Map(scene.markers.map((m) => [m.id, JSON.stringify(m)]))
    const removed = [...drawn.current.keys()].filter((id) => next.get(id) !== drawn.current.get(id))
    const added = scene.markers.filter((m) => drawn.current.get(m.id) !== next.get(m.id))
    if (removed.length) ctx.removeMarkers({ markerIds: removed, fail: () => undefined } as any)
    if (added.length) ctx.addMarkers({ markers: added as any, clear: false, fail: () => undefined } as any)
    drawn.current = next
  }, [scene])

  const readView = () => {
    const ctx = Taro.createMapContext(MAP_ID)
    ctx.getRegion({
      success: (r) =>
        ctx.getScale({
          success: (s) => {
            setScale(s.scale)
            latest.current.onViewChange?.({ west: r.southwest.longitude, south: r.southwest.latitude, east: r.northeast.longitude, north: r.northeast.latitude, zoom: s.scale })
          },
        }),
    })
  }

  useEffect(() => {
    latest.current.onReady?.()
    readView()
  }, [])

  useEffect(() => {
    if (target) Taro.createMapContext(MAP_ID).moveToLocation({ longitude: target.lng, latitude: target.lat })
    // eslint-disable-next-line react-hooks/exhaustive-deps -- a move is asked for by a new target sequence number, not by a new object with the same place
  }, [target?.seq])

  useEffect(() => {
    if (draw) latest.current.onShapesDrawn?.()
  }, [draw])

  return (
    <WxMap
      id={MAP_ID}
      className={className}
      longitude={center.lng}
      latitude={center.lat}
      scale={target?.zoom ?? zoom}
      polyline={handed.polylines.value as any}
      polygons={handed.polygons.value as any}
      circles={handed.circles.value as any}
      showLocation
      showScale
      enableSatellite={!!basemap?.satellite}
      enableTraffic={!!basemap?.traffic}
      enableBuilding={basemap?.building !== false}
      enablePoi={basemap?.poi !== false}
      style={{ width: '100%', height: '100%' }}
      onRegionChange={(e: any) => {
        if (e.type === 'end' || e.detail?.type === 'end') readView()
      }}
      onMarkerTap={(e: any) => {
        const id = Number(e.detail?.markerId)
        const vertex = vertexOfId(id)
        if (vertex) return latest.current.onVertexTap?.(vertex[0], vertex[1])
        const clusterIndex = sceneRef.current.clusterOf.get(id)
        if (clusterIndex !== undefined) {
          const c = latest.current.draw?.clusters[clusterIndex]
          if (c) latest.current.onClusterTap?.(c)
        } else if (id > 0 && id < MEMBER_ID_BASE) latest.current.onMarkerTap?.(id)
      }}
      onTap={(e: any) => {
        const d = e.detail ?? {}
        if (typeof d.longitude === 'number') latest.current.onMapTap?.({ lng: d.longitude, lat: d.latitude })
      }}
      onError={() => latest.current.onError?.(MSG.mapInitError)}
    />
  )
}
