/**
 * Plain points drawn on a canvas while the keyless map moves (their elements are hidden meanwhile):
 * which points are drawn so, and that the drawing is the pin and title the stylesheet makes. The
 * swap itself runs in the browser (test/e2e/mapengine.test.ts).
 */
import { pointMarkup, titleCss } from '../../src/platform/map/markup'
import { drawPin, drawTitle, titleLook } from '../../src/platform/map/pointSprites'
import { buildMarker } from '../support/mapBuilders'
import { fakeContext } from '../support/fakeCanvas'

const titleStyle = { font_size: 16, color: '#ff0000', bg_color: '#ffffff', padding: 2, border_weight: 1, border_color: '#00ff00' }

describe('which points are drawn while the map moves', () => {
  it('a plain point as a pin of its colour and size, an icon point as its icon', () => {
    expect(pointMarkup(buildMarker({ style: { color: '#00B42A', size: 32 } }), false, undefined).sprite).toEqual({ color: '#00B42A', size: 24 })
    expect(pointMarkup(buildMarker({ style: { icon: '/uploads/a.png', size: 40 } }), false, undefined).sprite).toEqual({ icon: true, size: 30 })
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

  it("reads a title's look from the inline style the markup gives it", () => {
    const style: Record<string, string> = {
      fontSize: '16px',
      color: 'rgb(255, 0, 0)',
      backgroundColor: 'rgb(255, 255, 255)',
      borderTopStyle: 'solid',
      borderTopWidth: '1px',
      borderTopColor: 'rgb(0, 255, 0)',
    }
    expect(titleCss(titleStyle)).toContain('border:1px solid #00ff00')
    const look = titleLook({ style, textContent: '北门' } as unknown as HTMLElement)
    expect(look).toEqual({ text: '北门', fontSize: 16, color: 'rgb(255, 0, 0)', background: 'rgb(255, 255, 255)', borderWidth: 1, borderColor: 'rgb(0, 255, 0)' })
    expect(titleLook({ style: { ...style, borderTopStyle: 'none' }, textContent: '北门' } as unknown as HTMLElement).borderWidth).toBe(0)
  })

  it('draws a title as its background, its border inside the box and its text centred', () => {
    const { ctx, calls } = fakeContext()
    drawTitle(ctx, { left: 10, top: 20, width: 60, height: 22 }, { text: '北门', fontSize: 16, color: '#f00', background: '#fff', borderWidth: 1, borderColor: '#0f0' }, 'sans-serif')
    expect(calls.find((c) => c[0] === '=font')).toEqual(['=font', '16px sans-serif'])
    expect(calls.find((c) => c[0] === 'fillText')).toEqual(['fillText', '北门', 40, 31.5])
    expect(calls.find((c) => c[0] === '=lineWidth')).toEqual(['=lineWidth', 2])
    expect(calls.find((c) => c[0] === 'clip')).toBeTruthy()
  })

  it('draws no border for a title without one', () => {
    const { ctx, count } = fakeContext()
    drawTitle(ctx, { left: 0, top: 0, width: 40, height: 20 }, { text: 'a', fontSize: 14, color: '#000', background: '#fff', borderWidth: 0, borderColor: '' }, 'sans-serif')
    expect(count('stroke')).toBe(0)
    expect(count('fillText')).toBe(1)
  })
})
