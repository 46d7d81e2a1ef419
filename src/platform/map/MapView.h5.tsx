/**
 * H5 map. With an AMap key: AMap JS API 2.0 through its loader (the loader's rules are checked
 * first). Without one: Leaflet, showing OSM tiles when reachable and a plain background when not;
 * stored GCJ-02 is converted to WGS-84 at the renderer's edge.
 */
import { View } from '@tarojs/components'
import { useEffect, useRef } from 'react'
import { DEFAULT_MAP_PLUGIN_VERSION } from '../../domain/constants'
import { checkAmapLoader } from '../../domain/mapLoader'
import { MSG } from '../../domain/messages'
import { tileSourceOf } from '../../domain/tileSources'
import { AmapEngine } from './amapEngine'
import { LeafletEngine, type EngineCallbacks } from './leafletEngine'
import { nextTask } from '../tasks/nextTask'
import { tileAttribution } from './tileAttribution'
import type { MapViewProps } from './types'
import 'leaflet/dist/leaflet.css'
import './map.h5.scss'

interface Engine {
  start(): void
  render: LeafletEngine['render']
  renderDraft: LeafletEngine['renderDraft']
  renderEditing: LeafletEngine['renderEditing']
  renderMembers: LeafletEngine['renderMembers']
  setBasemap: LeafletEngine['setBasemap']
  /** Leaflet only: AMap draws its own base map. */
  setTiles?: LeafletEngine['setTiles']
  renderSelf: LeafletEngine['renderSelf']
  moveTo: LeafletEngine['moveTo']
  destroy(): void
}

export function MapView(props: MapViewProps) {
  const { center, zoom, className, draw, selectedId, draft, editing, titleStyleOf, target, members, basemap, self, tileSource } = props
  const host = useRef<HTMLDivElement | null>(null)
  const engine = useRef<Engine | null>(null)
  // The latest callbacks, read by the engine at event time (props change on every render).
  const latest = useRef(props)
  latest.current = props
  const callbacks = (): MapViewProps => latest.current

  useEffect(() => {
    let disposed = false
    const el = host.current
    if (!el) return
    const start = AMAP_KEY ? startAmap : startLeaflet
    start(el, center, zoom, callbacks)
      .then(async (e) => {
        if (disposed) return e.destroy()
        engine.current = e
        const p = latest.current
        if (p.draw) e.render(p.draw, p.selectedId ?? null, p.titleStyleOf)
        e.renderDraft(p.draft)
        e.renderEditing(p.editing)
        e.renderMembers(p.members)
        e.setBasemap(p.basemap)
        e.renderSelf(p.self)
        // A move asked for while the map's code was still loading (the first look framing the
        // team's data, on a slow phone) had no map to move: it is made now, before the first view.
        if (p.target) e.moveTo(p.target)
        // The first view's report makes the page draw it: in a task after this first drawing's.
        await nextTask()
        if (disposed) return
        e.start()
        latest.current.onReady?.()
      })
      .catch(() => latest.current.onError?.(MSG.mapInitError))
    return () => {
      disposed = true
      engine.current?.destroy()
      engine.current = null
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the map is created once, at the first centre and zoom; later moves come through `target`
  }, [])

  useEffect(() => {
    if (!engine.current || !draw) return
    // Handed to the map in a task after the page's render (a later list replaces one still waiting): on a large
    // map's first view, the store's draw list, the page's render and the map's items took 60-80 ms in one task
    // at 4x throttling.
    let latestList = true
    void nextTask().then(() => latestList && engine.current?.render(draw, selectedId ?? null, titleStyleOf))
    return () => {
      latestList = false
    }
  }, [draw, selectedId, titleStyleOf])

  useEffect(() => {
    engine.current?.renderDraft(draft)
  }, [draft])

  useEffect(() => {
    engine.current?.renderEditing(editing)
  }, [editing])

  useEffect(() => {
    engine.current?.renderMembers(members)
  }, [members])

  useEffect(() => {
    engine.current?.renderSelf(self)
    // eslint-disable-next-line react-hooks/exhaustive-deps -- keyed by the position: a new object at the same place does not redraw
  }, [self?.lng, self?.lat])

  useEffect(() => {
    engine.current?.setBasemap(basemap)
  }, [basemap])

  useEffect(() => {
    if (engine.current && target) engine.current.moveTo(target)
  }, [target])

  useEffect(() => {
    engine.current?.setTiles?.(tilesOf(tileSource))
  }, [tileSource])

  return (
    <View className={className} style={{ width: '100%', height: '100%' }}>
      <div ref={host} className='map-canvas' data-testid='map-canvas' style={{ width: '100%', height: '100%' }} />
    </View>
  )
}

/**
 * Leaflet's code, the map page's largest part, asked for as soon as this module runs: with the page's
 * own code, which the sign-in page loads while the user waits for the SMS code. A failed load (no
 * network) is asked for again by the next map.
 */
const importLeaflet = () => import('leaflet')
let leaflet: ReturnType<typeof importLeaflet> | null = null
function loadLeaflet(): ReturnType<typeof importLeaflet> {
  leaflet ??= importLeaflet().catch((e: unknown) => {
    leaflet = null
    throw e
  })
  return leaflet
}
if (!AMAP_KEY) void loadLeaflet().catch(() => undefined)

async function startLeaflet(el: HTMLElement, center: MapViewProps['center'], zoom: number, cb: () => MapViewProps): Promise<Engine> {
  const L = (await loadLeaflet()).default
  // Leaflet's code is run as it arrives; the map is made in a task of its own, so a slow phone
  // does not spend both in one long task with its taps waiting.
  await nextTask()
  const tiles = tilesOf(cb().tileSource)
  const engine = new LeafletEngine(L, el, center, zoom, tiles, cb)
  await nextTask()
  await engine.attach(tiles)
  await nextTask()
  return engine
}

/** The source chosen on this device, among the build's tiles (MAP_TILE_URL), AMap's and none. */
function tilesOf(id: MapViewProps['tileSource']) {
  return tileSourceOf(id, { url: MAP_TILE_URL, attribution: tileAttribution(MAP_TILE_URL, MAP_TILE_ATTRIBUTION) })
}

/** Loca's version, loaded with the map for the heatmap (Loca 2 goes with JS API 2.0). */
const LOCA_VERSION = '2.0.0'

/** AMap JS API 2.0 and Loca through the official loader, after the loader's own rules are checked. */
async function startAmap(el: HTMLElement, center: MapViewProps['center'], zoom: number, cb: () => EngineCallbacks): Promise<Engine> {
  const problem = checkAmapLoader({ key: AMAP_KEY, version: DEFAULT_MAP_PLUGIN_VERSION, loca: LOCA_VERSION })
  if (problem) throw new Error(problem)
  if (AMAP_SECURITY_CODE) (window as any)._AMapSecurityConfig = { securityJsCode: AMAP_SECURITY_CODE }
  const AMapLoader = (await import('@amap/amap-jsapi-loader')).default
  const AMap = await AMapLoader.load({ key: AMAP_KEY, version: DEFAULT_MAP_PLUGIN_VERSION, plugins: ['AMap.Scale', 'AMap.ToolBar'], Loca: { version: LOCA_VERSION } })
  const map = new AMap.Map(el, { center: [center.lng, center.lat], zoom, viewMode: '2D' })
  return new AmapEngine(AMap, map, cb, (window as any).Loca)
}
