/**
 * Code a page loads only when it is wanted, or a little after the page's first draw: kept out of
 * the page's entry (its JS budget, DESIGN 7). A load that fails (no network, and no service worker
 * copy) leaves nothing cached, so the next open tries again instead of staying broken.
 */
import { useEffect, useState, type ComponentType } from 'react'

export interface OnDemandPart<P> {
  /** The component once its code is in. */
  current: ComponentType<P> | null
  /** Loads the code once; after a failure the next call loads again. Resolves null on failure. */
  load(): Promise<ComponentType<P> | null>
}

export function onDemandPart<P>(importer: () => Promise<ComponentType<P>>): OnDemandPart<P> {
  let loading: Promise<ComponentType<P> | null> | null = null
  const p: OnDemandPart<P> = {
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

/**
 * The part's component once its code is in and it was first wanted: loaded at once when `wanted`,
 * else `afterMs` after `ready` turns true. Code loaded ahead is not rendered until then: a closed
 * panel shows nothing, and rendering it (the layer panel's tree and dialogs) was a long task of
 * its own while a large map was still loading.
 */
export function useOnDemand<P>(p: OnDemandPart<P>, wanted: boolean, ready: boolean, afterMs: number): ComponentType<P> | null {
  const [component, setComponent] = useState(() => p.current)
  // Once opened, it stays rendered: a closing panel plays its animation, and keeps what it holds for the next open.
  const [used, setUsed] = useState(wanted)
  if (wanted && !used) setUsed(true)
  useEffect(() => {
    if (component || (!wanted && !ready)) return undefined
    let live = true
    const load = () => void p.load().then((c) => live && c && setComponent(() => c))
    const timer = wanted ? null : setTimeout(load, afterMs)
    if (wanted) load()
    return () => {
      live = false
      if (timer) clearTimeout(timer)
    }
  }, [p, component, wanted, ready, afterMs])
  return used || wanted ? component : null
}
