/**
 * How the stores get the position platform (H5): its code (the browser's geolocation, the host
 * app's channel, the geocoder) loads on the first call, out of the chunk /login shares with every
 * page. Every method is asynchronous anyway, so the callers cannot tell.
 */
import type { GeoPlatform } from './types'

const load = (): Promise<GeoPlatform> => import('./index').then((m) => m.geoPlatform)

export const geoPlatform: GeoPlatform = {
  locate: () => load().then((g) => g.locate()),
  reverseGeocode: (p) => load().then((g) => g.reverseGeocode(p)),
  openAuthSetting: () => load().then((g) => g.openAuthSetting()),
  permissionGranted: () => load().then((g) => g.permissionGranted()),
}
