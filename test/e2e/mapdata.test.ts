/**
 * The map-data journey on H5 in headless Chromium (mobile emulation) against the real
 * server: a new user builds a small team map by hand. Folder and layers in the layer panel, a
 * marker of each of the seven kinds through /addinfo, a note with a photo in the detail, edit,
 * delete, restore from /oplog, export a layer and import the file back into another layer.
 */
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import type { Page } from 'playwright-core'
import { MAP_MSG, MAP_UI_MSG } from '../../src/domain/messages'
import { button, closePopup, exact, input, on, openWorld, settledTexts, shot, signUp, type Server, type World } from './harness'
import { IMPORT_MSG, IMPORT_UI_MSG } from '../../src/domain/importMessages'

jest.setTimeout(300_000)

let world: World
let server: Server
let page: Page
let tmp: string

/** A 2x2 PNG, the photo a field worker attaches to a note. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGNgYGD4z8DAwMDAxMDAAAAbBAEBlUGjswAAAABJRU5ErkJggg==', 'base64')

/**
 * AMap's geocoder as the server meets it (restapi.amap.com's batch answer), on loopback. Its
 * answers wait while `held` is set, so an import of addresses stays in its geocoding phase.
 */
let amap: http.Server
let held: Promise<void> | null = null

beforeAll(async () => {
  amap = http.createServer((req, res) => {
    const addresses = (new URL(req.url ?? '/', 'http://x').searchParams.get('address') ?? '').split('|')
    void (held ?? Promise.resolve()).then(() => {
      res.setHeader('content-type', 'application/json')
      res.end(JSON.stringify({ status: '1', info: 'OK', geocodes: addresses.map(() => ({ location: '116.397428,39.90923' })) }))
    })
  })
  await new Promise<void>((resolve) => amap.listen(0, '127.0.0.1', resolve))
  world = await openWorld({ AMAP_WEB_KEY: 'test-key', AMAP_WEB_BASE: `http://127.0.0.1:${(amap.address() as AddressInfo).port}` })
  ;({ server } = world)
  page = await world.newPage()
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'teammap-e2e-files-'))
})

afterAll(async () => {
  await world?.close()
  await new Promise((resolve) => amap?.close(resolve))
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true })
})

const visible = (selector: string, text?: string | RegExp) => on(page, selector, text)

/**
 * Picks a file in the import dialog once its button is ready (it spins until the last import has
 * reloaded its layers), and returns once the file is on its way to the server. Reading the file
 * happens after the pick, so until the request leaves the dialog still shows the last import's
 * outcome (which may read the same, e.g. 成功导入2个标注) and its button is not yet busy.
 */
async function importFile(file: string): Promise<void> {
  await page.locator('.layer-dialog--import .nut-button-loading').waitFor({ state: 'hidden' })
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), button(page, '选择文件并导入').click()])
  await Promise.all([page.waitForRequest((r) => r.url().includes('/api/marker/import') && r.method() === 'POST'), chooser.setFiles(file)])
}

async function openLayerPanel(): Promise<void> {
  await visible('.map-tool', '图层').click()
  await visible('.layer-panel').waitFor()
}

/** Opens the actions sheet of a layer or folder row in the layer panel and picks one action. */
async function layerAction(layerName: string, action: string): Promise<void> {
  await visible('.layer-row')
    .filter({ has: page.locator('.layer-row__name', { hasText: exact(layerName) }) })
    .locator('.layer-row__more')
    .click()
  await visible('.nut-actionsheet-item', exact(action)).click()
}

async function fillNameDialog(placeholder: string, name: string, kind?: string): Promise<void> {
  await input(page, placeholder).fill(name)
  if (kind) await visible('.nut-radio', exact(kind)).click()
  await button(page, '确定').click()
  await visible('.layer-row__name', exact(name)).waitFor()
}

/** Waits until a condition about the page's layout holds (animations and scrolling take a moment). */
async function until(check: () => Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time')
    await page.waitForTimeout(100)
  }
}

async function notice(text: string | RegExp): Promise<void> {
  await page.getByText(text).filter({ visible: true }).first().waitFor()
}

/** 添加 offers drawing on the map or typing coordinates; this takes the typed way to /addinfo. */
async function openTypedAddinfo(): Promise<void> {
  await visible('.map-tool', '添加').click()
  await visible('.nut-actionsheet-item', exact('手动输入坐标')).click()
  await page.waitForURL(/\/addinfo/)
}

/** On /addinfo: picks the kind, names the marker, types its vertices and saves; ends on /map with the detail open. */
async function addMarker(kind: string, name: string, vertices: string[][], opts: { radius?: number; layerPath?: string } = {}): Promise<void> {
  await openTypedAddinfo()
  await visible('.addinfo-kind', exact(kind)).click()
  if (opts.layerPath) await visible('.nut-cell', '图层').getByText(opts.layerPath).waitFor()
  await input(page, '请输入标注名称').fill(name)
  for (let part = 0; part < vertices.length; part++) {
    if (part > 0) await button(page, '新增一部分').click()
    for (const v of vertices[part]) {
      await input(page, '经度,纬度').fill(v)
      await button(page, kind === '点' || kind === '圆形' ? '设为此坐标' : '添加坐标').click()
    }
  }
  if (opts.radius) await input(page, '请输入半径（米）').fill(String(opts.radius))
  await button(page, '保存标注').click()
  await page.waitForURL(/\/map$/)
  await visible('.marker-detail__name', exact(name)).waitFor()
}

async function openSearch(kw: string): Promise<void> {
  await visible('.map-search-entry').click()
  await input(page, '搜索标注名称、备注、字段内容').fill(kw)
  await visible('.map-search__go').click()
}

/** Searches for a keyword (name, note or field value) and opens the detail of the first result, or of the one named. */
async function openDetailBySearch(kw: string, name = kw): Promise<void> {
  await openSearch(kw)
  await visible('.map-search__results .nut-cell', name).first().click()
  await visible('.marker-detail__name', exact(name)).waitFor()
}

async function closeDetail(): Promise<void> {
  await visible('.marker-detail .draggable-panel__close').click()
  await visible('.marker-detail').waitFor({ state: 'hidden' })
}

describe('H5 map-data journey', () => {
  it('builds layers in a folder from the layer panel', async () => {
    await signUp(page, server, '13800138011', '外业小李')
    await openLayerPanel()
    await page.getByText('还没有图层').waitFor()

    await button(page, '新建文件夹').click()
    await fillNameDialog('请输入文件夹名称', '外业数据')
    // An empty folder's switch is on: nothing in it is hidden.
    await visible('.layer-row', '外业数据').locator('.nut-switch-button-open').waitFor()

    // Layers inside the folder: one of each kind, so that all seven marker kinds have a home.
    await layerAction('外业数据', '新建图层')
    await page.getByText('位置：外业数据').waitFor()
    await fillNameDialog('请输入图层名称', '供水网点', '点图层')
    await layerAction('外业数据', '新建图层')
    await fillNameDialog('请输入图层名称', '管线', '线图层')
    await layerAction('外业数据', '新建图层')
    await fillNameDialog('请输入图层名称', '片区', '面图层')
    // A second point layer at the top level, for the import later.
    await button(page, '新建图层').click()
    await fillNameDialog('请输入图层名称', '网点副本', '点图层')

    // The folder collapses and expands.
    await visible('.layer-row__name', exact('外业数据')).click()
    await visible('.layer-row__name', exact('管线')).waitFor({ state: 'hidden' })
    await visible('.layer-row__name', exact('外业数据')).click()
    await visible('.layer-row__name', exact('管线')).waitFor()
    // 默认 marks only the layer new points go to, now that points have two layers to choose from;
    // the only line and area layers are not marked.
    await visible('.layer-row', '供水网点')
      .locator('.layer-row__default', { hasText: exact('默认点图层') })
      .waitFor()
    expect(await page.locator('.layer-row__default').count()).toBe(1)
    await shot(page, '20-layer-panel')

    await closePopup(page, '.layer-panel')

    // The open folder stays open across a reload.
    await page.reload()
    await openLayerPanel()
    await visible('.layer-row__name', exact('管线')).waitFor()
    await closePopup(page, '.layer-panel')
  })

  it('adds a marker of each of the seven kinds through /addinfo', async () => {
    await addMarker('点', '水厂', [['116.397428,39.90923']], { layerPath: '外业数据 / 供水网点' })
    await shot(page, '21-detail-point')
    await closeDetail()
    await addMarker('实线', '主干管', [['116.39,39.90', '116.40,39.91']])
    await closeDetail()
    await addMarker('虚线', '规划管', [['116.39,39.92', '116.41,39.92', '116.42,39.93']])
    await closeDetail()
    await addMarker('多边形', '一号片区', [['116.38,39.89', '116.39,39.89', '116.39,39.90']])
    await closeDetail()
    await addMarker('矩形', '仓库范围', [['116.30,39.80', '116.31,39.81']])
    await closeDetail()
    await addMarker('圆形', '服务半径', [['116.35,39.85']], { radius: 500 })
    await page.getByText('500米').first().waitFor()
    await closeDetail()
    await addMarker('多面', '两块绿地', [
      ['116.20,39.70', '116.21,39.70', '116.21,39.71'],
      ['116.22,39.72', '116.23,39.72', '116.23,39.73'],
    ])
    await closeDetail()

    // The panel counts them per layer: 1 point, 2 lines, 4 areas.
    await openLayerPanel()
    await visible('.layer-row', '供水网点').getByText('1个标注').waitFor()
    await visible('.layer-row', '管线').getByText('2个标注').waitFor()
    await visible('.layer-row', '片区').getByText('4个标注').waitFor()
    await closePopup(page, '.layer-panel')
  })

  it('refuses a marker without valid coordinates and writes nothing', async () => {
    await openTypedAddinfo()
    await visible('.addinfo-kind', exact('点')).click()
    await input(page, '经度,纬度').fill('abc')
    await button(page, '设为此坐标').click()
    await notice(MAP_UI_MSG.coordInvalid)
    await input(page, '请输入标注名称').fill('无坐标')
    await on(page, '.page-header__title', '标注详情').waitFor()
    // The name row draws the one line under 图层: no Cell divider doubles it.
    expect(await on(page, '.addinfo-group', '基本信息').locator('.nut-cell-divider').count()).toBe(0)
    await shot(page, '22-addinfo')
    await button(page, '保存标注').click()
    await notice(MAP_MSG.pointsRequired)
    expect(page.url()).toContain('/addinfo')
    await page.goBack()
    await page.waitForURL(/\/map$/)
    await openSearch('无坐标')
    await page.getByText(MAP_UI_MSG.searchEmpty).waitFor()
    await visible('.map-search__cancel').click()
  })

  it('adds a note with a photo to a marker and shows both in the detail', async () => {
    await openDetailBySearch('水厂')
    // The panel opens 200 px tall; tapping the note box brings it up to full height.
    const panelHeight = async () => (await page.locator('.marker-detail').boundingBox())?.height ?? 0
    expect(Math.round(await panelHeight())).toBe(200)
    await input(page, '请输入备注内容').click()
    await until(async () => (await panelHeight()) > 600)
    await input(page, '请输入备注内容').fill('东门阀门井需要检修')
    // On a phone the browser asks first: take a picture or choose from the album.
    await visible('.marker-detail .nut-uploader-upload').click()
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.locator('.taro__actionSheet').getByText('从相册选择').click()])
    await chooser.setFiles({ name: 'valve.png', mimeType: 'image/png', buffer: PNG })
    await visible('.marker-detail .nut-uploader-preview img').waitFor()
    // While the photo is on its way 添加备注 waits (saved now, the note would lose it); then it is ready.
    await page.locator('.note-form .nut-button-loading').waitFor({ state: 'detached' })
    await button(page, '添加备注').click()
    await visible('.note__content', '东门阀门井需要检修').waitFor()
    // The view moves to the note just saved, not left on the emptied form.
    await until(async () => {
      const note = await page.locator('.note', { hasText: '东门阀门井需要检修' }).boundingBox()
      const box = await page.locator('.marker-detail .draggable-panel__content').boundingBox()
      return !!note && !!box && note.y >= box.y - 1 && note.y + Math.min(note.height, 80) <= box.y + box.height + 1
    })
    const photo = visible('.note__photo img').first()
    await photo.waitFor()
    // The photo is served back by the server, not only shown from the phone's memory.
    const src = await photo.getAttribute('src')
    expect(src).toBeTruthy()
    const served = await fetch(new URL(src!, server.url))
    expect(served.status).toBe(200)
    expect(Buffer.from(await served.arrayBuffer()).equals(PNG)).toBe(true)
    await shot(page, '23-detail-note')
  })

  it('gives a layer custom fields on /fields', async () => {
    await closeDetail()
    await openLayerPanel()
    await layerAction('供水网点', '字段管理')
    await page.waitForURL(/\/fields\?layer_id=\d+/)
    await page.getByText('该图层还没有自定义字段').waitFor()
    for (const [name, kind, required] of [
      ['负责人', '文本', true],
      ['口径', '数字', false],
    ] as const) {
      await button(page, '新增字段').click()
      await input(page, '请输入字段名称').fill(name)
      await visible('.field-form__kind', exact(kind)).click()
      if (required) await visible('.field-form .nut-switch').click()
      await button(page, '保存字段').click()
      await visible('.field-item__name', exact(name)).waitFor()
    }
    // Reorder: 口径 first.
    await visible('.field-item').filter({ hasText: '口径' }).getByText('上移').click()
    expect(await settledTexts(visible('.field-item__name'), ['口径', '负责人'])).toEqual(['口径', '负责人'])
    await shot(page, '27-fields')
    await page.goBack()
    await page.waitForURL(/\/map$/)
  })

  it("offers the layers to pick from on /fields opened without one, and opens the picked layer's fields", async () => {
    await page.goto(`${server.url}/fields`)
    const row = visible('.fields-layer', '供水网点')
    await row.waitFor()
    // Layers only, named by their folder path; the folder itself is not offered.
    await visible('.fields-layer', '外业数据 / 供水网点').waitFor()
    expect(await visible('.fields-layer', exact('外业数据')).count()).toBe(0)
    await shot(page, '27b-fields-pick')
    await row.click()
    await page.waitForURL(/\/fields\?layer_id=\d+/)
    expect(await settledTexts(visible('.field-item__name'), ['口径', '负责人'])).toEqual(['口径', '负责人'])
    await page.goto(`${server.url}/map`)
  })

  it('edits the marker with its field values, deletes it, and restores it from the operation log', async () => {
    await openDetailBySearch('水厂')
    await button(page, '编辑标注').click()
    await page.waitForURL(/\/addinfo\?id=\d+/)
    await visible('.note__content', '东门阀门井需要检修').waitFor()
    await input(page, '请输入标注名称').fill('水厂（东门）')
    // 负责人 is required: saving without it is refused with the field's message.
    await input(page, '请输入口径').fill('300')
    await button(page, '保存修改').click()
    await notice(MAP_MSG.fieldRequired('负责人'))
    await input(page, '请输入负责人').fill('张工')
    // A custom icon for the group, uploaded here and chosen for this point.
    await button(page, '上传图标').click()
    await input(page, '请输入图标名称').fill('阀门')
    await button(page, '选择图片').click()
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.locator('.taro__actionSheet').getByText('从相册选择').click()])
    await chooser.setFiles({ name: 'valve-icon.png', mimeType: 'image/png', buffer: PNG })
    await visible('.icon-tile.icon-tile--on', '阀门').waitFor()
    await shot(page, '28-addinfo-icon')
    await button(page, '保存修改').click()
    await page.waitForURL(/\/map$/)
    await visible('.marker-detail__name', '水厂（东门）').waitFor()
    await visible('.marker-detail .nut-cell', '负责人').getByText('张工').waitFor()
    await visible('.marker-detail .nut-cell', '口径').getByText('300').waitFor()
    await visible('.marker-detail .nut-cell', '图标').locator('img').waitFor()
    // Field values are searchable.
    await closeDetail()
    await openDetailBySearch('张工', '水厂（东门）')

    await button(page, '删除标注').click()
    await page.getByText(MAP_UI_MSG.deleteMarkerConfirm('水厂（东门）')).waitFor()
    await button(page, '删除').click()
    await notice(MAP_UI_MSG.deletedOk)
    await visible('.marker-detail').waitFor({ state: 'hidden' })
    await openSearch('水厂')
    await page.getByText(MAP_UI_MSG.searchEmpty).waitFor()
    await visible('.map-search__cancel').click()

    await openLayerPanel()
    await visible('.layer-row', '供水网点').getByText('0个标注').waitFor()
    await visible('.layer-panel__link', '操作日志').click()
    await page.waitForURL(/\/oplog$/)
    const deleted = visible('.oplog-item').filter({ hasText: '删除' }).filter({ hasText: '标注「水厂（东门）」' })
    await deleted.waitFor()
    // The edit is logged with its before and after.
    await visible('.oplog-item__change', '水厂 → 水厂（东门）').waitFor()
    await shot(page, '24-oplog')
    // The fields added earlier read in the words of /fields: Chinese types, no empty option lines.
    await visible('.oplog-item__change', exact('字段类型：数字')).waitFor()
    expect(await visible('.oplog-item__change', /字段类型：[a-z]/).count()).toBe(0)
    expect(await visible('.oplog-item__change', /^\s*选项：\s*—?\s*$/).count()).toBe(0)
    await deleted.locator('.nut-button', { hasText: '恢复' }).click()
    await page.getByText(MAP_UI_MSG.restoreConfirm('水厂（东门）')).waitFor()
    await button(page, '恢复').click()
    await notice(MAP_MSG.restoreOk)
    await visible('.oplog-item').filter({ hasText: '恢复' }).filter({ hasText: '标注「水厂（东门）」' }).waitFor()

    // Back on the map the marker is there again, with its note and photo.
    await page.goto(`${server.url}/map`)
    await openDetailBySearch('水厂（东门）')
    await visible('.note__content', '东门阀门井需要检修').waitFor()
    await visible('.note__photo img').first().waitFor()
    await closeDetail()
  })

  it('exports a layer as GeoJSON in WGS-84 and imports the file into another layer', async () => {
    await openLayerPanel()
    await layerAction('供水网点', '导出数据')
    const [download] = await Promise.all([page.waitForEvent('download'), button(page, '导出').click()])
    const file = path.join(tmp, download.suggestedFilename())
    await download.saveAs(file)
    expect(file).toMatch(/\.geojson$/)
    const geojson = JSON.parse(fs.readFileSync(file, 'utf8'))
    expect(geojson.type).toBe('FeatureCollection')
    expect(geojson.features).toHaveLength(1)
    expect(geojson.features[0].properties.name).toBe('水厂（东门）')
    // Stored GCJ-02 116.397428,39.90923 is about 116.39118,39.90783 in WGS-84 (a few hundred metres west).
    const [lng, lat] = geojson.features[0].geometry.coordinates
    expect(lng).toBeCloseTo(116.39118, 3)
    expect(lat).toBeCloseTo(39.90783, 3)

    // The same layer as an Excel workbook: its bytes reach the phone as a real .xlsx.
    await layerAction('供水网点', '导出数据')
    await visible('.layer-dialog__types .nut-radio', exact('Excel')).click()
    await shot(page, '24b-export-formats')
    const [xlsx] = await Promise.all([page.waitForEvent('download'), button(page, '导出').click()])
    const book = path.join(tmp, xlsx.suggestedFilename())
    await xlsx.saveAs(book)
    expect(book).toMatch(/供水网点\.xlsx$/)
    const { readSheet } = await import('read-excel-file/node')
    const sheet = await readSheet(fs.readFileSync(book))
    expect(sheet[0].slice(0, 3)).toEqual(['name', 'lng', 'lat'])
    expect(sheet[1][0]).toBe('水厂（东门）')

    await layerAction('网点副本', '导入数据')
    await importFile(file)
    await visible('.import-result__title', MAP_MSG.importOk(1)).waitFor()
    await shot(page, '25-import-ok')

    // A file with bad rows imports nothing and names each row.
    const bad = path.join(tmp, 'bad.csv')
    const badRows = Array.from({ length: 30 }, (_, i) => `坏点${i + 1},abc,39.91`)
    fs.writeFileSync(bad, ['name,lng,lat', '好点,116.40,39.91', ...badRows].join('\n') + '\n')
    await importFile(bad)
    await visible('.import-result__title', MAP_MSG.importRowsInvalid(30)).waitFor()
    // The dialog says it once: no notice bar repeats it.
    expect(await page.locator('.notice-bar:visible', { hasText: '未导入' }).count()).toBe(0)
    // Rows are numbered as a spreadsheet shows the file: the header is row 1, 坏点1 is row 3.
    await visible('.import-result__row', /^第3行/).waitFor()
    await shot(page, '26-import-bad-row')
    // The whole red box is inside the dialog, and its one list scrolls down to the last bad row.
    const fits = await page.evaluate(() => {
      const content = document.querySelector('.layer-dialog--import .nut-dialog-content')!
      const box = document.querySelector('.import-result--bad')!.getBoundingClientRect()
      const area = content.getBoundingClientRect()
      return { inside: box.bottom <= area.bottom + 0.5 && box.bottom <= window.innerHeight, contentScrolls: content.scrollHeight > content.clientHeight + 1 }
    })
    expect(fits).toEqual({ inside: true, contentScrolls: false })
    const last = visible('.import-result__row', /^第32行/)
    await last.scrollIntoViewIfNeeded()
    const rowsBox = (await visible('.import-result__rows').boundingBox())!
    const lastBox = (await last.boundingBox())!
    expect(lastBox.y + lastBox.height).toBeLessThanOrEqual(rowsBox.y + rowsBox.height + 1.5)
    await shot(page, '26b-import-bad-rows-end')

    // A Google Earth KMZ with a point and a line: the point comes into this point layer, the line
    // into a new line layer named after the file (sample-线), and the dialog says what the file held.
    const fixtures = path.join(__dirname, '../fixtures/import')
    await importFile(path.join(fixtures, 'sample.kmz'))
    await visible('.import-result__title', MAP_MSG.importOk(2)).waitFor()
    await visible('.import-result__summary', IMPORT_UI_MSG.holds({ points: 1, lines: 1, areas: 0, no_geometry: 0 })).waitFor()
    await visible('.import-result__row', IMPORT_UI_MSG.intoLayer('sample-线', 1, true)).waitFor()
    await visible('.import-result__row', IMPORT_UI_MSG.notes(1)).waitFor()
    await shot(page, '26c-import-mixed-kmz')

    // A CSV saved by Excel on Chinese Windows (GBK, headers 名称/经度/纬度) keeps its Chinese.
    await importFile(path.join(fixtures, 'gbk-excel.csv'))
    await visible('.import-result__title', MAP_MSG.importOk(2)).waitFor()

    // An Excel workbook: its first sheet, columns 名称/经度/纬度, the other columns as fields.
    await importFile(path.join(fixtures, 'points-excel.xlsx'))
    await visible('.import-result__title', MAP_MSG.importOk(3)).waitFor()
    await shot(page, '26d-import-xlsx')

    // A table of addresses is placed through AMap's geocoder: the bar says so while it waits, and
    // 取消导入 stops the import before anything is written.
    const addresses = path.join(tmp, '地址.csv')
    fs.writeFileSync(addresses, '名称,地址\n东门,北京市东城区东长安街1号\n西门,北京市西城区西长安街1号\n')
    let release!: () => void
    held = new Promise<void>((r) => (release = r))
    await importFile(addresses)
    await visible('.import-progress__text', '正在按地址定位 0/2').waitFor()
    await shot(page, '26e-import-progress')
    await visible('.import-progress .nut-button', IMPORT_UI_MSG.cancel).click()
    held = null
    release()
    await visible('.notice-bar', IMPORT_MSG.cancelled).waitFor()
    await visible('.import-progress').waitFor({ state: 'hidden' })
    await button(page, '关闭').click()

    await visible('.layer-row', '网点副本').getByText('7个标注').waitFor()
    await visible('.layer-row', 'sample-线').getByText('1个标注').waitFor()
    await visible('.layer-row', '供水网点').getByText('1个标注').waitFor()
    await closePopup(page, '.layer-panel')
  })
})
