/** The user's position in GCJ-02 (what we store and what WeChat and AMap use). */
export interface Position {
  lng: number
  lat: number
  accuracy: number
}

export type Locate = () => Promise<Position>

/**
 * Why no position came: the user refused location access, the device could not tell, or WeChat's
 * privacy agreement stopped the call ('privacy': the message is the Chinese one to show).
 */
export class LocationError extends Error {
  constructor(
    readonly kind: 'denied' | 'unavailable' | 'privacy',
    message: string = kind,
  ) {
    super(message)
    this.name = 'LocationError'
  }
}

/** Positions, addresses and the way to the app's location setting (SPEC 4 location). */
export interface GeoPlatform {
  /** One position, GCJ-02; rejects with LocationError. */
  locate: Locate
  /**
   * The address of a position, or null where no geocoder is available (no map key, the
   * mini-program); rejects when a geocoder exists but failed to load (SPEC 8's map message).
   */
  reverseGeocode(p: { lng: number; lat: number }): Promise<string | null>
  /** Opens the system or app setting where location access is granted; false where none can be opened. */
  openAuthSetting(): Promise<boolean>
  /** Whether location access was granted before (true), refused (false) or never asked / unknown (null), without asking. */
  permissionGranted(): Promise<boolean | null>
}
