/**
 * Check-in with the watermark camera against the real server, with Chromium's fake camera
 * (--use-fake-device-for-media-stream): a member opens a marker next to their position, checks in,
 * takes a photo (the watermark with time, place, user, target and the server's code is painted on
 * it at 4x, SPEC 9), submits, and finds the record with its photo and 已校验 in the sign list, where
 * the photo opens in the preview (long-press 保存图片). A marker 2 km away is refused with the
 * server's message.
 */
import type { Page } from 'playwright-core'
import { CHECKIN_MSG } from '../../src/domain/checkinMessages'
import { CAMERA_EXPORT_SCALE } from '../../src/domain/constants'
import { wgs84ToGcj02 } from '../../src/domain/geo'
import { cameraVideoHeight } from '../../src/domain/watermark'
import { apiCall, apiSignIn, button, exact, input, on, openWorld, shot, signUp, type ApiAuth, type Server, type World } from './harness'

jest.setTimeout(300_000)

let world: World
let server: Server
let page: Page
let auth: Required<ApiAuth>

const PHONE = '13866660090'
/** Where the browser says the phone is (WGS-84, as the Geolocation API gives it). */
const HERE_WGS = { longitude: 116.391, latitude: 39.9075 }
const HERE = wgs84ToGcj02({ lng: HERE_WGS.longitude, lat: HERE_WGS.latitude })

const visible = (selector: string, text?: string | RegExp) => on(page, selector, text)

beforeAll(async () => {
  world = await openWorld()
  ;({ server } = world)
  page = await world.newPage({ permissions: ['geolocation'], geolocation: HERE_WGS })
})

afterAll(() => world?.close())

/** The pixel size of a loaded <img> (waits for it to load). */
async function naturalSize(img: ReturnType<typeof visible>): Promise<[number, number]> {
  await img.evaluate((el: HTMLImageElement) => (el.complete && el.naturalWidth ? undefined : new Promise((r) => el.addEventListener('load', r, { once: true }))))
  return img.evaluate((el: HTMLImageElement) => [el.naturalWidth, el.naturalHeight] as [number, number])
}

async function openDetail(name: string): Promise<void> {
  await visible('.map-search-entry').click()
  await input(page, '搜索标注名称、备注、字段内容').fill(name)
  await visible('.map-search__go').click()
  await visible('.map-search__results .nut-cell', name).first().click()
  await visible('.marker-detail__name', exact(name)).waitFor()
}

describe('check-in with the watermark camera', () => {
  it('checks in at a marker with a watermarked photo and finds it verified in the sign list', async () => {
    await signUp(page, server, PHONE, '郑巡检')
    auth = await apiSignIn(server, PHONE)
    const layer = await apiCall(server, '/api/layer/save', { name: '巡检点', type: 1 }, auth)
    // a few metres from the phone, and one 2 km away
    const near = `${(HERE.lng + 0.0001).toFixed(6)},${HERE.lat.toFixed(6)}`
    const far = `${(HERE.lng + 0.0235).toFixed(6)},${HERE.lat.toFixed(6)}`
    for (const [name, points] of [
      ['东门仓库', near],
      ['西山泵站', far],
    ]) {
      expect((await apiCall(server, '/api/marker/save', { layer_id: layer.data.id, type: 0, name, points }, auth)).header.errcode).toBe(0)
    }
    await page.goto(`${server.url}/map`)
    await openDetail('东门仓库')
    await visible('.marker-detail__sign').click()

    // the server measured the distance: target, distance and radius, the code
    const sheet = visible('[data-testid=checkin-sheet]')
    await sheet.getByText('东门仓库').first().waitFor()
    await sheet.getByText(/^\s*\d+ 米/).waitFor()
    await sheet.getByText('（签到范围 300 米）').waitFor()
    const code = (await sheet.locator('.checkin-sheet__code').innerText()).trim()
    expect(code).toMatch(/^[0-9A-F]{8}$/)
    await shot(page, '90-checkin-sheet')

    // the camera: video height = window height - 200 (SPEC 9), the watermark over it
    await visible('[data-testid=checkin-take-photo]').click()
    const video = page.locator('[data-testid=camera-video]')
    await video.waitFor()
    await page.locator('[data-testid=camera-shutter]:not(.wm-camera__shutter--off)').waitFor()
    expect(await video.evaluate((v: HTMLVideoElement) => [v.clientWidth, v.clientHeight, v.videoWidth > 0])).toEqual([390, cameraVideoHeight(844), true])
    await visible('.wm-camera__line', `校验码 ${code}`).waitFor()
    await visible('.wm-camera__line', '签到人 郑巡检').waitFor()
    await shot(page, '91-watermark-camera')
    await page.locator('[data-testid=camera-shutter]').click()
    await page.locator('[data-testid=watermark-camera]').waitFor({ state: 'detached' })
    const thumb = visible('.checkin-sheet__thumb img')
    await thumb.waitFor()
    // exported at 4x the on-screen picture
    expect(await naturalSize(thumb)).toEqual([390 * CAMERA_EXPORT_SCALE, cameraVideoHeight(844) * CAMERA_EXPORT_SCALE])
    await shot(page, '92-checkin-photo')

    // the photo in the preview: the watermark is on it
    await thumb.click()
    await visible('[data-testid=photo-preview]').waitFor()
    await shot(page, '93-photo-watermark')
    await visible('.photo-preview__close').click()
    await visible('[data-testid=photo-preview]').waitFor({ state: 'hidden' })

    await input(page, CHECKIN_MSG.remarkPlaceholder).fill('门锁完好')
    await button(page, CHECKIN_MSG.submit).click()
    await page.getByText(CHECKIN_MSG.saved).first().waitFor()
    await visible('[data-testid=checkin-sheet]').waitFor({ state: 'hidden' })

    // the server kept it: the photo, its hash, the code, verified
    const list = await apiCall(server, '/api/sign/getlist', {}, auth)
    expect(list.data.total).toBe(1)
    expect(list.data.list[0]).toMatchObject({ code, verified: true, remark: '门锁完好', target: { kind: 'marker', name: '东门仓库' } })
    expect(list.data.list[0].photos).toHaveLength(1)
  })

  it('shows the record with its watermarked photo and 已校验 in the sign list, and opens the preview with 保存图片', async () => {
    await openSignList()
    const record = visible('[data-testid=sign-record]').first()
    await record.getByText(CHECKIN_MSG.verified).waitFor()
    await record.getByText(/签到点 东门仓库 · 距离 \d+ 米/).waitFor()
    await record.getByText('门锁完好').waitFor()
    const photo = record.locator('.sign-record__photo img')
    expect((await naturalSize(photo))[0]).toBe(390 * CAMERA_EXPORT_SCALE)
    // The list checks signatures; the photo files are hashed again when asked, one record at a time.
    await record.locator('.sign-record__check-photos', { hasText: CHECKIN_MSG.checkPhotos }).click()
    await record.getByText(CHECKIN_MSG.photosChecked).waitFor()
    await shot(page, '94-sign-list')

    await photo.click()
    await visible('[data-testid=photo-preview]').waitFor()
    // zoom buttons stop at 3 (SPEC 9)
    for (let i = 0; i < 4; i++) await visible('.photo-preview__zoom--in').click()
    await visible('.photo-preview__scale', '300%').waitFor()
    for (let i = 0; i < 8; i++) await visible('.photo-preview__zoom--out').click()
    await visible('.photo-preview__scale', '33%').waitFor()
    // a long press (touch held) offers 保存图片
    const stage = visible('.photo-preview__stage')
    const box = (await stage.boundingBox())!
    const cdp = await page.context().newCDPSession(page)
    const at = [{ x: box.x + box.width / 2, y: box.y + box.height / 2 }]
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: at })
    await page.waitForTimeout(800)
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] })
    await visible('.nut-actionsheet-item', CHECKIN_MSG.saveImage).waitFor()
    await shot(page, '95-photo-save-image')
    const download = page.waitForEvent('download')
    await visible('.nut-actionsheet-item', CHECKIN_MSG.saveImage).click()
    expect((await download).suggestedFilename()).toMatch(/\.jpg$/)
    await page.getByText(CHECKIN_MSG.imageDownloaded).first().waitFor()
    await visible('.photo-preview__close').click()
  })

  it("a check-in out of range shows the server's message", async () => {
    await page.goto(`${server.url}/map`)
    await openDetail('西山泵站')
    await visible('.marker-detail__sign').click()
    const problem = visible('.checkin-sheet__problem-text')
    await problem.waitFor()
    expect(await problem.innerText()).toMatch(/^当前位置距签到点\d+米，超出签到范围300米$/)
    expect(await visible('[data-testid=checkin-take-photo]').count()).toBe(0)
    await shot(page, '96-checkin-out-of-range')
  })
})

/** The sign list lives in /task's 签到记录 tab. */
async function openSignList(): Promise<void> {
  await page.goto(`${server.url}/task`)
  await visible('.nut-tabs-titles-item', '签到记录').click()
  await visible('[data-testid=sign-list]').waitFor()
}
