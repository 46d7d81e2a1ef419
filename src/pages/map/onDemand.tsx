/**
 * The map's panels and sheets that only a tap or a refused save opens (the marker detail, the layer
 * panel, the search, the map style and filter sheets, the conflict sheet, the outbox sheet): their code is not in the /map entry (its JS budget,
 * DESIGN 7). It loads a little after the map first draws, so that a later tap finds it in, or at once
 * when one is opened before that. Without network the H5 service worker serves these chunks like every
 * other file of the build; a load that still fails shows nothing and is tried again on the next open.
 */
import { observer } from 'mobx-react-lite'
import { useEffect, useState, type ComponentType } from 'react'
import type { LayerPanelProps } from '../../components/LayerPanel'
import type { MapSheetProps } from '../../components/MapSheets'
import type { SearchPanelProps } from '../../components/SearchPanel'
import { useStores } from '../../stores/context'
import { syncStores } from '../../stores/syncStores'

/** After the map's first draw, how long the parts wait before loading: the first view's data and tiles go first. */
const LOAD_AFTER_DRAW_MS = 1500

interface Part<P> {
  current: ComponentType<P> | null
  load(): Promise<ComponentType<P> | null>
}

function part<P>(importer: () => Promise<ComponentType<P>>): Part<P> {
  let loading: Promise<ComponentType<P> | null> | null = null
  const p: Part<P> = {
    current: null,
    load: () =>
      (loading ??= importer().then(
        (c) => (p.current = c),
        () => {
          loading = null
          return null
        },
      )),
  }
  return p
}

const markerDetail = part(() => import('../../components/MarkerDetail').then((m) => m.MarkerDetail))
const layerPanel = part<LayerPanelProps>(() => import('../../components/LayerPanel').then((m) => m.LayerPanel))
const searchPanel = part<SearchPanelProps>(() => import('../../components/SearchPanel').then((m) => m.SearchPanel))
const conflictSheet = part(() => import('../../components/ConflictSheet').then((m) => m.ConflictSheet))
const basemapSheet = part<MapSheetProps>(() => import('../../components/MapSheets').then((m) => m.BasemapSheet))
const filterSheet = part<MapSheetProps>(() => import('../../components/MapSheets').then((m) => m.FilterSheet))
const outboxSheet = part(() => import('../../components/OutboxSheet').then((m) => m.OutboxSheet))

/** The part's component once its code is in: loaded at once when `wanted`, else a little after the map first drew. */
function useLoaded<P>(p: Part<P>, wanted: boolean, mapDrawn: boolean): ComponentType<P> | null {
  const [component, setComponent] = useState(() => p.current)
  useEffect(() => {
    if (component || (!wanted && !mapDrawn)) return undefined
    let live = true
    const load = () => void p.load().then((c) => live && c && setComponent(() => c))
    const timer = wanted ? null : setTimeout(load, LOAD_AFTER_DRAW_MS)
    if (wanted) load()
    return () => {
      live = false
      if (timer) clearTimeout(timer)
    }
  }, [p, component, wanted, mapDrawn])
  return component
}

export const MarkerDetailOnDemand = observer(function MarkerDetailOnDemand() {
  const { markers, map } = useStores()
  const MarkerDetail = useLoaded(markerDetail, markers.detailOpen, map.loaderState === 'loaded')
  return MarkerDetail ? <MarkerDetail /> : null
})

export const LayerPanelOnDemand = observer(function LayerPanelOnDemand(props: LayerPanelProps) {
  const { map } = useStores()
  const LayerPanel = useLoaded(layerPanel, props.visible, map.loaderState === 'loaded')
  return LayerPanel ? <LayerPanel {...props} /> : null
})

export const SearchPanelOnDemand = observer(function SearchPanelOnDemand(props: SearchPanelProps) {
  const { map } = useStores()
  const SearchPanel = useLoaded(searchPanel, props.visible, map.loaderState === 'loaded')
  return SearchPanel ? <SearchPanel {...props} /> : null
})

export const ConflictSheetOnDemand = observer(function ConflictSheetOnDemand() {
  const { sync, map } = useStores(syncStores)
  const ConflictSheet = useLoaded(conflictSheet, !!sync.conflict, map.loaderState === 'loaded')
  return ConflictSheet ? <ConflictSheet /> : null
})

export const OutboxSheetOnDemand = observer(function OutboxSheetOnDemand() {
  const { outbox, map } = useStores(syncStores)
  const OutboxSheet = useLoaded(outboxSheet, outbox.sheetOpen || !!outbox.confirming, map.loaderState === 'loaded')
  return OutboxSheet ? <OutboxSheet /> : null
})

export const BasemapSheetOnDemand = observer(function BasemapSheetOnDemand(props: MapSheetProps) {
  const { map } = useStores()
  const BasemapSheet = useLoaded(basemapSheet, props.visible, map.loaderState === 'loaded')
  return BasemapSheet ? <BasemapSheet {...props} /> : null
})

export const FilterSheetOnDemand = observer(function FilterSheetOnDemand(props: MapSheetProps) {
  const { map } = useStores()
  const FilterSheet = useLoaded(filterSheet, props.visible, map.loaderState === 'loaded')
  return FilterSheet ? <FilterSheet {...props} /> : null
})
