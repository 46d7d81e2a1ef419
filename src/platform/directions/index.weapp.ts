/**
 * Navigation to a place (the mini-program): WeChat's own map page (openLocation) with the place's
 * GCJ-02 coordinates, name and address; from there WeChat offers its route and the map apps
 * installed on the phone. openLocation needs no location permission.
 */
import Taro from '@tarojs/taro'
import type { NavPlace } from '../../domain/directions'
import type { DirectionsOutcome, DirectionsPlatform } from './types'

export type { DirectionsOutcome, DirectionsPlatform } from './types'

/** The map page opens at street level, where the place's surroundings can be told apart. */
const OPEN_SCALE = 16

export const directionsPlatform: DirectionsPlatform = {
  open(place: NavPlace): Promise<DirectionsOutcome> {
    return Taro.openLocation({ latitude: place.lat, longitude: place.lng, name: place.name, address: place.address, scale: OPEN_SCALE }).then(
      () => 'opened' as const,
      (e: { errMsg?: string } | undefined) => (/cancel/i.test(String(e?.errMsg ?? '')) ? ('cancelled' as const) : ('failed' as const)),
    )
  },
}
