/**
 * The watermark of check-in photos (SPEC 9 "Camera video height is window height minus
 * 200; export at 4x scale; watermark text wraps at 220 width").
 */
import type { SignTicket } from '../../types/signs'
import { CAMERA_EXPORT_SCALE, CAMERA_VIDEO_HEIGHT_INSET, IMAGE_PREVIEW_MAX_ZOOM, IMAGE_PREVIEW_MIN_ZOOM, WATERMARK_WRAP_WIDTH } from '../../src/domain/constants'
import { clampZoom, pinchZoom, stepZoom, swipeIndex } from '../../src/domain/imagePreview'
import { CHECKIN_MSG } from '../../src/domain/checkinMessages'
import { cameraVideoHeight, coverCrop, exportSize, formatSignDistance, layoutWatermark, shanghaiDateTime, watermarkText, wrapText, WATERMARK_STYLE } from '../../src/domain/watermark'
import { paintWatermarkedPhoto } from '../../src/platform/camera/draw'
import { cameraProblemOfPage } from '../../src/platform/camera/index.h5'

/** A monospace-like measure: CJK characters one em, everything else 0.5 em. */
const measureAt = (size: number) => (s: string) => Array.from(s).reduce((w, ch) => w + (/[\u3000-\u9fff\uff00-\uffef]/.test(ch) ? size : size / 2), 0)
const measure = (s: string, size: number) => measureAt(size)(s)
const at10 = measureAt(10)

function ticket(over: Partial<SignTicket> = {}): SignTicket {
  return {
    ticket: 't',
    time: '2026-11-22T08:00:05.000Z',
    expires_at: '2026-11-22T08:10:05.000Z',
    code: '1A2B3C4D',
    user: { id: 7, nickname: '小王' },
    lng: 116.397428,
    lat: 39.90923,
    target: { kind: 'marker', marker_id: 11, task_id: null, name: '客户甲', lng: 116.3975, lat: 39.9093 },
    distance: 35,
    radius: 300,
    ...over,
  }
}

describe('camera constants (SPEC 9)', () => {
  it('the video is the window height minus 200', () => {
    expect(CAMERA_VIDEO_HEIGHT_INSET).toBe(200)
    expect(cameraVideoHeight(844)).toBe(644)
    expect(cameraVideoHeight(150)).toBe(0)
  })
  it('photos are exported at 4x the on-screen size', () => {
    expect(CAMERA_EXPORT_SCALE).toBe(4)
    expect(exportSize({ width: 390, height: 644 })).toEqual({ width: 1560, height: 2576 })
  })
  it('the watermark wraps at 220', () => {
    expect(WATERMARK_WRAP_WIDTH).toBe(220)
  })
})

describe('watermark text', () => {
  it('carries the time in Asia/Shanghai, place, coordinates, user, target with distance and the code', () => {
    const w = watermarkText(ticket(), '北京市东城区东华门街道')
    expect(w.clock).toBe('16:00')
    expect(w.date).toBe('2026-11-22 星期日')
    expect(w.lines).toEqual(['时间 2026-11-22 16:00:05', '地点 北京市东城区东华门街道', '坐标 116.397428, 39.909230', '签到人 小王', '签到点 客户甲（距离 35 米）', '校验码 1A2B3C4D'])
  })
  it('a free check-in says so and has no distance; no address leaves the place out', () => {
    const w = watermarkText(ticket({ target: { kind: 'free', marker_id: null, task_id: null, name: '', lng: null, lat: null }, distance: null }), '  ')
    expect(w.lines).toEqual(['时间 2026-11-22 16:00:05', '坐标 116.397428, 39.909230', '签到人 小王', CHECKIN_MSG.free, '校验码 1A2B3C4D'])
  })
  it('the Shanghai day can differ from UTC: 23:30 UTC is the next morning', () => {
    expect(shanghaiDateTime('2026-11-22T23:30:00Z')).toBe('2026-11-23 07:30:00')
    expect(watermarkText(ticket({ time: '2026-11-22T23:30:00Z' }), '').date).toBe('2026-11-23 星期一')
    expect(shanghaiDateTime('not a date')).toBe('')
  })
  it('distances in metres below 1 km, then kilometres', () => {
    expect(formatSignDistance(0)).toBe('0 米')
    expect(formatSignDistance(299.6)).toBe('300 米')
    expect(formatSignDistance(1234)).toBe('1.2 公里')
    expect(formatSignDistance(15_400)).toBe('15 公里')
  })
})

describe('wrapText', () => {
  it('keeps a line that fits', () => {
    expect(wrapText('签到人 小王', 220, at10)).toEqual(['签到人 小王'])
  })
  it('breaks CJK text between any two characters at the width', () => {
    const text = '北京市东城区东华门街道南池子大街七十八号院'
    const lines = wrapText(text, 100, at10)
    expect(lines).toEqual(['北京市东城区东华门街', '道南池子大街七十八号', '院'])
    for (const l of lines) expect(at10(l)).toBeLessThanOrEqual(100)
  })
  it('moves a Latin word whole to the next line and drops the space at the break', () => {
    // 'Dongcheng District Beijing' at 5 px a character, 60 px wide: 12 characters a line
    expect(wrapText('Dongcheng District Beijing', 60, at10)).toEqual(['Dongcheng', 'District', 'Beijing'])
  })
  it('breaks a word longer than a line by characters', () => {
    expect(wrapText('ABCDEFGHIJKLMNOPQRSTUVWXYZ', 50, at10)).toEqual(['ABCDEFGHIJ', 'KLMNOPQRST', 'UVWXYZ'])
  })
  it('mixes CJK and Latin: a number stays whole after the characters', () => {
    expect(wrapText('南池子大街 78 号 Building 3', 70, at10)).toEqual(['南池子大街 78', '号 Building 3'])
  })
  it('empty or blank text gives no lines', () => {
    expect(wrapText('', 220, at10)).toEqual([])
    expect(wrapText('   ', 220, at10)).toEqual([])
  })
})

describe('layoutWatermark', () => {
  const view = { width: 390, height: 644 }
  const longAddr = '地点 浙江省杭州市西湖区文三路与教工路交叉口东北角华星时代广场A座十二楼一二零八室'

  it('wraps every body line at 220 (SPEC 9) and keeps each line inside the panel', () => {
    const layout = layoutWatermark({ clock: '16:00', date: '2026-11-22 星期日', lines: [longAddr, '校验码 1A2B3C4D'] }, view, measure)
    const body = layout.lines.filter((l) => l.x > layout.box.x + WATERMARK_STYLE.padding)
    expect(body.length).toBeGreaterThan(2)
    expect(body.map((l) => l.text).join('')).toBe(longAddr + '校验码 1A2B3C4D')
    for (const l of body) expect(measure(l.text, l.size)).toBeLessThanOrEqual(WATERMARK_WRAP_WIDTH)
    for (const l of layout.lines) {
      expect(l.x + measure(l.text, l.size)).toBeLessThanOrEqual(layout.box.x + layout.box.width)
      expect(l.y + l.size).toBeLessThanOrEqual(layout.box.y + layout.box.height)
      expect(l.y).toBeGreaterThanOrEqual(layout.box.y)
    }
  })
  it('sits at the bottom-left corner with the margin, lines top to bottom', () => {
    const layout = layoutWatermark(watermarkText(ticket(), '北京市东城区'), view, measure)
    expect(layout.box.x).toBe(WATERMARK_STYLE.margin)
    expect(layout.box.y + layout.box.height).toBe(view.height - WATERMARK_STYLE.margin)
    const ys = layout.lines.map((l) => l.y)
    expect([...ys].sort((a, b) => a - b)).toEqual(ys)
    expect(layout.lines[0]).toMatchObject({ text: '16:00', bold: true, size: WATERMARK_STYLE.clockSize })
    expect(layout.lines.at(-1)!.text).toBe('校验码 1A2B3C4D')
    // the accent bar runs beside the body lines
    expect(layout.bar.y).toBe(layout.lines[2].y - ((WATERMARK_STYLE.lineHeight - 1) * WATERMARK_STYLE.bodySize) / 2)
    expect(layout.bar.x + layout.bar.width).toBeLessThan(layout.lines[2].x)
  })
  it('a narrow picture wraps narrower than 220 so the panel stays on it', () => {
    const layout = layoutWatermark({ clock: '16:00', date: 'x', lines: [longAddr] }, { width: 200, height: 600 }, measure)
    expect(layout.box.x + layout.box.width).toBeLessThanOrEqual(200)
  })
  it('a low picture keeps the first lines visible: the panel starts at the top margin', () => {
    const layout = layoutWatermark({ clock: '16:00', date: 'x', lines: [longAddr, longAddr] }, { width: 390, height: 80 }, measure)
    expect(layout.box.y).toBe(WATERMARK_STYLE.margin)
  })
})

describe('coverCrop', () => {
  it('crops the sides of a wide photo to fill a tall view, centred', () => {
    expect(coverCrop({ width: 1280, height: 720 }, { width: 390, height: 644 })).toEqual({ sx: expect.closeTo(422.0, 0), sy: 0, sw: expect.closeTo(436.0, 0), sh: 720 })
  })
  it('crops top and bottom of a tall photo for a wide view', () => {
    const c = coverCrop({ width: 600, height: 1200 }, { width: 300, height: 300 })
    expect(c).toEqual({ sx: 0, sy: 300, sw: 600, sh: 600 })
  })
})

describe("painting a watermarked photo (both platforms' 2d canvas)", () => {
  function fakeCtx() {
    const ops: unknown[][] = []
    const ctx = {
      font: '',
      fillStyle: '' as unknown,
      textBaseline: '',
      shadowColor: '',
      shadowBlur: 0,
      shadowOffsetX: 0,
      shadowOffsetY: 0,
      setTransform: (...a: number[]) => ops.push(['setTransform', ...a]),
      fillRect: (...a: number[]) => ops.push(['fillRect', ...a]),
      fillText: (t: string, x: number, y: number) => ops.push(['fillText', t, x, y, ctx.font]),
      measureText: (t: string) => ({ width: measure(t, Number(/(\d+)px/.exec(ctx.font)?.[1] ?? 10)) }),
      drawImage: (...a: unknown[]) => ops.push(['drawImage', ...a.slice(1)]),
    }
    return { ctx, ops }
  }

  it('draws at 4x: the photo covering the picture, then the panel and every watermark line', () => {
    const { ctx, ops } = fakeCtx()
    const text = watermarkText(ticket(), '北京市东城区')
    paintWatermarkedPhoto(ctx, 'frame', { width: 1280, height: 720 }, { width: 390, height: 644 }, text)
    expect(ops[0]).toEqual(['setTransform', 4, 0, 0, 4, 0, 0])
    const crop = coverCrop({ width: 1280, height: 720 }, { width: 390, height: 644 })
    expect(ops[1]).toEqual(['drawImage', crop.sx, crop.sy, crop.sw, crop.sh, 0, 0, 390, 644])
    const drawn = ops.filter((o) => o[0] === 'fillText').map((o) => o[1])
    expect(drawn).toEqual(['16:00', '2026-11-22 星期日', ...text.lines])
    expect(ops.filter((o) => o[0] === 'fillText')[0][4]).toMatch(/^bold 26px/)
  })

  it('SPEC 8: a page that is not https has no camera; a browser without getUserMedia neither', () => {
    expect(cameraProblemOfPage({ isSecureContext: false, navigator: {} })?.kind).toBe('insecure')
    expect(cameraProblemOfPage({ isSecureContext: true, navigator: {} })?.kind).toBe('unsupported')
    expect(cameraProblemOfPage({ isSecureContext: true, navigator: { mediaDevices: { getUserMedia: () => undefined } } })).toBeNull()
  })
})

describe('image preview gestures (SPEC 9: zoom 1/3 to 3)', () => {
  it('pinching zooms in proportion to the fingers, within 1/3 and 3', () => {
    expect(IMAGE_PREVIEW_MIN_ZOOM).toBeCloseTo(1 / 3)
    expect(IMAGE_PREVIEW_MAX_ZOOM).toBe(3)
    expect(pinchZoom(1, 100, 200)).toBe(2)
    expect(pinchZoom(2, 100, 400)).toBe(3)
    expect(pinchZoom(1, 300, 30)).toBeCloseTo(1 / 3)
    expect(pinchZoom(1.5, 0, 10)).toBe(1.5)
    expect(clampZoom(Number.NaN)).toBe(1)
  })
  it('the zoom buttons step by 1.5 and stop at the ends', () => {
    let z = 1
    for (let i = 0; i < 5; i++) z = stepZoom(z, 1)
    expect(z).toBe(3)
    for (let i = 0; i < 9; i++) z = stepZoom(z, -1)
    expect(z).toBeCloseTo(1 / 3)
  })
  it('a swipe past 50 px moves one picture, wrapping round', () => {
    expect(swipeIndex(0, 3, -80)).toBe(1)
    expect(swipeIndex(0, 3, 80)).toBe(2)
    expect(swipeIndex(1, 3, 20)).toBe(1)
    expect(swipeIndex(0, 1, -200)).toBe(0)
  })
})
