/** Saved route rows -> SavedRoute / SharedRoute (types/routes.ts). */
import type { RouteLeg, RouteStop, SavedRoute, SharedRoute, TravelMode } from '../../../types/routes'
import type { RouteRow } from '../db/routes'

export function parseJsonArray<T>(text: string): T[] {
  try {
    const v = JSON.parse(text)
    return Array.isArray(v) ? (v as T[]) : []
  } catch {
    return []
  }
}

export function sharedRouteOf(row: RouteRow): SharedRoute {
  return {
    id: row.id,
    name: row.name,
    mode: row.mode as TravelMode,
    stops: parseJsonArray<RouteStop>(row.stops),
    legs: parseJsonArray<RouteLeg>(row.legs),
    distance: row.distance,
    duration: row.duration,
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}

export function presentRoute(row: RouteRow, creatorName: string): SavedRoute {
  return { ...sharedRouteOf(row), creator: { id: row.creator_id, nickname: creatorName } }
}
