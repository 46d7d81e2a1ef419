/**
 * Where the user is, H5. Inside our host app the host answers (SPEC 7 `location` →
 * check_location_callback, GCJ-02 already); in a browser, the Geolocation API gives WGS-84, which
 * is converted to GCJ-02, the stored form. Addresses come from AMap's geocoder when a map key is
 * configured; the keyless map has none.
 */
import { DEFAULT_MAP_PLUGIN_VERSION } from '../../domain/constants'
import { wgs84ToGcj02 } from '../../domain/geo'
import { hostChannel } from '../host/channel'
import type { HostWindow } from '../host/types'
import { LocationError, type GeoPlatform, type Locate, type Position } from './types'

export type { GeoPlatform, Locate, Position } from './types'
export { LocationError } from './types'

const inHost = () => hostChannel(window as unknown as HostWindow) !== null

function browserPosition(): Promise<Position> {
  return new Promise((resolve, reject) => {
    if (!navigator.geolocation) return reject(new LocationError('unavailable', 'no geolocation'))
    navigator.geolocation.getCurrentPosition(
      (pos) => {
        const p = wgs84ToGcj02({ lng: pos.coords.longitude, lat: pos.coords.latitude })
        resolve({ lng: p.lng, lat: p.lat, accuracy: pos.coords.accuracy })
      },
      (err) => reject(new LocationError(err.code === 1 ? 'denied' : 'unavailable', err.message)),
      { enableHighAccuracy: true, timeout: 8000, maximumAge: 1000 },
    )
  })
}

async function hostPosition(): Promise<Position> {
  const { hostBridge } = await import('../host')
  let reply
  try {
    reply = await hostBridge.request('location', {})
  } catch (err) {
    throw new LocationError('unavailable', String(err))
  }
  if (reply.allowed === false) throw new LocationError('denied', reply.error ?? 'denied')
  if (typeof reply.lng !== 'number' || typeof reply.lat !== 'number') throw new LocationError('unavailable', reply.error ?? 'no position')
  return { lng: reply.lng, lat: reply.lat, accuracy: reply.accuracy ?? 0 }
}

export const locate: Locate = () => (inHost() ? hostPosition() : browserPosition())

let geocoder: Promise<{ getAddress(lnglat: [number, number], cb: (status: string, result: any) => void): void } | null> | null = null

function loadGeocoder() {
  geocoder ??= (async () => {
    if (!AMAP_KEY) return null
    const AMapLoader = (await import('@amap/amap-jsapi-loader')).default
    // The loader answers the map's own load (same key and version) with the plugin added.
    const AMap = await AMapLoader.load({ key: AMAP_KEY, version: DEFAULT_MAP_PLUGIN_VERSION, plugins: ['AMap.Geocoder'] })
    return new AMap.Geocoder({})
  })().catch((err) => {
    geocoder = null
    throw err
  })
  return geocoder
}

export const geoPlatform: GeoPlatform = {
  locate,
  async reverseGeocode(p) {
    const g = await loadGeocoder()
    if (!g) return null
    return new Promise((resolve) => {
      g.getAddress([p.lng, p.lat], (status, result) => resolve(status === 'complete' ? String(result?.regeocode?.formattedAddress ?? '') || null : null))
    })
  },
  async openAuthSetting() {
    if (!inHost()) return false
    const { hostBridge } = await import('../host')
    hostBridge.send('open_app_auth_setting', {})
    return true
  },
  async permissionGranted() {
    try {
      if (inHost()) {
        const { hostBridge } = await import('../host')
        const reply = await hostBridge.request('check_location', {})
        return typeof reply.allowed === 'boolean' ? reply.allowed : null
      }
      if (!navigator.permissions?.query) return null
      const status = await navigator.permissions.query({ name: 'geolocation' as PermissionName })
      return status.state === 'granted' ? true : status.state === 'denied' ? false : null
    } catch {
      return null
    }
  },
}
