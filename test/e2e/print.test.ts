/**
 * The print module (打印) against the real server: from the map's tools the sheet opens with a
 * preview of the map's view; changing the paper and the title draws the preview again; 保存图片 and
 * 导出PDF download the printed PNG and PDF, named by the title and the date. The PDF is read back
 * with poppler and turned into a picture (pdftoppm) beside the screenshots, to look at.
 */
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import type { Page } from 'playwright-core'
import { PNG } from 'pngjs'
import { SHOTS, apiOk, apiSignIn, button, input, on, openWorld, shot, signUp, type Server, type World } from './harness'

jest.setTimeout(300_000)

let world: World
let server: Server
let page: Page

const PHONE = '13866660050'

beforeAll(async () => {
  world = await openWorld()
  ;({ server } = world)
  page = await world.newPage()
})

afterAll(() => world?.close())

const previewSrc = () =>
  page
    .locator('.print-preview__image img, img.print-preview__image, .print-preview__image')
    .first()
    .evaluate((el) => (el as HTMLImageElement).src || el.querySelector('img')?.src || el.getAttribute('src') || '')

describe('printing the map', () => {
  it('opens 打印 from the map, updates the preview with the paper and title, and downloads the PNG and the PDF', async () => {
    await signUp(page, server, PHONE, '郑制图')
    const auth = await apiSignIn(server, PHONE)
    const layer = await apiOk(server, '/api/layer/save', { name: '网点', type: 1 }, auth)
    const area = await apiOk(server, '/api/layer/save', { name: '片区', type: 3 }, auth)
    for (const [name, points] of [
      ['东单网点', '116.418,39.914'],
      ['西单网点', '116.374,39.913'],
      ['王府井网点', '116.411,39.917'],
    ])
      await apiOk(server, '/api/marker/save', { layer_id: layer.id, type: 0, name, points, style: { color: '#F53F3F' } }, auth)
    await apiOk(
      server,
      '/api/marker/save',
      { layer_id: area.id, type: 3, name: '东城片区', points: '116.38,39.905|116.43,39.905|116.43,39.93|116.38,39.93', style: { color: '#722ED1', fill_color: '#722ED1', fill_opacity: 0.3 } },
      auth,
    )

    await page.goto(`${server.url}/map`)
    await on(page, '.map-tool--print').waitFor()
    await shot(page, '149-map-print-tool')
    await on(page, '.map-tool--print').click()
    await page.waitForURL(/\/print\?view=1$/)
    await on(page, '.print-preview__image').waitFor()
    await page.waitForFunction(() => !document.querySelector('.print-preview__busy'))
    const first = await previewSrc()
    expect(first).toMatch(/\/api\/print\/file\/[A-Za-z0-9_-]+\.png$/)
    await shot(page, '150-print-sheet')

    // A3 and a new title: the preview is drawn again.
    await on(page, '.print-paper .nut-radio', 'A3').click()
    await input(page, '地图').fill('东城网点分布')
    await page.waitForFunction((old) => {
      const el = document.querySelector('.print-preview__image')
      const src = (el as HTMLImageElement | null)?.src || el?.querySelector('img')?.src || ''
      return src && src !== old && !document.querySelector('.print-preview__busy')
    }, first)
    expect(await previewSrc()).not.toBe(first)
    await on(page, '.print-preview__caption', 'A3').waitFor()
    await shot(page, '151-print-sheet-a3')

    const day = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10)
    const [png] = await Promise.all([page.waitForEvent('download'), button(page, '保存图片').click()])
    expect(png.suggestedFilename()).toBe(`东城网点分布_${day}.png`)
    const pngFile = path.join(SHOTS, '152-printed.png')
    fs.mkdirSync(SHOTS, { recursive: true })
    await png.saveAs(pngFile)
    const picture = PNG.sync.read(fs.readFileSync(pngFile))
    // A3 landscape at 150 dpi.
    expect({ width: picture.width, height: picture.height }).toEqual({ width: 2480, height: 1754 })

    const [pdf] = await Promise.all([page.waitForEvent('download'), button(page, '导出PDF').click()])
    expect(pdf.suggestedFilename()).toBe(`东城网点分布_${day}.pdf`)
    const pdfFile = path.join(SHOTS, '153-printed.pdf')
    await pdf.saveAs(pdfFile)
    expect(execFileSync('pdfinfo', [pdfFile]).toString()).toMatch(/Page size:\s+1190\.55 x 841\.89 pts \(A3\)/)
    const text = execFileSync('pdftotext', [pdfFile, '-']).toString()
    for (const words of ['东城网点分布', '网点', '片区', '图例']) expect(text).toContain(words)
    // The PDF as a picture, to look at beside the screenshots.
    execFileSync('pdftoppm', ['-png', '-r', '60', '-singlefile', pdfFile, path.join(SHOTS, '154-printed-pdf')])
    expect(fs.existsSync(path.join(SHOTS, '154-printed-pdf.png'))).toBe(true)
  })
})
