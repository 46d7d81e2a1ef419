/**
 * Plain points drawn on a canvas instead of as elements on the keyless map: which points are drawn
 * so, and that the drawing is the pin and title the stylesheet makes for the others. Drawing and
 * tapping them runs in the browser (test/e2e/mapengine.test.ts).
 */
import { pointMarkup, titleCss, titleLook } from '../../src/platform/map/markup'
import { drawBadges, drawPin, drawTitle, hitBadge, paintPinSprite, PIN_SPRITE_PAD, titleBox, titleWidth, topmostAt, TAP_SLOP, type TapTarget } from '../../src/platform/map/pointSprites'
import { buildMarker } from '../support/mapBuilders'
import { fakeContext } from '../support/fakeCanvas'

const titleStyle = { font_size: 16, color: '#ff0000', bg_color: '#ffffff', padding: 2, border_weight: 1, border_color: '#00ff00' }

describe('which points are drawn on the canvas', () => {
  it('a plain point as a pin of its colour and size, an icon point as its icon, each with its marker', () => {
    const plain = pointMarkup(buildMarker({ id: 7, style: { color: '#00B42A', size: 32 } }), false, undefined)
    expect(plain.sprite).toEqual({ color: '#00B42A', size: 24, title: undefined })
    expect(plain.markerId).toBe(7)
    expect(pointMarkup(buildMarker({ style: { icon: '/uploads/a.png', size: 40 } }), false, undefined).sprite).toEqual({ icon: '/uploads/a.png', size: 30, title: undefined })
  })

  it("with its title in its layer's title style when titles show", () => {
    const m = pointMarkup(buildMarker({ name: '北门' }), false, () => titleStyle)
    expect(m.sprite?.title).toEqual({ text: '北门', fontSize: 16, color: '#ff0000', background: '#ffffff', padY: 2, padX: 4, borderWidth: 1, borderColor: '#00ff00' })
  })

  it('a colour that is not #rrggbb falls back to the default blue, as the element does', () => {
    const m = pointMarkup(buildMarker({ style: { color: 'red;x' } }), false, undefined)
    expect(m.sprite).toMatchObject({ color: '#165DFF' })
    expect(m.html).toContain('background:#165DFF')
  })

  it('not the selected point (its glow) nor a pending one (its 待同步 badge): they keep their elements', () => {
    expect(pointMarkup(buildMarker({}), true, undefined).sprite).toBeUndefined()
    const pending = { ...buildMarker({ id: -1 }), pending: true }
    expect(pointMarkup(pending, false, undefined).sprite).toBeUndefined()
  })
})

describe('the drawing', () => {
  it("turns the pin -45° and scales it 0.8 about its element's centre, white border under the colour", () => {
    const { ctx, calls } = fakeContext()
    drawPin(ctx, 100, 50, 24, '#00B42A')
    expect(calls.find((c) => c[0] === 'translate')).toEqual(['translate', 112, 62])
    expect(calls.find((c) => c[0] === 'rotate')).toEqual(['rotate', -Math.PI / 4])
    expect(calls.find((c) => c[0] === 'scale')).toEqual(['scale', 0.8, 0.8])
    const fills = calls.filter((c) => c[0] === '=fillStyle').map((c) => c[1])
    expect(fills).toEqual(['#fff', '#00B42A'])
    // Every transform is undone: the next pin starts from the layer's own space.
    expect(calls.filter((c) => c[0] === 'save').length).toBe(calls.filter((c) => c[0] === 'restore').length)
  })

  it('paints a pin once on a sprite of its own, at the pixel ratio, with room for its shadow, as drawPin would on the drawing', () => {
    const { ctx, calls } = fakeContext()
    const canvas = { width: 0, height: 0, getContext: () => ctx }
    paintPinSprite(canvas, 24, '#00B42A', 2)
    // 24 px and the shadow's room either side, at twice the CSS pixels.
    expect(canvas).toMatchObject({ width: (24 + 2 * PIN_SPRITE_PAD) * 2, height: (24 + 2 * PIN_SPRITE_PAD) * 2 })
    expect(calls[0]).toEqual(['setTransform', 2, 0, 0, 2, 0, 0])
    const direct = fakeContext()
    drawPin(direct.ctx, PIN_SPRITE_PAD, PIN_SPRITE_PAD, 24, '#00B42A')
    expect(calls.slice(1)).toEqual(direct.calls)
    // Its shadow is painted on the sprite, not again for every pin copied from it.
    expect(calls.some((c) => c[0] === '=shadowBlur' && c[1] === 4)).toBe(true)
  })

  it('gives the canvas the same title sizes as the inline style of an element, kept in bounds', () => {
    expect(titleCss(titleStyle)).toBe('font-size:16px;color:#ff0000;background:#ffffff;padding:2px 4px;border:1px solid #00ff00')
    const huge = { ...titleStyle, font_size: 99, padding: 50, border_weight: 9 }
    expect(titleLook(huge, 'a')).toMatchObject({ fontSize: 32, padY: 20, padX: 24, borderWidth: 6 })
    expect(titleCss(huge)).toBe('font-size:32px;color:#ff0000;background:#ffffff;padding:20px 24px;border:6px solid #00ff00')
    expect(titleLook({ ...titleStyle, border_weight: 0 }, 'a').borderWidth).toBe(0)
    expect(titleCss({ ...titleStyle, border_weight: 0 })).toContain('border:none')
  })

  it("lays a drawn title out as the element's: centred 2 px under its pin, text plus padding and border, line height 1.3", () => {
    const look = titleLook(titleStyle, '北门')
    // 16 px font: 21 px line; padding 2/4 and a 1-px border on each side.
    expect(titleBox(look, 24, 31.2)).toEqual({ left: -9, top: 26, width: 42, height: 27 })
  })

  it('draws a title as its background, its border inside the box and its text centred', () => {
    const { ctx, calls } = fakeContext()
    drawTitle(ctx, { left: 10, top: 20, width: 60, height: 22 }, { text: '北门', fontSize: 16, color: '#f00', background: '#fff', padY: 2, padX: 4, borderWidth: 1, borderColor: '#0f0' }, 'sans-serif')
    expect(calls.find((c) => c[0] === '=font')).toEqual(['=font', '16px sans-serif'])
    expect(calls.find((c) => c[0] === 'fillText')).toEqual(['fillText', '北门', 40, 31.5])
    // The 1-px border inside the box: stroked along the box inset by half a pixel, no clip.
    expect(calls.find((c) => c[0] === '=lineWidth')).toEqual(['=lineWidth', 1])
    const moves = calls.filter((c) => c[0] === 'moveTo')
    expect(moves).toEqual([
      ['moveTo', 13, 20],
      ['moveTo', 10.5 + 2.5, 20.5],
    ])
    expect(calls.find((c) => c[0] === 'arcTo' && c[1] === 69.5)).toEqual(['arcTo', 69.5, 20.5, 69.5, 41.5, 2.5])
    expect(calls.find((c) => c[0] === 'clip')).toBeUndefined()
  })

  it('leaves the font as the caller set it when given no font family (the layer sets it once per size)', () => {
    const { ctx, count } = fakeContext()
    drawTitle(ctx, { left: 0, top: 0, width: 40, height: 20 }, { text: 'a', fontSize: 14, color: '#000', background: '#fff', padY: 0, padX: 2, borderWidth: 0, borderColor: '' }, null)
    expect(count('=font')).toBe(0)
    expect(count('fillText')).toBe(1)
  })

  it('draws no border for a title without one', () => {
    const { ctx, count } = fakeContext()
    drawTitle(ctx, { left: 0, top: 0, width: 40, height: 20 }, { text: 'a', fontSize: 14, color: '#000', background: '#fff', padY: 0, padX: 2, borderWidth: 0, borderColor: '' }, 'sans-serif')
    expect(count('stroke')).toBe(0)
    expect(count('fillText')).toBe(1)
  })
})

describe('what a tap on the drawing opens', () => {
  // Two points side by side whose titles overlap the other's pin, and an area's title over both.
  const pin = (id: number, left: number, title: TapTarget['title'] = null): TapTarget => ({ id, pin: { left, top: 100, size: 24 }, title, passThrough: false })
  const a = pin(1, 100, { left: 90, top: 126, width: 60, height: 20 })
  const b = pin(2, 130, { left: 145, top: 126, width: 60, height: 20 })
  const areaTitle: TapTarget = { id: 9, pin: null, title: { left: 95, top: 105, width: 70, height: 18 }, passThrough: true }

  it('the pin under the tap, with a few px to spare for a finger', () => {
    expect(topmostAt([a, b], 112, 112)).toBe(1)
    expect(topmostAt([a, b], 100 - TAP_SLOP, 100 - TAP_SLOP)).toBe(1)
    expect(topmostAt([a, b], 100 - TAP_SLOP - 1, 112)).toBeNull()
  })

  it('a later pin over an earlier one where they overlap, as drawn', () => {
    expect(topmostAt([a, b], 127, 112)).toBe(2)
    expect(topmostAt([b, a], 127, 112)).toBe(1)
  })

  it('a title over every pin: drawn after them all', () => {
    // Where a's title reaches under b's pin (x 140, y 128 is both in b's pin with its slop and in a's title).
    expect(topmostAt([a, b], 140, 128)).toBe(1)
    expect(topmostAt([a, b], 170, 136)).toBe(2)
  })

  it("a hidden title (left out of the list's titles) takes no tap, and a line's or area's title lets it through to what lies under it", () => {
    expect(topmostAt([{ ...a, title: null }, b], 95, 136)).toBeNull()
    expect(topmostAt([a, b, areaTitle], 112, 112)).toBe(1)
    expect(topmostAt([areaTitle], 150, 110)).toBeNull()
  })

  it('nothing beside the drawing', () => {
    expect(topmostAt([a, b], 300, 300)).toBeNull()
    expect(topmostAt([], 112, 112)).toBeNull()
  })
})

describe("a drawn title's width", () => {
  // A stand-in for the canvas: CJK characters 14 px, others 7 px, an emoji 16 px; a lone surrogate would measure as 99.
  const measureOne = (ch: string) => (ch.length === 2 ? 16 : /[\u4e00-\u9fff]/.test(ch) ? 14 : ch.charCodeAt(0) >= 0xd800 ? 99 : 7)

  it("is the sum of its characters' widths, each character measured once across titles", () => {
    const known = new Map<string, number>()
    const measured: string[] = []
    const measure = (ch: string) => (measured.push(ch), measureOne(ch))
    expect(titleWidth('网点12', known, measure)).toBe(14 + 14 + 7 + 7)
    expect(titleWidth('网点21', known, measure)).toBe(42)
    expect(titleWidth('网点213', known, measure)).toBe(49)
    expect(measured).toEqual(['网', '点', '1', '2', '3'])
  })

  it('measures a character outside the BMP (an emoji) whole, not as two halves', () => {
    const known = new Map<string, number>()
    expect(titleWidth('井😀1', known, measureOne)).toBe(14 + 16 + 7)
    expect(titleWidth('', known, measureOne)).toBe(0)
  })
})

describe('cluster badges drawn with the points', () => {
  it('the top badge where badges overlap, nothing between them', () => {
    const placed = [
      { key: 'a', x: 100, y: 100, r: 24 },
      { key: 'b', x: 120, y: 100, r: 24 },
    ]
    expect(hitBadge(placed, 110, 100)?.key).toBe('b')
    expect(hitBadge(placed, 80, 100)?.key).toBe('a')
    expect(hitBadge(placed, 100, 130)).toBeNull()
  })

  it('draws a badge as its ring, its disc and its label', () => {
    const { ctx, calls, count } = fakeContext()
    drawBadges(
      ctx,
      [
        { key: 'a', x: 10, y: 10, r: 24 },
        { key: 'b', x: 60, y: 10, r: 30 },
      ],
      ['25', '1.2k'],
      '600 13px sans-serif',
    )
    expect(count('arc')).toBe(4)
    expect(calls.filter((c) => c[0] === 'fillText').map((c) => c[1])).toEqual(['25', '1.2k'])
    // Overlapping badges keep every count readable: all discs first, then all counts above them.
    const lastDisc = calls.map((c) => c[0]).lastIndexOf('fill')
    const firstText = calls.findIndex((c) => c[0] === 'fillText')
    expect(firstText).toBeGreaterThan(lastDisc)
  })
})
