/** Which base-map settings a renderer can apply; the settings sheet offers only these. */
export interface MapCapabilities {
  satellite: boolean
  roadnet: boolean
  traffic: boolean
  /** Map-style elements it can switch (SPEC 3 map_style). */
  features: ReadonlyArray<'bg' | 'road' | 'building' | 'poi'>
}
