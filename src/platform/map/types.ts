import type { LngLat } from '../../domain/geo'

export interface MapViewProps {
  /** Centre in GCJ-02 (what we store). */
  center: LngLat
  zoom: number
  className?: string
  /** Called once the base map is ready, or with the SPEC 8 message when it cannot start. */
  onReady?: () => void
  onError?: (message: string) => void
}
