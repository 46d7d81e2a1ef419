/**
 * The map's panels and sheets that only a tap or a refused save opens (the marker detail, the layer
 * panel, the search, the add sheet, the map style and filter sheets, the conflict sheet, the outbox sheet, the measuring bar): their code is not in the /map entry (its JS budget,
 * DESIGN 7). It loads a little after the map and its markers are in, so that a later tap finds it in, or at once
 * when one is opened before that. Without network the H5 service worker serves these chunks like every
 * other file of the build; a load that still fails shows nothing and is tried again on the next open.
 */
import { observer } from 'mobx-react-lite'
import type { ComponentType } from 'react'
import type { LayerPanelProps } from '../../components/LayerPanel'
import type { MapSheetProps } from '../../components/MapSheets'
import type { SearchPanelProps } from '../../components/SearchPanel'
import { onDemandPart, useOnDemand, type OnDemandPart } from '../../hooks/useOnDemand'
import { useStores } from '../../stores/context'
import { syncStores } from '../../stores/syncStores'

/** After the map is up and its markers are in, how long the parts wait before loading: the first view's tiles and drawing go first. */
const LOAD_AFTER_DRAW_MS = 1500

const markerDetail = onDemandPart(() => import('../../components/MarkerDetail').then((m) => m.MarkerDetail))
const layerPanel = onDemandPart<LayerPanelProps>(() => import('../../components/LayerPanel').then((m) => m.LayerPanel))
const searchPanel = onDemandPart<SearchPanelProps>(() => import('../../components/SearchPanel').then((m) => m.SearchPanel))
const conflictSheet = onDemandPart(() => import('../../components/ConflictSheet').then((m) => m.ConflictSheet))
const basemapSheet = onDemandPart<MapSheetProps>(() => import('../../components/MapSheets').then((m) => m.BasemapSheet))
const addSheet = onDemandPart<MapSheetProps>(() => import('../../components/MapSheets').then((m) => m.AddSheet))
const filterSheet = onDemandPart<MapSheetProps>(() => import('../../components/MapSheets').then((m) => m.FilterSheet))
const outboxSheet = onDemandPart(() => import('../../components/OutboxSheet').then((m) => m.OutboxSheet))
const measureBar = onDemandPart(() => import('../../components/MeasureBar').then((m) => m.MeasureBar))

/**
 * The part's component once its code is in: at once when wanted, else a little after the map is up
 * and no markers are loading. A big map's pages and index build take seconds on a slow phone: the
 * parts' code (each chunk's run a task of 30-100 ms there) waits for them instead of cutting in.
 */
function useLoaded<P>(p: OnDemandPart<P>, wanted: boolean): ComponentType<P> | null {
  const { map, markers } = useStores()
  return useOnDemand(p, wanted, map.loaderState === 'loaded' && !markers.loading, LOAD_AFTER_DRAW_MS)
}

/** A panel or sheet the page opens through its `visible` prop. */
function shownByProp<P extends { visible: boolean }>(p: OnDemandPart<P>, name: string) {
  const Wrapper = observer(function Wrapper(props: P) {
    const Part = useLoaded(p, props.visible)
    return Part ? <Part {...props} /> : null
  })
  Wrapper.displayName = name
  return Wrapper
}

export const LayerPanelOnDemand = shownByProp(layerPanel, 'LayerPanelOnDemand')
export const SearchPanelOnDemand = shownByProp(searchPanel, 'SearchPanelOnDemand')
export const BasemapSheetOnDemand = shownByProp(basemapSheet, 'BasemapSheetOnDemand')
export const FilterSheetOnDemand = shownByProp(filterSheet, 'FilterSheetOnDemand')
export const AddSheetOnDemand = shownByProp(addSheet, 'AddSheetOnDemand')

export const MarkerDetailOnDemand = observer(function MarkerDetailOnDemand() {
  const { markers } = useStores()
  const MarkerDetail = useLoaded(markerDetail, markers.detailOpen)
  return MarkerDetail ? <MarkerDetail /> : null
})

export const ConflictSheetOnDemand = observer(function ConflictSheetOnDemand() {
  const { sync } = useStores(syncStores)
  const ConflictSheet = useLoaded(conflictSheet, !!sync.conflict)
  return ConflictSheet ? <ConflictSheet /> : null
})

/** The measuring bar, from the first tap on 测量 (or a little after the map is up). */
export const MeasureBarOnDemand = observer(function MeasureBarOnDemand() {
  const { map } = useStores()
  const MeasureBar = useLoaded(measureBar, map.measure.active)
  return MeasureBar ? <MeasureBar /> : null
})

export const OutboxSheetOnDemand = observer(function OutboxSheetOnDemand() {
  const { outbox } = useStores(syncStores)
  const OutboxSheet = useLoaded(outboxSheet, outbox.sheetOpen || !!outbox.confirming)
  return OutboxSheet ? <OutboxSheet /> : null
})
