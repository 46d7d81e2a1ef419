import { MARKER_PAGE_SIZE } from '../../src/domain/constants'
import { MAP_MSG, MAP_UI_MSG } from '../../src/domain/messages'
import { MarkerDraft } from '../../src/stores/MarkerDraft'
import { PAGES_IN_FLIGHT, importFormatOf } from '../../src/stores/MarkerStore'
import { fail, ok } from '../support/fakes'
import { buildField, buildLayer, buildMarker, signedInRoot } from '../support/mapBuilders'

const spots = buildLayer({ id: 1, name: '客户', type: 1, show: true, marker_count: 2 })
const lines = buildLayer({ id: 2, name: '道路', type: 2, show: true })
const areas = buildLayer({ id: 3, name: '片区', type: 3, show: false })
const LAYERS = [spots, lines, areas]

function pages(total: number, layerId = 1) {
  const all = Array.from({ length: total }, (_, i) => buildMarker({ id: i + 1, layer_id: layerId }))
  return (body: any) => {
    const start = (body.pageindex - 1) * body.pagesize
    return ok({ list: all.slice(start, start + body.pagesize), total })
  }
}

describe('MarkerStore loading (SPEC 4: pages of 5000 for the shown layers)', () => {
  it('fetches the next page while a full page returns and stops at a short page', async () => {
    const { root, calls } = await signedInRoot({ '/api/layer/getlist': () => ok(LAYERS), '/api/marker/getlist': pages(12_000) })
    await root.layers.load()
    expect(await root.markers.loadShown()).toBe(true)
    const pageCalls = calls.filter((c) => c.path === '/api/marker/getlist')
    expect(pageCalls.map((c) => [c.body.pageindex, c.body.pagesize])).toEqual([
      [1, MARKER_PAGE_SIZE],
      [2, MARKER_PAGE_SIZE],
      [3, MARKER_PAGE_SIZE],
    ])
    expect(pageCalls[0].body.layer_ids.sort()).toEqual([1, 2])
    expect(root.markers.loadedCount(1)).toBe(12_000)
    expect(new Set(root.markers.all.map((m) => m.id)).size).toBe(12_000)
    expect(root.markers.loadedCount(2)).toBe(0)
    expect(root.markers.loadedCount(3)).toBeUndefined()
  })

  it('asks for pages three at a time once the first told a total above the counts, and keeps each marker once', async () => {
    const serve = pages(23_000)
    let inFlight = 0
    let most = 0
    const { root, calls } = await signedInRoot({
      '/api/layer/getlist': () => ok(LAYERS),
      '/api/marker/getlist': async (body) => {
        most = Math.max(most, ++inFlight)
        await new Promise((r) => setTimeout(r, 5))
        inFlight--
        return serve(body)
      },
    })
    await root.layers.load()
    expect(await root.markers.loadShown()).toBe(true)
    expect(calls.filter((c) => c.path === '/api/marker/getlist').map((c) => c.body.pageindex)).toEqual([1, 2, 3, 4, 5])
    expect(most).toBe(PAGES_IN_FLIGHT)
    expect(root.markers.loadedCount(1)).toBe(23_000)
    expect(new Set(root.markers.all.map((m) => m.id)).size).toBe(23_000)
  })

  it("asks for the first three pages together when the layer list's counts say there are that many, and still stops at the server's total", async () => {
    // The list said 14,000 markers; 11,000 are left by the time the pages are read.
    const big = buildLayer({ ...spots, marker_count: 14_000 })
    const serve = pages(11_000)
    const sentBeforeFirstAnswer: number[] = []
    let answered = false
    const { root, calls } = await signedInRoot({
      '/api/layer/getlist': () => ok([big, lines, areas]),
      '/api/marker/getlist': async (body) => {
        if (!answered) sentBeforeFirstAnswer.push(body.pageindex)
        await new Promise((r) => setTimeout(r, 5))
        answered = true
        return serve(body)
      },
    })
    await root.layers.load()
    expect(await root.markers.loadShown()).toBe(true)
    expect(sentBeforeFirstAnswer).toEqual([1, 2, 3])
    expect(calls.filter((c) => c.path === '/api/marker/getlist').map((c) => c.body.pageindex)).toEqual([1, 2, 3])
    expect(root.markers.loadedCount(1)).toBe(11_000)
  })

  it('asks for no more pages than the server holds when the counts were too high', async () => {
    const stale = buildLayer({ ...spots, marker_count: 40_000 })
    const { root, calls } = await signedInRoot({ '/api/layer/getlist': () => ok([stale, lines, areas]), '/api/marker/getlist': pages(30) })
    await root.layers.load()
    expect(await root.markers.loadShown()).toBe(true)
    // Page 1 told the total: the two asked for with it come back empty, and no fourth is asked for.
    expect(calls.filter((c) => c.path === '/api/marker/getlist').map((c) => c.body.pageindex)).toEqual([1, 2, 3])
    expect(root.markers.loadedCount(1)).toBe(30)
  })

  it("keeps the first page's copy of a marker repeated on a later page, whatever order the pages answer in", async () => {
    // Offset pages read while a teammate adds markers shift by one: the last of page 1 comes again on page 2.
    const all = Array.from({ length: 12_000 }, (_, i) => buildMarker({ id: i + 1, layer_id: i % 2 ? 1 : 2, name: `第${i + 1}个` }))
    const answer = (body: any) => {
      const start = (body.pageindex - 1) * body.pagesize - (body.pageindex > 1 ? 1 : 0)
      const list = all.slice(start, start + body.pagesize).map((m) => (body.pageindex > 1 && m.id === MARKER_PAGE_SIZE ? { ...m, name: '重复的旧副本' } : m))
      return ok({ list, total: all.length })
    }
    const { root } = await signedInRoot({
      '/api/layer/getlist': () => ok(LAYERS),
      // Page 2 answers last: pages are taken in in order all the same.
      '/api/marker/getlist': async (body) => {
        await new Promise((r) => setTimeout(r, body.pageindex === 2 ? 20 : 1))
        return answer(body)
      },
    })
    await root.layers.load()
    expect(await root.markers.loadShown()).toBe(true)
    expect(root.markers.count).toBe(12_000)
    expect(root.markers.find(MARKER_PAGE_SIZE)?.name).toBe(`第${MARKER_PAGE_SIZE}个`)
    expect(root.markers.byLayer.get(1)!.every((m) => m.layer_id === 1)).toBe(true)
    expect(root.markers.loadedCount(1)).toBe(6000)
    expect(root.markers.loadedCount(2)).toBe(6000)
    // In the server's order within each layer.
    const ids = root.markers.byLayer.get(2)!.map((m) => m.id)
    expect(ids).toEqual([...ids].sort((a, b) => a - b))
  })

  it('asks once more after an exactly full last page', async () => {
    const { root, calls } = await signedInRoot({ '/api/layer/getlist': () => ok(LAYERS), '/api/marker/getlist': pages(10_000) })
    await root.layers.load()
    await root.markers.loadShown()
    expect(calls.filter((c) => c.path === '/api/marker/getlist')).toHaveLength(3)
    expect(root.markers.count).toBe(10_000)
  })

  it('keeps what it had when a page fails', async () => {
    let failNow = false
    const { root } = await signedInRoot({
      '/api/layer/getlist': () => ok(LAYERS),
      '/api/marker/getlist': (body) => (failNow && body.pageindex === 2 ? { status: 500, data: '' } : pages(6000)(body)),
    })
    await root.layers.load()
    await root.markers.loadShown()
    failNow = true
    expect(await root.markers.loadLayers([1])).toBe(false)
    expect(root.markers.loadedCount(1)).toBe(6000)
    expect(root.app.currentNotice?.text).toBe('系统错误，请稍后再试')
  })

  it('keeps the markers by layer and forgets a hidden layer', async () => {
    const { root } = await signedInRoot({
      '/api/layer/getlist': () => ok(LAYERS),
      '/api/marker/getlist': () => ok({ list: [buildMarker({ layer_id: 1 }), buildMarker({ layer_id: 2, type: 1, points: '1,1|2,2' })], total: 2 }),
    })
    await root.layers.load()
    await root.markers.loadShown()
    expect(root.markers.byLayer.get(1)).toHaveLength(1)
    expect(root.markers.byLayer.get(2)).toHaveLength(1)
    root.markers.dropLayers([2])
    expect(root.markers.byLayer.has(2)).toBe(false)
  })
})

describe('MarkerStore loading in columns (types/api.ts MarkerColumnsPage)', () => {
  const varied = [
    buildMarker({ id: 5, layer_id: 1, name: '加油站', client_id: 'phone-7-1', fields: { '3': '张三', '4': 12, '5': ['甲', '乙'], '6': null } }),
    buildMarker({ id: 9, layer_id: 1, name: '', created_at: '2026-11-22T08:00:01.250Z', updated_at: '2026-11-23T09:10:11.999Z', rev: 3 }),
    buildMarker({ id: 11, layer_id: 2, type: 2, points: '1,1|2,2|3,1', style: { color: '#FF0000', dashed: true, size: 2 }, width: 2, creator_id: 8, creator_name: '小李' }),
    buildMarker({ id: 12, layer_id: 2, type: 1, points: '1,1|2,2', style: { color: '#FF0000', size: 2 }, width: 3, sort: 4 }),
  ]

  it('asks for columns and keeps, by layer, the very markers the SPEC page gives', async () => {
    const { root, calls } = await signedInRoot({ '/api/layer/getlist': () => ok(LAYERS), '/api/marker/getlist': () => ok({ list: varied, total: varied.length }) })
    await root.layers.load()
    expect(await root.markers.loadShown()).toBe(true)
    expect(calls.filter((c) => c.path === '/api/marker/getlist').map((c) => c.body.format)).toEqual(['columns'])
    expect(root.markers.byLayer).toEqual(
      new Map([
        [1, varied.slice(0, 2)],
        [2, varied.slice(2)],
      ]),
    )
    expect(root.markers.byLayer.get(1)!.map((m) => 'client_id' in m)).toEqual([true, false])
  })

  it('refuses a malformed columnar page as a whole: keeps what it had and says so', async () => {
    let broken = false
    const { root } = await signedInRoot({
      '/api/layer/getlist': () => ok(LAYERS),
      '/api/marker/getlist': () => (broken ? ok({ v: 1, total: 2, n: 2, id: [5, 4], layer_id: [1, 1] }) : ok({ list: varied, total: varied.length })),
    })
    await root.layers.load()
    await root.markers.loadShown()
    broken = true
    expect(await root.markers.loadLayers([1, 2])).toBe(false)
    expect(root.markers.byLayer.get(1)).toEqual(varied.slice(0, 2))
    expect(root.markers.byLayer.get(2)).toEqual(varied.slice(2))
    expect(root.app.currentNotice?.text).toBe('系统错误，请稍后再试')
  })
})

describe('MarkerStore save and delete', () => {
  const handlers = (saved: any[] = []) => ({
    '/api/layer/getlist': () => ok(LAYERS),
    '/api/marker/getlist': () => ok({ list: [], total: 0 }),
    '/api/layer/field/getlist': () => ok([]),
    '/api/marker/save': (body: any) => {
      saved.push(body)
      return ok(buildMarker({ ...body, id: body.id ?? 99 }))
    },
    '/api/marker/delete': () => ok(null),
  })

  it('refuses bad geometry, a missing name or a layer of the wrong kind without calling the server', async () => {
    const { root, calls } = await signedInRoot(handlers())
    await root.layers.load()
    calls.length = 0
    const base = { layer_id: 2, name: '主路', type: 1 as const, points: '116.39,39.9' }
    expect(await root.markers.save(base)).toBeUndefined()
    expect(root.app.currentNotice?.text).toBe(MAP_MSG.lineNeedsTwo)
    expect(await root.markers.save({ ...base, points: '116.39,39.9|abc' })).toBeUndefined()
    expect(root.app.currentNotice?.text).toBe(MAP_MSG.vertexInvalid(2))
    expect(await root.markers.save({ ...base, points: '116.39,39.9|200,1' })).toBeUndefined()
    expect(root.app.currentNotice?.text).toBe(MAP_MSG.lngRange(2))
    expect(await root.markers.save({ ...base, name: ' ', points: '1,1|2,2' })).toBeUndefined()
    expect(root.app.currentNotice?.text).toBe(MAP_MSG.markerNameRequired)
    expect(await root.markers.save({ ...base, layer_id: 1, points: '1,1|2,2' })).toBeUndefined()
    expect(root.app.currentNotice?.text).toBe(MAP_MSG.markerKindMismatch)
    expect(await root.markers.save({ layer_id: 3, name: '圆', type: 5, points: '116.39,39.9', radius: 0 })).toBeUndefined()
    expect(root.app.currentNotice?.text).toBe(MAP_MSG.circleNeedsRadius)
    expect(await root.markers.save({ ...base, layer_id: 0, points: '1,1|2,2' })).toBeUndefined()
    expect(root.app.currentNotice?.text).toBe(MAP_UI_MSG.layerRequired)
    expect(calls).toHaveLength(0)
  })

  it('checks custom field values before saving', async () => {
    const { root, calls } = await signedInRoot({
      ...handlers(),
      '/api/layer/field/getlist': () => ok([buildField({ id: 11, layer_id: 1, name: '电话', kind: 'phone', required: true })]),
    })
    await root.layers.load()
    expect(await root.markers.save({ layer_id: 1, name: '张三', type: 0, points: '116.39,39.9' })).toBeUndefined()
    expect(root.app.currentNotice?.text).toBe(MAP_MSG.fieldRequired('电话'))
    expect(await root.markers.save({ layer_id: 1, name: '张三', type: 0, points: '116.39,39.9', fields: { 11: '123' } })).toBeUndefined()
    expect(root.app.currentNotice?.text).toBe(MAP_MSG.fieldPhone('电话'))
    expect(calls.filter((c) => c.path === '/api/marker/save')).toHaveLength(0)
    const saved = await root.markers.save({ layer_id: 1, name: '张三', type: 0, points: '116.39,39.9', fields: { 11: '138 0013 8000' } })
    expect(saved).toBeDefined()
    expect(calls.at(-1)?.body.fields).toEqual({ 11: '13800138000' })
  })

  it('adds a saved marker to its loaded layer and counts it', async () => {
    const { root } = await signedInRoot(handlers())
    await root.layers.load()
    await root.markers.loadShown()
    const m = await root.markers.save({ layer_id: 1, name: '新客户', type: 0, points: '116.39,39.9' })
    expect(m?.id).toBe(99)
    expect(root.markers.byLayer.get(1)?.map((x) => x.id)).toEqual([99])
    expect(root.layers.byId.get(1)?.marker_count).toBe(3)
    expect(root.app.currentNotice?.type).toBe('success')
  })

  it('remembers the last used style per kind and the last layer on the phone', async () => {
    const first = await signedInRoot(handlers())
    await first.root.layers.load()
    await first.root.markers.save({ layer_id: 2, name: '红线', type: 1, points: '1,1|2,2', style: { color: '#ff0000', bogus: 1 } as any, width: 6 })
    expect(JSON.parse(first.storage.get('last_marker_style')!)).toEqual({ line: { style: { color: '#FF0000' }, width: 6 } })
    expect(JSON.parse(first.storage.get('last_layer_ids')!)).toEqual({ line: 2 })
    const again = await signedInRoot(handlers(), { storage: first.storage.dump() })
    expect(again.root.markers.lookFor(2)).toMatchObject({ style: { color: '#FF0000', dashed: true }, width: 6 })
    expect(again.root.markers.lookFor(0)).toEqual({ style: { color: '#165DFF', size: 32 }, width: 32 })
  })

  it('deletes a marker and takes it off its layer', async () => {
    const existing = buildMarker({ id: 5, layer_id: 1 })
    const { root, calls } = await signedInRoot({ ...handlers(), '/api/marker/getlist': () => ok({ list: [existing], total: 1 }) })
    await root.layers.load()
    await root.markers.loadShown()
    expect(await root.markers.remove(5)).toBe(true)
    expect(calls.at(-1)).toMatchObject({ path: '/api/marker/delete', body: { id: 5 } })
    expect(root.markers.loadedCount(1)).toBe(0)
    expect(root.layers.byId.get(1)?.marker_count).toBe(1)
  })

  it('opens the detail with the fresh copy from getbyid', async () => {
    const fresh = buildMarker({ id: 5, layer_id: 1, name: '最新' })
    const { root, calls } = await signedInRoot({ ...handlers(), '/api/marker/getbyid': () => ok([fresh]), '/api/marker/note/getlist': () => ok([]) })
    await root.layers.load()
    expect(await root.markers.openDetail(5)).toBe(true)
    expect(calls.find((c) => c.path === '/api/marker/getbyid')?.body).toMatchObject({ ids: [5] })
    expect(root.markers.detail?.name).toBe('最新')
    expect(root.markers.detailOpen).toBe(true)
  })
})

describe('MarkerStore filter and search', () => {
  it('shows every loaded marker with no filter, and follows a kind hidden and shown again', async () => {
    const { root } = await signedInRoot({
      '/api/layer/getlist': () => ok(LAYERS),
      '/api/marker/getlist': () => ok({ list: [buildMarker({ id: 1, layer_id: 1, name: '北门' }), buildMarker({ id: 2, layer_id: 2, type: 1, name: '北路', points: '1,1|2,2' })], total: 2 }),
    })
    await root.layers.load()
    await root.markers.loadShown()
    expect(root.markers.visible.map((m) => m.id).sort()).toEqual([1, 2])
    root.markers.setKindShown(1, false)
    expect(root.markers.visible.map((m) => m.name)).toEqual(['北门'])
    root.markers.setKindShown(1, true)
    expect(root.markers.visible.map((m) => m.id).sort()).toEqual([1, 2])
    root.markers.setFilterKw('  ')
    expect(root.markers.visible).toHaveLength(2)
  })

  it('keeps the marker filter (keyword, per-kind show flags) on the phone', async () => {
    const first = await signedInRoot({
      '/api/layer/getlist': () => ok(LAYERS),
      '/api/marker/getlist': () =>
        ok({ list: [buildMarker({ layer_id: 1, name: '北门' }), buildMarker({ layer_id: 1, name: '南门' }), buildMarker({ layer_id: 2, type: 1, name: '北路', points: '1,1|2,2' })], total: 3 }),
    })
    await first.root.layers.load()
    await first.root.markers.loadShown()
    first.root.markers.setFilterKw('北')
    expect(first.root.markers.visible.map((m) => m.name)).toEqual(['北门', '北路'])
    first.root.markers.setKindShown(1, false)
    expect(first.root.markers.visible.map((m) => m.name)).toEqual(['北门'])
    const again = await signedInRoot({}, { storage: first.storage.dump() })
    expect(again.root.markers.filter.kw).toBe('北')
    expect(again.root.markers.filter.show[1]).toBe(false)
    expect(again.root.markers.filter.show[0]).toBe(true)
  })

  it('searches on the server and pages the results', async () => {
    const hits = Array.from({ length: 60 }, (_, i) => buildMarker({ id: 500 + i, name: `井${i}` }))
    const { root, calls } = await signedInRoot({
      '/api/marker/search': (body) => ok({ list: hits.slice((body.pageindex - 1) * body.pagesize, body.pageindex * body.pagesize), total: hits.length }),
    })
    expect(await root.markers.search('  ')).toBe(false)
    expect(calls).toHaveLength(0)
    await root.markers.search(' 井 ')
    expect(calls.at(-1)?.body).toMatchObject({ kw: '井', pageindex: 1 })
    expect(root.markers.searchResults).toHaveLength(50)
    expect(root.markers.canSearchMore).toBe(true)
    await root.markers.searchMore()
    expect(root.markers.searchResults).toHaveLength(60)
    expect(root.markers.canSearchMore).toBe(false)
  })
})

describe('MarkerStore import and export', () => {
  it('takes the format from the file extension', () => {
    expect(importFormatOf('a.GeoJSON')).toBe('geojson')
    expect(importFormatOf('a.json')).toBe('geojson')
    expect(importFormatOf('路线.kml')).toBe('kml')
    expect(importFormatOf('points.csv')).toBe('csv')
    // Excel's "Unicode 文本" and Google Earth's zipped KML.
    expect(importFormatOf('points.txt')).toBe('csv')
    expect(importFormatOf('外业.KMZ')).toBe('kmz')
    // Track logs and workbooks; an Excel 97-2003 file goes as a workbook, which answers how to save it as .xlsx.
    expect(importFormatOf('香山.GPX')).toBe('gpx')
    expect(importFormatOf('points.xlsx')).toBe('xlsx')
    expect(importFormatOf('points.xls')).toBe('xlsx')
    // A Shapefile comes zipped with its .shx, .dbf and .prj.
    expect(importFormatOf('管网.zip')).toBe('shp')
    expect(importFormatOf('points.shp')).toBeNull()
  })

  it('exports a layer in WGS-84 unless GCJ-02 is asked for', async () => {
    const { root, calls } = await signedInRoot({ '/api/marker/export': (b) => ok({ filename: `客户.${b.format}`, mime: 'text/csv', content: 'lng,lat' }) })
    expect(await root.markers.exportLayer(1, 'csv')).toMatchObject({ filename: '客户.csv' })
    expect(calls.at(-1)?.body).toMatchObject({ layer_id: 1, format: 'csv', crs: 'wgs84' })
    await root.markers.exportLayer(1, 'kml', 'gcj02')
    expect(calls.at(-1)?.body).toMatchObject({ format: 'kml', crs: 'gcj02' })
  })

  it('imports a file, showing the bad rows with their numbers when the server refuses them', async () => {
    let answer = { imported: 0, errors: [{ row: 3, message: '第3行坐标无效' }] }
    const { root, calls } = await signedInRoot({
      '/api/layer/getlist': () => ok(LAYERS),
      '/api/marker/getlist': () => ok({ list: [], total: 0 }),
      '/api/marker/import': () => ok(answer),
    })
    await root.layers.load()
    expect(await root.markers.importFile(1, { name: 'a.shp', content: 'x' })).toBeUndefined()
    expect(root.app.currentNotice?.text).toBe(MAP_UI_MSG.importFormatUnknown)
    expect(await root.markers.importFile(1, { name: 'a.csv', content: '  ' })).toBeUndefined()
    expect(root.app.currentNotice?.text).toBe(MAP_MSG.importEmpty)
    expect(calls.filter((c) => c.path === '/api/marker/import')).toHaveLength(0)

    await root.markers.importFile(1, { name: 'a.csv', content: 'lng,lat\n1,1' }, 'gcj02')
    expect(calls.at(-1)?.body).toMatchObject({ layer_id: 1, format: 'csv', crs: 'gcj02', content: 'lng,lat\n1,1' })
    expect(root.markers.importResult?.errors).toEqual([{ row: 3, message: '第3行坐标无效' }])
    // The dialog shows the outcome (once): no notice repeats it.
    const texts = () => root.app.notices.map((n) => n.text)
    expect(texts()).not.toContain(MAP_MSG.importRowsInvalid(1))

    answer = { imported: 2, errors: [] }
    await root.markers.importFile(1, { name: 'b.geojson', content: '{}' })
    expect(root.markers.importResult?.imported).toBe(2)
    expect(texts()).not.toContain(MAP_MSG.importOk(2))
    // The layer is reloaded so that the imported markers show.
    expect(calls.at(-1)?.path).toBe('/api/marker/getlist')
  })

  it("sends a picked file as its bytes with its name, and loads the layers made for the file's other kinds", async () => {
    const made = buildLayer({ id: 9, name: '外业-线', type: 2, show: true })
    let layers = LAYERS
    const { root, calls } = await signedInRoot({
      '/api/layer/getlist': () => ok(layers),
      '/api/marker/getlist': (b) => ok({ list: b.layer_ids.includes(9) ? [buildMarker({ id: 50, layer_id: 9, type: 1, name: '巡检路线' })] : [], total: b.layer_ids.includes(9) ? 1 : 0 }),
      '/api/marker/import': () => {
        layers = [...LAYERS, made]
        return ok({
          imported: 2,
          errors: [],
          summary: { points: 1, lines: 1, areas: 0, no_geometry: 0, split: 0 },
          layers: [
            { id: 1, name: '客户', type: 1, imported: 1, created: false },
            { id: 9, name: '外业-线', type: 2, imported: 1, created: true },
          ],
          notes: 1,
        })
      },
    })
    await root.layers.load()
    // A GBK file's bytes: the server decodes them (read here as UTF-8 they would be mojibake).
    const gbk = Buffer.from([0xc3, 0xfb, 0xb3, 0xc6, 0x2c, 0xbe, 0xad, 0xb6, 0xc8, 0x2c, 0xce, 0xb3, 0xb6, 0xc8]).toString('base64')
    const res = await root.markers.importFile(1, { name: '外业.csv', content: '', base64: gbk })
    expect(calls.find((c) => c.path === '/api/marker/import')?.body).toMatchObject({ layer_id: 1, format: 'csv', content: gbk, encoding: 'base64', file_name: '外业.csv', crs: 'wgs84' })
    expect(res?.summary).toEqual({ points: 1, lines: 1, areas: 0, no_geometry: 0, split: 0 })
    expect(root.layers.byId.get(9)?.name).toBe('外业-线')
    expect(root.markers.byLayer.get(9)?.map((m) => m.name)).toEqual(['巡检路线'])
    // An empty file is refused before it is sent.
    expect(await root.markers.importFile(1, { name: 'b.kmz', content: '', base64: '' })).toBeUndefined()
    expect(root.app.currentNotice?.text).toBe(MAP_MSG.importEmpty)
  })

  it('shows the server message when the import breaks a limit', async () => {
    const { root } = await signedInRoot({ '/api/marker/import': () => fail(1004, MAP_MSG.markerLimit(300)) })
    expect(await root.markers.importFile(1, { name: 'a.csv', content: 'lng,lat\n1,1' })).toBeUndefined()
    expect(root.app.currentNotice).toMatchObject({ type: 'danger', text: MAP_MSG.markerLimit(300) })
  })
})

describe('MarkerDraft (/addinfo form)', () => {
  async function draftRoot() {
    const made = await signedInRoot({ '/api/layer/getlist': () => ok(LAYERS), '/api/layer/field/getlist': () => ok([]), '/api/marker/save': (b) => ok(buildMarker({ ...b, id: 77 })) })
    await made.root.layers.load()
    return made
  }

  it('starts in the layer that fits the kind and takes points from the query', async () => {
    const { root } = await draftRoot()
    const d = new MarkerDraft(root)
    d.startNew(1, { points: '116.1,39.1|116.2,39.2' })
    expect(d.layer_id).toBe(2)
    expect(d.vertexCount).toBe(2)
    expect(d.points).toBe('116.1,39.1|116.2,39.2')
    d.setType(3)
    expect(d.layer_id).toBe(3)
  })

  it('starts from the parts the map drew: each part kept, coordinates as stored points keep them, and a circle with its radius', async () => {
    const { root } = await draftRoot()
    const multi = new MarkerDraft(root)
    multi.startNew(6, {
      parts: [
        [
          { lng: 116.123456789, lat: 39.1 },
          { lng: 116.2, lat: 39.1 },
          { lng: 116.2, lat: 39.2 },
        ],
        [
          { lng: 116.5, lat: 39.5 },
          { lng: 116.6, lat: 39.5 },
          { lng: 116.6, lat: 39.6 },
        ],
      ],
    })
    expect(multi.layer_id).toBe(3)
    expect(multi.parts).toHaveLength(2)
    expect(multi.parts[0][0]).toEqual({ lng: 116.1234568, lat: 39.1 })
    expect(multi.points).toBe('116.1234568,39.1|116.2,39.1|116.2,39.2;116.5,39.5|116.6,39.5|116.6,39.6')
    const circle = new MarkerDraft(root)
    circle.startNew(5, { parts: [[{ lng: 116.4, lat: 39.9 }]], radius: 1002 })
    expect(circle.input).toMatchObject({ type: 5, points: '116.4,39.9', radius: 1002 })
  })

  it("keeps an area's holes through an edit of its name and outline, and drops them for kinds without holes", async () => {
    const { root } = await draftRoot()
    const d = new MarkerDraft(root)
    const holed = '116.39,39.9|116.4,39.9|116.4,39.91|116.39,39.91#116.394,39.904|116.396,39.904|116.396,39.906'
    d.startEdit(buildMarker({ id: 9, type: 3, layer_id: 3, points: holed }))
    d.name = '试验田'
    expect(d.input.points).toBe(holed)
    d.addVertex({ lng: 116.385, lat: 39.905 })
    expect(d.points).toBe('116.39,39.9|116.4,39.9|116.4,39.91|116.39,39.91|116.385,39.905#116.394,39.904|116.396,39.904|116.396,39.906')
    d.setType(1)
    expect(d.points).not.toContain('#')
  })

  it('adds typed vertices, refusing malformed ones', async () => {
    const { root } = await draftRoot()
    const d = new MarkerDraft(root)
    d.startNew(3)
    expect(d.addVertexText('abc')).toBe(MAP_UI_MSG.coordInvalid)
    expect(d.addVertexText('116.1，39.1')).toBeNull()
    expect(d.addVertexText('116.2,39.1')).toBeNull()
    expect(d.addVertexText('116.2,95')).toBe('纬度需在-90到90之间')
    d.addVertex({ lng: 116.2, lat: 39.2 })
    expect(d.points).toBe('116.1,39.1|116.2,39.1|116.2,39.2')
    d.removeVertex(0, 1)
    expect(d.vertexCount).toBe(2)
  })

  it('keeps one vertex for points and circles, two corners for rectangles', async () => {
    const { root } = await draftRoot()
    const d = new MarkerDraft(root)
    d.startNew(0)
    d.addVertex({ lng: 1, lat: 1 })
    d.addVertex({ lng: 2, lat: 2 })
    expect(d.points).toBe('2,2')
    d.setType(4)
    d.addVertex({ lng: 3, lat: 3 })
    expect(d.addVertex({ lng: 4, lat: 4 })).toBe(MAP_MSG.rectangleNeedsTwo)
    expect(d.points).toBe('2,2|3,3')
    d.setType(5)
    expect(d.points).toBe('2,2')
  })

  it('builds the parts of a multi-part polygon', async () => {
    const { root } = await draftRoot()
    const d = new MarkerDraft(root)
    d.startNew(6)
    for (const p of ['1,1', '2,1', '2,2']) d.addVertexText(p)
    d.addPart()
    for (const p of ['3,3', '4,3', '4,4']) d.addVertexText(p)
    expect(d.points).toBe('1,1|2,1|2,2;3,3|4,3|4,4')
  })

  it('switches lines between the solid and the dashed kind', async () => {
    const { root } = await draftRoot()
    const d = new MarkerDraft(root)
    d.startNew(1)
    d.setDashed(true)
    expect(d.type).toBe(2)
    expect(d.dashed).toBe(true)
    d.setDashed(false)
    expect(d.type).toBe(1)
  })

  it('saves through the store and then edits the saved marker', async () => {
    const { root, calls } = await draftRoot()
    const d = new MarkerDraft(root)
    d.startNew(5, { points: '116.39,39.9' })
    d.setName('范围')
    expect(await d.save()).toBeUndefined()
    expect(root.app.currentNotice?.text).toBe(MAP_MSG.circleNeedsRadius)
    d.setRadius(500)
    const saved = await d.save()
    expect(saved?.id).toBe(77)
    expect(d.id).toBe(77)
    expect(calls.at(-1)?.body).toMatchObject({ type: 5, radius: 500, layer_id: 3, name: '范围' })
  })
})
