import type { NavPlace } from '../../domain/directions'

/** What became of a 导航 tap: a map app or page took the place, the user backed out, or nothing could open it. */
export type DirectionsOutcome = 'opened' | 'cancelled' | 'failed'

/** Hands a place (GCJ-02, with its name and address) to the phone's map: WeChat's map page, our host app, or AMap. */
export interface DirectionsPlatform {
  open(place: NavPlace): Promise<DirectionsOutcome>
}
