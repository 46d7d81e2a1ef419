/**
 * A single-colour icon's inline SVG from its data: URL (base64), as a CSS mask would paint it: every
 * filled or stroked part in the current text colour. Decoded once per icon.
 */
export interface InlineSvg {
  viewBox: string
  /** The svg element's content, each fill and stroke (but "none") set to currentColor. */
  inner: string
}

const decoded = new Map<string, InlineSvg | null>()

export function inlineSvgOf(dataUrl: string): InlineSvg | null {
  let svg = decoded.get(dataUrl)
  if (svg === undefined) {
    svg = parse(dataUrl)
    decoded.set(dataUrl, svg)
  }
  return svg
}

function parse(dataUrl: string): InlineSvg | null {
  const m = /^data:image\/svg\+xml;base64,(.*)$/.exec(dataUrl)
  if (!m) return null
  const bytes = Uint8Array.from(atob(m[1]), (c) => c.charCodeAt(0))
  const text = new TextDecoder().decode(bytes)
  const svg = /<svg\b([^>]*)>([\s\S]*)<\/svg>/.exec(text)
  if (!svg) return null
  const viewBox = /\bviewBox="([^"]*)"/.exec(svg[1])?.[1] ?? '0 0 1024 1024'
  const inner = svg[2].replace(/\b(fill|stroke)="(?!none")[^"]*"/g, '$1="currentColor"')
  return { viewBox, inner }
}
