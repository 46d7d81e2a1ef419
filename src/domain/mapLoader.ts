/**
 * The AMap loader's own rules (SPEC 5 and 8), checked before anything is loaded: a key is needed,
 * one page uses one key and one version, and Loca must match the map API (Loca 2.x with JS API 2.x,
 * Loca 1.x with JS API 1.4). States of SPEC 4: notload, loading, loaded, failed.
 */
import { MAP_ENGINE_MSG } from './messages'

export type MapLoaderState = 'notload' | 'loading' | 'loaded' | 'failed'

export interface MapLoadRequest {
  key: string
  version: string
  /** Loca's version when the heatmap layer is wanted. */
  loca?: string
}

/** The problem with a load request, or null; `previous` is what this page already loaded. */
export function checkAmapLoader(req: MapLoadRequest, previous?: MapLoadRequest | null): string | null {
  if (!req.key || !req.key.trim()) return MAP_ENGINE_MSG.loaderKeyMissing
  if (previous) {
    if (previous.key !== req.key) return MAP_ENGINE_MSG.loaderMixedKeys
    if (previous.version !== req.version) return MAP_ENGINE_MSG.loaderMixedVersions
    if (previous.loca && req.loca && previous.loca !== req.loca) return MAP_ENGINE_MSG.loaderMixedVersions
  }
  if (req.loca) {
    const mapMajor = req.version.split('.')[0]
    const locaMajor = req.loca.split('.')[0]
    if ((locaMajor === '2') !== (mapMajor === '2')) return MAP_ENGINE_MSG.loaderLocaMismatch
  }
  return null
}
