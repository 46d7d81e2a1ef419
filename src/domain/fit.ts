/** Where to put the map to show a bounding box [west, south, east, north] (GCJ-02 degrees). */
export function fitTarget(b: readonly [number, number, number, number]): { lng: number; lat: number; zoom: number } {
  const span = Math.max(b[2] - b[0], b[3] - b[1], 0.002)
  const zoom = Math.max(2, Math.min(18, Math.floor(Math.log2(360 / span))))
  return { lng: (b[0] + b[2]) / 2, lat: (b[1] + b[3]) / 2, zoom }
}
