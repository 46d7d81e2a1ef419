/**
 * The print sheet's layout (src/domain/print.ts): page sizes in pixels and points, the scale bar's
 * round length and its label, the legend's rows, titles placed without collisions, the file name,
 * and the module gate's offer of the 打印 entries (moduleGate.ts featureOffer).
 */
import {
  DEFAULT_PRINT_OPTIONS,
  checkPrintOptions,
  frameArea,
  legendRows,
  lengthLabel,
  pagePt,
  pagePx,
  placePageLabels,
  printFileName,
  scaleBar,
  sheetLayout,
  toPage,
  validBounds,
  type PageLabel,
} from '../../src/domain/print'
import { PRINT_MSG } from '../../src/domain/printMessages'
import { FEATURES, featureOffer, moduleBlock, routeLockedByTier } from '../../src/domain/moduleGate'
import { TEAM_UI_MSG } from '../../src/domain/messages'
import { distanceMeters } from '../../src/domain/geo'

describe('page sizes', () => {
  it('are A4 and A3 in whole pixels at 150 and 300 dpi, portrait and landscape', () => {
    expect(pagePx('A4', 'portrait', 150)).toEqual({ width: 1240, height: 1754 })
    expect(pagePx('A4', 'landscape', 150)).toEqual({ width: 1754, height: 1240 })
    expect(pagePx('A3', 'portrait', 300)).toEqual({ width: 3508, height: 4961 })
    expect(pagePx('A3', 'landscape', 300)).toEqual({ width: 4961, height: 3508 })
  })

  it('are A4 and A3 in PDF points as poppler reports them', () => {
    expect(pagePt('A4', 'portrait')).toEqual({ width: 595.28, height: 841.89 })
    expect(pagePt('A3', 'landscape')).toEqual({ width: 1190.55, height: 841.89 })
  })

  it('keep a 10 mm margin, the title above the map and the foot below it, and room for the note only when there is one', () => {
    const bare = sheetLayout({ paper: 'A4', orientation: 'portrait', note: '' }, 150)
    const noted = sheetLayout({ paper: 'A4', orientation: 'portrait', note: '例会用' }, 150)
    const mm = 150 / 25.4
    expect(bare.map.x).toBeCloseTo(10 * mm)
    expect(bare.header.y).toBeCloseTo(10 * mm)
    expect(bare.map.y).toBeCloseTo(bare.header.y + bare.header.height)
    expect(bare.footer.y + bare.footer.height).toBeCloseTo(1754 - 10 * mm)
    expect(bare.map.y + bare.map.height).toBeCloseTo(bare.footer.y)
    expect(noted.map.height).toBeLessThan(bare.map.height)
  })
})

describe('the scale bar', () => {
  it('takes the longest round length (1, 2 or 5 times ten to a power) that fits', () => {
    // 3.3 m per pixel, up to 300 px: 990 m fit, so 500 m.
    expect(scaleBar(3.3, 300)).toEqual({ metres: 500, px: 500 / 3.3, label: '500米' })
    expect(scaleBar(10, 300)).toMatchObject({ metres: 2000, label: '2公里' })
    expect(scaleBar(0.05, 300)).toMatchObject({ metres: 10, label: '10米' })
    expect(scaleBar(500, 300)).toMatchObject({ metres: 100_000, label: '100公里' })
  })

  it('says 米 under a kilometre and 公里 from one', () => {
    expect(lengthLabel(200)).toBe('200米')
    expect(lengthLabel(1000)).toBe('1公里')
    expect(lengthLabel(5000)).toBe('5公里')
  })

  it("measures the frame's ground distance: a bar's pixels cover its metres on the map", () => {
    const box = { x: 0, y: 0, width: 1000, height: 800 }
    const frame = frameArea({ west: 116.3, south: 39.9, east: 116.4, north: 39.96 }, box)
    const bar = scaleBar(frame.metresPerPx, 300)
    const a = toPage(frame, { lng: 116.35, lat: 39.93 })
    // Walk east by the bar's metres: the page distance is the bar's length.
    const east = { lng: 116.35 + bar.metres / (111_320 * Math.cos((39.93 * Math.PI) / 180)), lat: 39.93 }
    expect(distanceMeters({ lng: 116.35, lat: 39.93 }, east)).toBeCloseTo(bar.metres, -1)
    expect(toPage(frame, east).x - a.x).toBeCloseTo(bar.px, -1)
  })
})

describe('the frame', () => {
  it('shows all of the area, centred, the longer way filling the box', () => {
    const box = { x: 100, y: 50, width: 1000, height: 500 }
    const area = { west: 116.3, south: 39.9, east: 116.4, north: 39.96 }
    const frame = frameArea(area, box)
    const sw = toPage(frame, { lng: area.west, lat: area.south })
    const ne = toPage(frame, { lng: area.east, lat: area.north })
    expect(sw.x).toBeGreaterThanOrEqual(box.x - 0.01)
    expect(ne.x).toBeLessThanOrEqual(box.x + box.width + 0.01)
    expect(ne.y).toBeGreaterThanOrEqual(box.y - 0.01)
    expect(sw.y).toBeLessThanOrEqual(box.y + box.height + 0.01)
    expect(Math.max(ne.x - sw.x - box.width, sw.y - ne.y - box.height)).toBeCloseTo(0, 3)
  })
})

describe('the legend', () => {
  const entries = [
    { name: '客户', swatch: 'point' as const, color: '#F53F3F', count: 120 },
    { name: '道路', swatch: 'line' as const, color: '#00B42A', dashed: true, count: 8 },
    { name: '片区', swatch: 'area' as const, color: '#722ED1', fillColor: '#722ED1', count: 3 },
    { name: '周一拜访', swatch: 'route' as const, color: '#165DFF', count: 5 },
  ]

  it('has one row per layer with its swatch and count, and a route without a count', () => {
    const legend = legendRows(entries, 0, 10)
    expect(legend.rows.map((r) => [r.name, r.swatch, r.countLabel])).toEqual([
      ['客户', 'point', '120个'],
      ['道路', 'line', '8个'],
      ['片区', 'area', '3个'],
      ['周一拜访', 'route', ''],
    ])
    expect(legend.rows[1].dashed).toBe(true)
    expect(legend.note).toBe('')
    expect(legend.more).toBe(0)
  })

  it('says when points are clustered, with their number', () => {
    expect(legendRows(entries, 25_000, 10).note).toBe(PRINT_MSG.clustered(25_000))
  })

  it('keeps the last row for how many more there are when they do not all fit', () => {
    const legend = legendRows(entries, 0, 3)
    expect(legend.rows.map((r) => r.name)).toEqual(['客户', '道路'])
    expect(legend.more).toBe(2)
  })
})

describe('titles on the sheet', () => {
  const bounds = { x: 0, y: 0, width: 1000, height: 1000 }
  const label = (x: number, y: number, rank = 0): PageLabel => ({ x, y, width: 100, height: 20, rank })

  it('shows a title that covers none shown before it, and hides one that would', () => {
    expect(placePageLabels([label(10, 10), label(50, 15), label(300, 10)], bounds, 2)).toEqual([0, 2])
  })

  it('places higher ranks first: a point title wins over an area title on the same spot', () => {
    expect(placePageLabels([label(10, 10, 0), label(20, 12, 2)], bounds, 2)).toEqual([1])
  })

  it('keeps the gap between two titles', () => {
    expect(placePageLabels([label(10, 10), label(111, 10)], bounds, 2)).toEqual([0])
    expect(placePageLabels([label(10, 10), label(113, 10)], bounds, 2)).toEqual([0, 1])
  })

  it('hides a title that would leave the map', () => {
    expect(placePageLabels([label(950, 10), label(10, 990)], bounds, 2)).toEqual([])
  })

  it('places tens of thousands in one pass, none overlapping', () => {
    const many: PageLabel[] = []
    for (let i = 0; i < 20_000; i++) many.push({ x: (i * 37) % 900, y: (i * 53) % 980, width: 60, height: 14, rank: i % 3 })
    const shown = placePageLabels(many, bounds, 1).map((i) => many[i])
    expect(shown.length).toBeGreaterThan(100)
    let overlapping = 0
    for (let i = 0; i < shown.length; i++)
      for (let j = i + 1; j < shown.length; j++) {
        const [a, b] = [shown[i], shown[j]]
        if (a.x < b.x + b.width + 1 && b.x < a.x + a.width + 1 && a.y < b.y + b.height + 1 && b.y < a.y + a.height + 1) overlapping++
      }
    expect(overlapping).toBe(0)
  })
})

describe('the file and its options', () => {
  it('is named by the title and the date in Asia/Shanghai', () => {
    expect(printFileName('客户 分布/图', new Date('2026-12-01T17:00:00Z'), 'pdf')).toBe('客户_分布_图_2026-12-02.pdf')
    expect(printFileName('', new Date('2026-12-01T10:00:00Z'), 'png')).toBe('地图_2026-12-01.png')
  })

  it('refuses a title over 40 characters and a note over 100', () => {
    expect(checkPrintOptions({ ...DEFAULT_PRINT_OPTIONS, title: '图'.repeat(40) })).toBeNull()
    expect(checkPrintOptions({ ...DEFAULT_PRINT_OPTIONS, title: '图'.repeat(41) })).toBe(PRINT_MSG.titleTooLong(40))
    expect(checkPrintOptions({ ...DEFAULT_PRINT_OPTIONS, note: '注'.repeat(101) })).toBe(PRINT_MSG.noteTooLong(100))
  })

  it('takes a view only when it is a box on the globe', () => {
    expect(validBounds({ west: 116.3, south: 39.9, east: 116.4, north: 39.96 })).toBe(true)
    expect(validBounds({ west: 116.4, south: 39.9, east: 116.3, north: 39.96 })).toBe(false)
    expect(validBounds({ west: Number.NaN, south: 39.9, east: 116.3, north: 39.96 })).toBe(false)
    expect(validBounds(null)).toBe(false)
  })
})

describe('the 打印 entries (module_print, a VIP module)', () => {
  it('work for a user whose modules hold module_print', () => {
    expect(featureOffer(FEATURES.print, ['module_map', 'module_print'], 2)).toBe('open')
    expect(moduleBlock('/print', ['module_map', 'module_print'], 2)).toBeNull()
  })

  it('show with the VIP mark on the free tier, whose /print offers the membership', () => {
    expect(featureOffer(FEATURES.print, ['module_map'], 0)).toBe('vip')
    expect(moduleBlock('/print', ['module_map'], 0)).toBe(TEAM_UI_MSG.moduleLocked('打印'))
    expect(routeLockedByTier('/print', ['module_map'], 0)).toBe(true)
  })

  it('are hidden from a member of a paying team whose roles do not grant it, and /print says whom to ask', () => {
    expect(featureOffer(FEATURES.print, ['module_map'], 2)).toBe('hidden')
    expect(moduleBlock('/print', ['module_map'], 2)).toBe(TEAM_UI_MSG.moduleMissing('打印'))
    expect(routeLockedByTier('/print', ['module_map'], 2)).toBe(false)
  })
})
