/**
 * Field capture without signal, on H5 against the real server: 张三's phone loses the network
 * (Playwright's offline mode), adds a point and a note with a photo, sees them pending on the map
 * and 2条待同步 in the chip; the network returns and they reach the server once; 李四's phone sees
 * them. Reloaded while still offline, the app opens from its service worker, the map from the copy
 * in IndexedDB and what waits from the outbox kept there.
 */
import type { Page } from 'playwright-core'
import { OUTBOX_MSG } from '../../src/domain/outboxMessages'
import { SYNC_MSG } from '../../src/domain/syncMessages'
import { apiOk, apiSignIn, button, closePopup, exact, input, offlineCopyOf, on, openWorld, shot, signIn, signUp, type ApiAuth, type Server, type World, acceptInvitation } from './harness'

jest.setTimeout(300_000)

const ADMIN_PHONE = '13800000701'
const MEMBER_PHONE = '13800000702'
/** The replay waits for its retry timer or the sync socket's reconnect (both back off): generous on a shared machine. */
const SYNCED = { timeout: 90_000 }
const SEEN = { timeout: 20_000 }
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGNgYGD4z8DAwMDAxMDAAAAbBAEBlUGjswAAAABJRU5ErkJggg==', 'base64')

let world: World
let server: Server
let a: Page
let b: Page
let adminApi: Required<ApiAuth>

beforeAll(async () => {
  world = await openWorld()
  ;({ server } = world)
  a = await world.newPage()
  b = await world.newPage()
})

afterAll(async () => {
  await world?.close()
})

const api = (path: string, body: Record<string, unknown>) => apiOk(server, path, body, adminApi)

const held = (page: Page, n: number, wait = SEEN) => page.locator(`.map-count[data-loaded="${n}"]`).waitFor(wait)

async function openDetailBySearch(page: Page, name: string): Promise<void> {
  await on(page, '.map-search-entry').click()
  await input(page, '搜索标注名称、备注、字段内容').fill(name)
  await on(page, '.map-search__go').click()
  await on(page, '.map-search__results .nut-cell', name).first().click()
  await on(page, '.marker-detail__name', exact(name)).waitFor()
}

describe('field capture without signal', () => {
  it('sets up a team with a point layer and one marker; both phones open the map', async () => {
    await signUp(a, server, ADMIN_PHONE, '张三')
    adminApi = await apiSignIn(server, ADMIN_PHONE)
    const layer = await api('/api/layer/save', { name: '水井', parent_id: 0, type: 1 })
    await api('/api/marker/save', { layer_id: layer.id, name: '老井', type: 0, points: '116.39,39.9' })
    await api('/api/user/pre/register', { nickname: '李四', phone: MEMBER_PHONE, department_id: 0 })
    await signIn(b, server, MEMBER_PHONE)
    await acceptInvitation(b)
    const joins = await api('/api/group/get/joins', {})
    const member = joins.list.find((m: { user: { nickname: string } }) => m.user.nickname === '李四')
    await api('/api/group/join/setting/manager', { join_id: member.join_id, is_manager: true })
    for (const p of [a, b]) {
      await p.goto(`${server.url}/map`)
      await held(p, 1)
    }
    // 张三's phone has saved the map before it loses signal (a reload without network reads that copy).
    await offlineCopyOf(a, layer.id)
    await on(a, '.sync-chip', SYNC_MSG.synced).waitFor(SEEN)
    // The worker keeps the app on the phone (installed with the first visit): a reload without network opens from it.
    await a.waitForFunction(() => navigator.serviceWorker?.controller !== null, undefined, { timeout: 60_000 })
  })

  it('offline, 张三 adds a point: it shows at once, pending, and 1条待同步', async () => {
    // The pages and the uploader were used once with signal (their code is on the phone).
    await openDetailBySearch(a, '老井')
    await input(a, '请输入备注内容').click()
    await on(a, '.marker-detail .draggable-panel__close').click()
    await on(a, '.map-tool', '添加').click()
    await on(a, '.nut-actionsheet-item', exact('手动输入坐标')).click()
    await a.waitForURL(/\/addinfo/)
    await input(a, '请输入标注名称').fill('山口新井')
    await input(a, '经度,纬度').fill('116.3912,39.9008')
    await button(a, '设为此坐标').click()
    await a.context().setOffline(true)
    await button(a, '保存标注').click()
    await a.waitForURL(/\/map$/)
    await on(a, '.marker-detail__name', exact('山口新井')).waitFor(SEEN)
    await on(a, '.notice-bar', OUTBOX_MSG.savedOffline).first().waitFor(SEEN)
    await on(a, '.sync-chip', OUTBOX_MSG.pending(1)).waitFor(SEEN)
    await held(a, 2)
  })

  it('offline, 张三 adds a note with a photo to it: 2条待同步, the point drawn pending', async () => {
    await input(a, '请输入备注内容').click()
    await input(a, '请输入备注内容').fill('水位正常，井盖完好')
    await on(a, '.marker-detail .nut-uploader-upload').click()
    const [chooser] = await Promise.all([a.waitForEvent('filechooser'), a.locator('.taro__actionSheet').getByText('从相册选择').click()])
    await chooser.setFiles({ name: 'well.png', mimeType: 'image/png', buffer: PNG })
    await on(a, '.marker-detail .nut-uploader-preview img').waitFor(SEEN)
    await a.locator('.note-form .nut-button-loading').waitFor({ state: 'detached' })
    await button(a, '添加备注').click()
    await on(a, '.note__content', '水位正常，井盖完好').waitFor(SEEN)
    await on(a, '.note__photo img').first().waitFor(SEEN)
    await on(a, '.sync-chip', OUTBOX_MSG.pending(2)).waitFor(SEEN)
    await shot(a, '95-offline-detail-pending')
    await on(a, '.marker-detail .draggable-panel__close').click()
    await a.locator('.marker-detail').waitFor({ state: 'hidden' })
    await shot(a, '96-offline-map-pending')
    await a
      .locator('.map-point--pending')
      .first()
      .waitFor({ state: 'attached', ...SEEN })
  })

  it('the chip opens the outbox sheet listing what waits', async () => {
    await on(a, '.sync-chip', OUTBOX_MSG.pending(2)).click()
    await on(a, '.outbox-item__kind', exact('新建标注')).waitFor(SEEN)
    await on(a, '.outbox-item__kind', exact('新建备注')).waitFor()
    await on(a, '.outbox-item__subject', '山口新井').first().waitFor()
    await shot(a, '97-offline-outbox-sheet')
    // Nothing in the sheet runs past a 390 px phone.
    const widths = await a.locator('.outbox-item:visible').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().right))
    for (const right of widths) expect(right).toBeLessThanOrEqual(390)
    await closePopup(a, '.outbox-sheet')
  })

  it('reloaded while still offline, the app, the map and both waiting saves are still there', async () => {
    await a.reload()
    await on(a, '.sync-chip', OUTBOX_MSG.pending(2)).waitFor(SEEN)
    await held(a, 2)
    await a
      .locator('.map-point--pending')
      .first()
      .waitFor({ state: 'attached', ...SEEN })
    await shot(a, '97b-offline-reloaded')
    await on(a, '.sync-chip', OUTBOX_MSG.pending(2)).click()
    await on(a, '.outbox-item__subject', '山口新井').first().waitFor(SEEN)
    await closePopup(a, '.outbox-sheet')
  })

  it('back online, they reach the server once and 李四 sees them', async () => {
    await a.context().setOffline(false)
    await on(a, '.sync-chip', SYNC_MSG.synced).waitFor(SYNCED)
    const found = await api('/api/marker/search', { kw: '山口新井', pageindex: 1, pagesize: 10 })
    expect(found.list).toHaveLength(1)
    const notes = await api('/api/marker/note/getlist', { markerid: found.list[0].id })
    expect(notes).toHaveLength(1)
    expect(notes[0].content).toBe('水位正常，井盖完好')
    expect(notes[0].photos).toHaveLength(1)
    expect(notes[0].photos[0].startsWith('/')).toBe(true)
    await held(a, 2)
    expect(await a.locator('.map-point--pending').count()).toBe(0)
    await held(b, 2, SYNCED)
    await openDetailBySearch(b, '山口新井')
    await on(b, '.note__content', '水位正常，井盖完好').waitFor(SEEN)
    await shot(b, '98-offline-second-phone')
  })
})
