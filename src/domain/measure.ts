/**
 * 测距 and 测面积 on the map: the points tapped so far and what they measure, with the geometry the
 * marker details use (src/domain/points.ts: great-circle lengths, spherical ring areas) and the
 * units of the settings. Pure: the store keeps the state, the map draws it; nothing here is a marker
 * and nothing is saved.
 */
import { MEASURE_MSG } from './measureMessages'
import { MARKER_KIND } from './markerKinds'
import { formatArea, formatLength, lineLength, ringArea, type AreaUnit, type LngLat } from './points'

/** 测距: the length of a line through the points; 测面积: the area they enclose. */
export type MeasureMode = 'length' | 'area'

export interface MeasureState {
  mode: MeasureMode
  /** The tapped points in order, GCJ-02. */
  points: readonly LngLat[]
}

/** At most this many points: a measure is a few taps; the mini-program sends the line to its map on every one. */
export const MEASURE_POINTS_MAX = 200

/** What the measure bar shows: the figure (or a hint while there are too few points) and its detail. */
export interface MeasureReadout {
  /** '总长 1.23公里' / '面积 3,200平方米'; '' while the points measure nothing yet. */
  figure: string
  /** The last segment while measuring a length, the perimeter while measuring an area; '' when none. */
  detail: string
  /** What to do next. */
  hint: string
}

export function emptyMeasure(mode: MeasureMode): MeasureState {
  return { mode, points: [] }
}

/** The state with one more point; the same state when the point is not a coordinate or the limit is reached. */
export function addMeasurePoint(state: MeasureState, p: LngLat): MeasureState {
  if (!Number.isFinite(p.lng) || !Number.isFinite(p.lat) || state.points.length >= MEASURE_POINTS_MAX) return state
  return { ...state, points: [...state.points, { lng: p.lng, lat: p.lat }] }
}

/** Without its last point (撤销); the same state when there is none. */
export function undoMeasurePoint(state: MeasureState): MeasureState {
  return state.points.length ? { ...state, points: state.points.slice(0, -1) } : state
}

/** Another mode over the same points: a walked boundary measured as a length can be read as an area. */
export function switchMeasureMode(state: MeasureState, mode: MeasureMode): MeasureState {
  return state.mode === mode ? state : { ...state, mode }
}

/** Metres along the points in order. */
export function measuredLength(points: readonly LngLat[]): number {
  return lineLength(points as LngLat[])
}

/** Square metres enclosed by the points (closed back to the first); 0 below three points. */
export function measuredArea(points: readonly LngLat[]): number {
  return points.length >= 3 ? ringArea(points as LngLat[]) : 0
}

/** Metres round the closed outline; 0 below three points. */
export function measuredPerimeter(points: readonly LngLat[]): number {
  return points.length >= 3 ? lineLength([...points, points[0]]) : 0
}

/** The bar's text for the state, areas in the user's unit (设置 › 面积单位). */
export function measureReadout(state: MeasureState, unit: AreaUnit): MeasureReadout {
  const n = state.points.length
  const full = n >= MEASURE_POINTS_MAX ? MEASURE_MSG.tooMany(MEASURE_POINTS_MAX) : ''
  if (state.mode === 'length') {
    if (n < 2) return { figure: '', detail: '', hint: n === 0 ? MEASURE_MSG.lengthStart : MEASURE_MSG.lengthNext }
    const last = lineLength([state.points[n - 2], state.points[n - 1]])
    return { figure: MEASURE_MSG.length(formatLength(measuredLength(state.points))), detail: MEASURE_MSG.lastSegment(formatLength(last)), hint: full || MEASURE_MSG.lengthMore }
  }
  if (n < 3) return { figure: '', detail: '', hint: MEASURE_MSG.areaNeeds(3 - n) }
  return { figure: MEASURE_MSG.area(formatArea(measuredArea(state.points), unit)), detail: MEASURE_MSG.perimeter(formatLength(measuredPerimeter(state.points))), hint: full || MEASURE_MSG.areaMore }
}

/** What the map draws for the state, as it draws a marker being drawn: a line, or an area once it has three points. */
export function measureDraft(state: MeasureState): { type: number; parts: LngLat[][]; radius: number } | null {
  if (!state.points.length) return null
  return { type: state.mode === 'area' ? MARKER_KIND.polygon : MARKER_KIND.solidLine, parts: [state.points.slice()], radius: 0 }
}
