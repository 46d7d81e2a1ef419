/**
 * Route planning (/route, /route/add): saved routes of a group through ordered stops
 * (markers of the group or map points, GCJ-02), with a travel mode and the distance and duration
 * of each leg. The server measures the legs itself on every plan and save: along roads or paths
 * through the map provider when one is configured (AMAP_WEB_KEY), otherwise the straight-line
 * distance with an average-speed estimate (src/domain/routes.ts). Client figures are never stored.
 *
 * Who may do what (SPEC 6): every call needs the module module_routing (a VIP module: locked on the
 * free tier, even for the administrator); saving needs routing_add, deleting routing_delete,
 * sharing (a share of type 3) routing_share. Managers see and change all of the group's routes;
 * other members their own. A route of another group is NOT_FOUND, exactly like an unknown id.
 */
import type { Paged } from './api'

export type TravelMode = 'driving' | 'walking'

/**
 * A stop as the client sends it: a marker of the group that the caller may see (`marker_id`; the
 * server reads its name and position: a point's position, a circle's centre, the centre of any
 * other shape's bounds), or a map point (`lng`, `lat`, with an optional `name`).
 */
export interface RouteStopInput {
  marker_id?: number
  name?: string
  lng?: number
  lat?: number
}

/** A stop as saved: what it was when the route was last saved (moving a marker later does not move the route). */
export interface RouteStop {
  /** The marker this stop was taken from, or null for a map point. */
  marker_id: number | null
  name: string
  lng: number
  lat: number
}

/** 'provider': measured along roads or paths by the map provider; 'straight': great-circle distance and an average-speed estimate. */
export type LegSource = 'provider' | 'straight'

/** The way from one stop to the next. */
export interface RouteLeg {
  /** Metres. */
  distance: number
  /** Seconds. */
  duration: number
  source: LegSource
}

/** The legs through a list of stops (one fewer than the stops) and their sums. */
export interface RoutePlan {
  mode: TravelMode
  stops: RouteStop[]
  legs: RouteLeg[]
  /** Metres, all legs. */
  distance: number
  /** Seconds, all legs. */
  duration: number
}

export interface SavedRoute extends RoutePlan {
  id: number
  name: string
  creator: { id: number; nickname: string }
  /** ISO 8601. */
  created_at: string
  updated_at: string
}

/** A route as a public route share shows it (no creator). */
export type SharedRoute = Omit<SavedRoute, 'creator'>

export interface RouteApi {
  /** The routes the caller may see (managers: the group's; others: their own), newest change first; kw matches the name. */
  '/api/route/getlist': { req: { kw?: string; pageindex?: number; pagesize?: number }; res: Paged<SavedRoute> }
  '/api/route/getbyid': { req: { id: number }; res: SavedRoute }
  /**
   * Measures the legs through the stops without saving (live distance and time while editing).
   * `provider` says whether a map provider is configured at all (without one every leg is 'straight').
   */
  '/api/route/plan': { req: { mode: TravelMode; stops: RouteStopInput[] }; res: RoutePlan & { provider: boolean } }
  /** Creates (no id) or updates (id: the creator or a manager) a route; needs routing_add. Marker stops are read again. */
  '/api/route/save': { req: { id?: number; name: string; mode: TravelMode; stops: RouteStopInput[] }; res: SavedRoute }
  /** The creator or a manager deletes a route; needs routing_delete. Route shares then show it no more. */
  '/api/route/delete': { req: { id: number }; res: null }
  /** Public: the routes of a route share (type 3) that still exist, in the share's order (proof as for the other share data calls). */
  '/api/route/get/share': { req: { share_id: string; proof?: string }; res: SharedRoute[] }
}
