/**
 * Map titles that do not cover each other. Pure: renderers measure (or estimate, src/domain/titleFrame.ts)
 * their title boxes in screen px and show only the ones placed here. Kept small: the keyless map
 * loads it with the /map page.
 */

/** A title's box on the screen, in CSS px; a higher rank is placed first (a selected marker's, then points', then lines' and areas'). */
export interface LabelBox {
  key: string
  left: number
  top: number
  width: number
  height: number
  rank: number
}

/** Room kept between two shown titles, in px, so that their frames do not touch. */
export const LABEL_GAP = 2

/**
 * The keys of the titles to show: by rank (then in the given order), each title that does not
 * overlap one already shown. A title with no size (not laid out) is shown: it covers nothing.
 */
export function placeLabels(boxes: readonly LabelBox[]): Set<string> {
  const order = boxes.map((b, i) => ({ b, i })).sort((x, y) => y.b.rank - x.b.rank || x.i - y.i)
  const shown: LabelBox[] = []
  const keys = new Set<string>()
  for (const { b } of order) {
    const hit =
      b.width > 0 &&
      b.height > 0 &&
      shown.some((s) => b.left < s.left + s.width + LABEL_GAP && s.left < b.left + b.width + LABEL_GAP && b.top < s.top + s.height + LABEL_GAP && s.top < b.top + b.height + LABEL_GAP)
    if (hit) continue
    if (b.width > 0 && b.height > 0) shown.push(b)
    keys.add(b.key)
  }
  return keys
}
