import type { LngLat } from '../../domain/geo'
import type { ClusterItem, DrawList, Viewport } from '../../domain/mapDraw'
import type { MemberLocation } from '../../../types/entities'
import type { TitleStyleLook } from '../../../types/mapdata'
import type { TileSourceId } from '../../domain/tileSources'

/** A marker being drawn (vertices so far, a circle's radius in metres). */
export interface DraftGeometry {
  type: number
  parts: LngLat[][]
  radius: number
}

/** A saved marker whose vertices are being moved; `selected` is the vertex picked by a tap. */
export interface EditGeometry {
  type: number
  parts: LngLat[][]
  radius: number
  selected: [number, number] | null
  /** The marker being moved: a point's own pin is the handle, so the map leaves out its pin at the old place. */
  markerId?: number
}

export interface Basemap {
  bg: boolean
  road: boolean
  building: boolean
  poi: boolean
  satellite: boolean
  roadnet: boolean
  traffic: boolean
}

/** Where the page asks the map to go; a new seq moves it even to the same place. */
export interface MapTargetProp {
  lng: number
  lat: number
  zoom: number
  seq: number
}

/**
 * One interface for the three renderers (WeChat map, AMap, Leaflet). Every coordinate here is
 * GCJ-02, as stored; a renderer that shows another datum converts at its edge.
 */
export interface MapViewProps {
  /** Centre in GCJ-02 (what we store). */
  center: LngLat
  zoom: number
  className?: string
  /** What to draw (the domain's draw list for the current view). */
  draw?: DrawList
  selectedId?: number | null
  /** The marker being drawn, shown with its vertices. */
  draft?: DraftGeometry | null
  /** The marker whose vertices are being moved, with a handle per vertex. */
  editing?: EditGeometry | null
  /** Title style of a layer's markers (font size, colours, padding, border). */
  titleStyleOf?: (layerId: number) => TitleStyleLook
  target?: MapTargetProp | null
  /** Base map settings (SPEC 3 map_style and the satellite, road-net and traffic layers). */
  basemap?: Basemap
  /** The tiles the keyless H5 map shows (domain/tileSources.ts); renderers with their own base map ignore it. */
  tileSource?: TileSourceId
  /** Where the user located themselves: a 'you are here' dot (WeChat's map shows its own). */
  self?: LngLat | null
  /** Group members' last positions (shown while the page's toggle is on). */
  members?: MemberLocation[]
  /** Called once the base map is ready, or with the SPEC 8 message when it cannot start. */
  onReady?: () => void
  onError?: (message: string) => void
  /** The base map's tiles could not be loaded (blocked, or no network): called once per map; the markers still work. */
  onBasemapError?: () => void
  onViewChange?: (view: Viewport) => void
  onMarkerTap?: (id: number) => void
  onClusterTap?: (cluster: ClusterItem) => void
  onMapTap?: (p: LngLat) => void
  /**
   * Every tap is a place on the map (measuring): lines and areas under it take none, and on H5 neither
   * do points (a renderer whose marker taps carry no place, WeChat's, still reports those as marker taps).
   */
  tapsToMap?: boolean
  /** A vertex handle was dragged to a new place (H5). */
  onVertexMove?: (part: number, vertex: number, p: LngLat) => void
  /** A vertex handle was tapped (pick it, then tap its new place: works where dragging does not). */
  onVertexTap?: (part: number, vertex: number) => void
  /** The lines and areas of the current draw list are on the map (ends the loading indicator). */
  onShapesDrawn?: () => void
}

/** Which base-map settings a renderer can apply; the settings sheet offers only these. */
export interface MapCapabilities {
  satellite: boolean
  roadnet: boolean
  traffic: boolean
  /** Map-style elements it can switch (SPEC 3 map_style). */
  features: ReadonlyArray<'bg' | 'road' | 'building' | 'poi'>
  /** The tile sources it can take, in the order offered (the keyless H5 map draws tiles from a URL; WeChat's and AMap's maps have their own, and none). */
  tileSources?: ReadonlyArray<{ id: TileSourceId; label: string }>
}
