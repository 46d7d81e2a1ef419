/**
 * A print scene (print-scene.ts) as its two files: SVG rendered to PNG by resvg with the share
 * cards' CJK font, and a PDF drawn by pdfkit with vector lines and areas and the same font embedded
 * as a subset (fontkit reads the .ttc collection; the face is named). Both draw the same
 * primitives in the same order, so the PDF is the picture at any zoom.
 *
 * The SVG carries its text as the font's own glyph outlines (laid out by fontkit, each glyph defined
 * once and placed with <use>): resvg shapes every <text> element anew with the whole CJK font,
 * some 7 ms each, which made a sheet with a few hundred titles take seconds.
 */
import { Resvg } from '@resvg/resvg-js'
import * as fontkit from 'fontkit'
import PDFDocument from 'pdfkit'
import type { Prim, Scene } from './print-scene'

const n = (v: number) => String(Math.round(v * 10) / 10)

/** The face of a collection to use (wqy-zenhei.ttc holds three; the proportional one first). */
export function fontFace(font: string): string | undefined {
  return /wqy-zenhei\.ttc$/i.test(font) ? 'WenQuanYiZenHei' : /wqy-microhei\.ttc$/i.test(font) ? 'WenQuanYiMicroHei' : /NotoSansCJK-Regular\.ttc$/i.test(font) ? 'NotoSansCJKsc-Regular' : undefined
}

/** A font's glyphs as SVG paths, each defined once per picture. */
export class GlyphFont {
  private readonly face: fontkit.Font
  private readonly paths = new Map<number, string>()
  constructor(file: string) {
    const opened = fontkit.openSync(file, fontFace(file)) as fontkit.Font | fontkit.FontCollection
    this.face = 'fonts' in opened ? opened.fonts[0] : opened
  }
  get unitsPerEm(): number {
    return this.face.unitsPerEm
  }
  /** The text's glyphs: ids and pen positions in font units. */
  layout(text: string): { ids: number[]; xs: number[]; advance: number } {
    const run = this.face.layout(text)
    const ids: number[] = []
    const xs: number[] = []
    let x = 0
    run.glyphs.forEach((g, i) => {
      ids.push(g.id)
      xs.push(x + run.positions[i].xOffset)
      x += run.positions[i].xAdvance
      if (!this.paths.has(g.id)) this.paths.set(g.id, g.path.toSVG())
    })
    return { ids, xs, advance: x }
  }
  pathOf(id: number): string {
    return this.paths.get(id) ?? ''
  }
}

function ringsD(rings: number[][], close: boolean): string {
  let d = ''
  for (const r of rings) {
    for (let i = 0; i < r.length; i += 2) d += `${i ? 'L' : 'M'}${n(r[i])} ${n(r[i + 1])}`
    if (close) d += 'Z'
  }
  return d
}

function paint(p: { fill?: string; fo?: number; stroke?: string; sw?: number; dash?: [number, number] }): string {
  let a = ` fill="${p.fill ?? 'none'}"`
  if (p.fo !== undefined && p.fo < 1) a += ` fill-opacity="${Math.round(p.fo * 100) / 100}"`
  if (p.stroke && (p.sw ?? 0) > 0) a += ` stroke="${p.stroke}" stroke-width="${n(p.sw ?? 1)}"`
  if (p.dash) a += ` stroke-dasharray="${n(p.dash[0])} ${n(p.dash[1])}"`
  return a
}

function primSvg(p: Prim, clips: { id: number }, glyphs: GlyphFont | null, used: Set<number>): string {
  switch (p.k) {
    case 'rect':
      return `<rect x="${n(p.x)}" y="${n(p.y)}" width="${n(p.w)}" height="${n(p.h)}"${paint(p)}/>`
    case 'dots': {
      const disc = (r: number) => {
        let d = ''
        for (let i = 0; i < p.xy.length; i += 2) d += `M${n(p.xy[i] - r)} ${n(p.xy[i + 1])}a${n(r)} ${n(r)} 0 1 0 ${n(2 * r)} 0a${n(r)} ${n(r)} 0 1 0 ${n(-2 * r)} 0`
        return d
      }
      return `<path d="${disc(p.r + p.ring / 2)}" fill="#FFFFFF"/><path d="${disc(p.r - p.ring / 2)}" fill="${p.fill}"/>`
    }
    case 'circle':
      return `<circle cx="${n(p.x)}" cy="${n(p.y)}" r="${n(p.r)}"${paint(p)}/>`
    case 'path': {
      const line = p.close ? ' fill-rule="evenodd" stroke-linejoin="round"' : ' stroke-linecap="round" stroke-linejoin="round"'
      // A line's opacity is its stroke's (fo carries it for lines).
      const attrs = p.close ? paint(p) : paint({ stroke: p.stroke, sw: p.sw, dash: p.dash }) + (p.fo !== undefined && p.fo < 1 ? ` stroke-opacity="${Math.round(p.fo * 100) / 100}"` : '')
      return `<path d="${ringsD(p.rings, p.close)}"${attrs}${line}/>`
    }
    case 'text': {
      if (!glyphs) return ''
      const { ids, xs, advance } = glyphs.layout(p.s)
      const k = p.size / glyphs.unitsPerEm
      const x = p.anchor === 'middle' ? p.x - (advance * k) / 2 : p.anchor === 'end' ? p.x - advance * k : p.x
      let out = `<g transform="translate(${n(x)} ${n(p.y)}) scale(${k.toFixed(5)} ${(-k).toFixed(5)})" fill="${p.color}"${p.bold ? ` stroke="${p.color}" stroke-width="${Math.round(glyphs.unitsPerEm / 30)}"` : ''}>`
      for (let i = 0; i < ids.length; i++) {
        used.add(ids[i])
        out += `<use href="#g${ids[i]}" x="${Math.round(xs[i])}"/>`
      }
      return out + '</g>'
    }
    case 'image':
      return `<image x="${n(p.x)}" y="${n(p.y)}" width="${n(p.w)}" height="${n(p.h)}" href="data:image/${p.png[0] === 0xff ? 'jpeg' : 'png'};base64,${Buffer.from(p.png).toString('base64')}" preserveAspectRatio="none"/>`
    case 'clip':
      clips.id++
      return `<clipPath id="c${clips.id}"><rect x="${n(p.box.x)}" y="${n(p.box.y)}" width="${n(p.box.width)}" height="${n(p.box.height)}"/></clipPath><g clip-path="url(#c${clips.id})">`
    case 'unclip':
      return '</g>'
  }
}

export function sceneSvg(scene: Scene, glyphs: GlyphFont | null = null): string {
  const clips = { id: 0 }
  const used = new Set<number>()
  const body: string[] = []
  for (const p of scene.prims) body.push(primSvg(p, clips, glyphs, used))
  const defs = glyphs && used.size ? `<defs>${[...used].map((id) => `<path id="g${id}" d="${glyphs.pathOf(id)}"/>`).join('')}</defs>` : ''
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${scene.width}" height="${scene.height}" viewBox="0 0 ${scene.width} ${scene.height}">${defs}${body.join('')}</svg>`
}

export function scenePng(scene: Scene, glyphs: GlyphFont | null, collect: () => void = () => undefined): Buffer {
  const tree = new Resvg(sceneSvg(scene, glyphs), { fitTo: { mode: 'original' }, font: { loadSystemFonts: false } })
  // The SVG text is parsed into resvg's tree: let it go before the pixels are allocated.
  collect()
  return tree.render().asPng()
}

/**
 * The PDF: one page of the paper's size in points; the scene's pixels are scaled to points, so
 * lines and areas stay vectors and the text is real text (searchable, selectable).
 */
export function scenePdf(scene: Scene, font: string | null, page: { width: number; height: number }, title: string): Promise<Buffer> {
  const doc = new PDFDocument({ size: [page.width, page.height], margin: 0, autoFirstPage: true, info: { Title: title, Creator: '团队地图' }, compress: true })
  const chunks: Buffer[] = []
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (c: Buffer) => chunks.push(c))
    doc.on('end', () => resolve(Buffer.concat(chunks)))
    doc.on('error', reject)
  })
  if (font) {
    const face = fontFace(font)
    if (face) doc.font(font, face)
    else doc.font(font)
  }
  doc.scale(page.width / scene.width)
  const fillPaint = (p: { fill?: string; fo?: number; stroke?: string; sw?: number; dash?: [number, number] }, evenOdd: boolean) => {
    if (p.dash) doc.dash(p.dash[0], { space: p.dash[1] })
    else doc.undash()
    const hasFill = p.fill && p.fill !== 'none'
    const hasStroke = p.stroke && (p.sw ?? 0) > 0
    if (hasStroke) doc.lineWidth(p.sw!)
    if (hasFill) doc.fillOpacity(p.fo ?? 1)
    if (hasFill && hasStroke) {
      doc.strokeOpacity(1)
      doc.fillAndStroke(p.fill!, p.stroke!, evenOdd ? 'even-odd' : 'non-zero')
    } else if (hasFill) doc.fill(p.fill!, evenOdd ? 'even-odd' : 'non-zero')
    else if (hasStroke) doc.stroke(p.stroke!)
  }
  for (const p of scene.prims) {
    switch (p.k) {
      case 'rect':
        doc.rect(p.x, p.y, p.w, p.h)
        fillPaint(p, false)
        break
      case 'circle':
        doc.circle(p.x, p.y, p.r)
        fillPaint(p, false)
        break
      case 'dots':
        doc.undash().fillOpacity(1)
        for (const [r, fill] of [
          [p.r + p.ring / 2, '#FFFFFF'],
          [p.r - p.ring / 2, p.fill],
        ] as const) {
          for (let i = 0; i < p.xy.length; i += 2) doc.circle(p.xy[i], p.xy[i + 1], r)
          doc.fill(fill)
        }
        break
      case 'path':
        for (const r of p.rings) {
          if (r.length < 2) continue
          doc.moveTo(r[0], r[1])
          for (let i = 2; i < r.length; i += 2) doc.lineTo(r[i], r[i + 1])
          if (p.close) doc.closePath()
        }
        if (p.close) fillPaint(p, true)
        else {
          doc.lineCap('round').lineJoin('round')
          doc.strokeOpacity(p.fo ?? 1)
          fillPaint({ stroke: p.stroke, sw: p.sw, dash: p.dash }, false)
          doc.strokeOpacity(1)
        }
        break
      case 'text': {
        if (!font) break
        doc.fillOpacity(1).fillColor(p.color).fontSize(p.size)
        const width = doc.widthOfString(p.s)
        const x = p.anchor === 'middle' ? p.x - width / 2 : p.anchor === 'end' ? p.x - width : p.x
        doc.text(p.s, x, p.y, { lineBreak: false, baseline: 'alphabetic' })
        break
      }
      case 'image':
        doc.image(Buffer.from(p.png), p.x, p.y, { width: p.w, height: p.h })
        break
      case 'clip':
        doc.save()
        doc.rect(p.box.x, p.box.y, p.box.width, p.box.height).clip()
        break
      case 'unclip':
        doc.restore()
        break
    }
  }
  doc.end()
  return done
}
