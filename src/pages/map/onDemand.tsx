/**
 * The map's panels and sheets that only a tap opens (a marker or a search result, the 图层 tool, a
 * save refused as stale): their code loads the first time one opens, not with the /map entry (its JS
 * budget, DESIGN 7). Once loaded each stays mounted, so that closing it still animates and reopening
 * it is instant. Without network the H5 service worker serves these chunks like every other file of the build.
 */
import { observer } from 'mobx-react-lite'
import { lazy, Suspense, useEffect, useState } from 'react'
import type { LayerPanelProps } from '../../components/LayerPanel'
import { useStores } from '../../stores/context'
import { syncStores } from '../../stores/syncStores'

const MarkerDetail = lazy(() => import('../../components/MarkerDetail').then((m) => ({ default: m.MarkerDetail })))
const LayerPanel = lazy(() => import('../../components/LayerPanel').then((m) => ({ default: m.LayerPanel })))
const ConflictSheet = lazy(() => import('../../components/ConflictSheet').then((m) => ({ default: m.ConflictSheet })))

/** True from the first time `open` is, for good. */
function useOpenedOnce(open: boolean): boolean {
  const [opened, setOpened] = useState(open)
  useEffect(() => {
    if (open) setOpened(true)
  }, [open])
  return opened || open
}

export const MarkerDetailOnDemand = observer(function MarkerDetailOnDemand() {
  const { markers } = useStores()
  const opened = useOpenedOnce(markers.detailOpen)
  return opened ? (
    <Suspense fallback={null}>
      <MarkerDetail />
    </Suspense>
  ) : null
})

export function LayerPanelOnDemand(props: LayerPanelProps) {
  const opened = useOpenedOnce(props.visible)
  return opened ? (
    <Suspense fallback={null}>
      <LayerPanel {...props} />
    </Suspense>
  ) : null
}

export const ConflictSheetOnDemand = observer(function ConflictSheetOnDemand() {
  const { sync } = useStores(syncStores)
  const opened = useOpenedOnce(!!sync.conflict)
  return opened ? (
    <Suspense fallback={null}>
      <ConflictSheet />
    </Suspense>
  ) : null
})
