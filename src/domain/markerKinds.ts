/**
 * The kinds of markers and layers (SPEC 3), by name: a marker's `type` is 0 point, 1 solid line,
 * 2 dashed line, 3 polygon, 4 rectangle (two corners), 5 circle (centre plus radius), 6 dashed
 * multi-part polygon; lines are 1-2, areas 3-6. A layer's `type` is 0 folder, 1 point, 2 line,
 * 3 area. Pure; the server uses it too.
 */
import type { LayerType, MarkerType } from '../../types/mapdata'

export const MARKER_KIND = {
  point: 0,
  solidLine: 1,
  dashedLine: 2,
  polygon: 3,
  rectangle: 4,
  circle: 5,
  multiPolygon: 6,
} as const satisfies Record<string, MarkerType>

export const LAYER_KIND = {
  folder: 0,
  point: 1,
  line: 2,
  area: 3,
} as const satisfies Record<string, LayerType>

/** A layer type that holds layers, not markers. */
export function isFolder(layerType: number): boolean {
  return layerType === LAYER_KIND.folder
}

export function isPoint(kind: number): boolean {
  return kind === MARKER_KIND.point
}

/** A solid or dashed line. */
export function isLine(kind: number): boolean {
  return kind === MARKER_KIND.solidLine || kind === MARKER_KIND.dashedLine
}

/** A polygon, rectangle, circle or multi-part polygon. */
export function isArea(kind: number): boolean {
  return kind >= MARKER_KIND.polygon && kind <= MARKER_KIND.multiPolygon
}
