/**
 * The share journey against the real server: a user shares one layer with a password
 * and an expiry from the share dialog; a fresh browser context (nobody signed in) opens the link,
 * sees the password prompt, fails with a wrong password, passes, and sees exactly the shared
 * markers with the allowed controls; the share is deleted on /share/management and the link dies.
 */
import type { Page } from 'playwright-core'
import {
  apiCall,
  apiSignIn,
  button,
  exact,
  expectTapTarget,
  failTiles,
  input,
  notice,
  on,
  openWorld,
  serveSite,
  shot,
  signUp,
  takeCspViolations,
  type ApiAuth,
  type Server,
  type World,
  drawnPoint,
  pointCount,
} from './harness'
import { shanghaiDate } from '../../src/domain/share'

jest.setTimeout(300_000)

let world: World
let server: Server
let owner: Page
let link = ''

const PHONE = '13833330003'

beforeAll(async () => {
  world = await openWorld()
  ;({ server } = world)
  owner = await world.newPage()
})

afterAll(() => world?.close())

const call = (path: string, body: Record<string, unknown>, auth: ApiAuth) => apiCall(server, path, body, auth)

describe('share links: dialog, password, public view, deletion', () => {
  it('the owner makes two layers with markers and shares one of them with a password and an expiry', async () => {
    await signUp(owner, server, PHONE, '赵分享')
    // Data through the API (the map-data journeys test the screens that make it).
    const auth = await apiSignIn(server, PHONE)
    const shared = await call('/api/layer/save', { name: '客户', type: 1 }, auth)
    const secret = await call('/api/layer/save', { name: '内部仓库', type: 1 }, auth)
    for (const [i, name] of ['张三门店', '李四门店', '王五门店'].entries()) {
      expect((await call('/api/marker/save', { layer_id: shared.data.id, type: 0, name, points: `116.${40 + i},39.90` }, auth)).header.errcode).toBe(0)
    }
    expect((await call('/api/marker/save', { layer_id: secret.data.id, type: 0, name: '不可见仓库', points: '116.45,39.95' }, auth)).header.errcode).toBe(0)

    await owner.goto(`${server.url}/map`)
    await on(owner, '.map-tool', '图层').click()
    await on(owner, '.layer-row', /客户/).locator('.layer-row__more').click()
    await on(owner, '.nut-actionsheet-item', exact('分享图层')).click()
    await on(owner, '.share-dialog .nut-popup-title-title', '图层数据分享').waitFor()
    expect(await input(owner, '请填写分享名称').inputValue()).toBe('客户_图层_分享')

    await on(owner, '.share-pwd-switch').click()
    await on(owner, '.share-exp-switch').click()
    await button(owner, '创建分享').click()
    // SPEC 5: the password is required once switched on.
    await owner.getByText('请输入分享密码').first().waitFor()
    await input(owner, '请输入分享密码').fill('8888')
    await button(owner, '创建分享').click()
    await owner.getByText('请设置过期时间').first().waitFor()
    await on(owner, '.share-exp').click()
    await on(owner, '.nut-picker-confirm-btn').first().waitFor()
    await shot(owner, '50a-share-exp-picker')
    await on(owner, '.nut-picker-confirm-btn').first().click()
    // The picker opened a week ahead: confirmed untouched, the link lasts seven days.
    await on(owner, '.share-exp', `${shanghaiDate(new Date(Date.now() + 7 * 86_400_000))} 当天有效`).waitFor()
    await shot(owner, '50-share-dialog')
    await button(owner, '创建分享').click()
    await on(owner, '.share-link').waitFor()
    link = (await on(owner, '.share-link').innerText()).trim()
    expect(link).toMatch(/\/share\/view\?id=[A-Za-z0-9_-]{10,}$/)
    await shot(owner, '51-share-created')
    await button(owner, '关闭').click()
  })

  it('a stranger opening the link is asked for the password, refused when wrong, and then sees exactly the shared markers', async () => {
    const page = await world.newPage()
    try {
      await page.goto(link.replace(/^https?:\/\/[^/]+/, server.url))
      await on(page, '.share-pwd__title', '客户_图层_分享').waitFor()
      await input(page, '请输入分享密码').fill('1111')
      await button(page, '查看').click()
      await on(page, '.share-pwd__error', '分享密码错误').waitFor()
      await shot(page, '52-share-password')
      await input(page, '请输入分享密码').fill('8888')
      await button(page, '查看').click()
      await on(page, '.share-head__count', '共3个标注').waitFor()
      // The viewer is told how long the link works, and whose app this is.
      await on(page, '.share-head__exp', `有效期至 ${shanghaiDate(new Date(Date.now() + 7 * 86_400_000))}`).waitFor()
      await on(page, '.share-head__brand', '团队地图').waitFor()
      // Exactly the shared layer's markers: the other layer's marker is not in the page at all.
      await drawnPoint(page)
      expect(await pointCount(page)).toBe(3)
      expect(await page.getByText('不可见仓库').count()).toBe(0)
      // Default mask 60: toolbox, refresh, toggle title and locate; no search box.
      await on(page, '.share-tool', '刷新').waitFor()
      await on(page, '.share-tool', '显示名称').waitFor()
      expect(await page.locator('.share-search').count()).toBe(0)
      await on(page, '.share-tool', '显示名称').click()
      await drawnPoint(page, { title: '张三门店' })
      await shot(page, '53-share-view')
    } finally {
      await page.context().close()
    }
  })

  it("the link's card: a lock for this password share, named in the og: tags chat apps read", async () => {
    const id = new URL(link).searchParams.get('id')!
    const html = await (await fetch(`${server.url}/share/view?id=${id}`)).text()
    expect(html).toContain('<meta property="og:title" content="客户_图层_分享">')
    expect(html).toContain(`<meta property="og:image" content="${server.url}/api/share/card/${id}.png">`)
    const page = await world.newPage()
    try {
      await page.goto(`${server.url}/api/share/card/${id}.png`)
      const size = await page.locator('img').evaluate((img) => [(img as HTMLImageElement).naturalWidth, (img as HTMLImageElement).naturalHeight])
      expect(size).toEqual([500, 400])
      await shot(page, '51b-share-card-locked')

      // Public shares' cards show their data: a layer share and a marker share of two of its markers.
      const auth = await apiSignIn(server, PHONE)
      const layer = (await call('/api/layer/getlist', {}, auth)).data.find((l: { name: string }) => l.name === '客户')
      const markers = (await call('/api/marker/getlist', { layer_ids: [layer.id], pageindex: 1, pagesize: 100 }, auth)).data.list as { id: number }[]
      const shares = [
        ['51c-share-card-layer', { name: '客户分布', type: 1, data_ids: [layer.id] }],
        ['51d-share-card-markers', { name: '两家门店', type: 2, data_ids: markers.slice(0, 2).map((m) => m.id) }],
      ] as const
      for (const [name, fields] of shares) {
        const made = await call('/api/share/save', { show_btn: 60, need_pwd: false, exp: null, ...fields }, auth)
        expect(made.header.errcode).toBe(0)
        await page.goto(`${server.url}/api/share/card/${made.data}.png`)
        expect(await page.locator('img').evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(500)
        await shot(page, name)
        // Gone again, so that share management below lists only the link under test.
        expect((await call('/api/share/delete', { id: made.data }, auth)).header.errcode).toBe(0)
      }
    } finally {
      await page.context().close()
    }
  })

  it('a viewer whose network blocks the map tiles is told once that the base map failed, and still sees the markers', async () => {
    const page = await world.newPage()
    try {
      await failTiles(page.context())
      await page.goto(link.replace(/^https?:\/\/[^/]+/, server.url))
      await input(page, '请输入分享密码').fill('8888')
      await button(page, '查看').click()
      await notice(page, '底图加载失败，标注仍可查看和编辑').waitFor()
      await drawnPoint(page)
      expect(await pointCount(page)).toBe(3)
      // Once, not once per failed tile.
      expect(await page.locator('.notice-bar:visible', { hasText: '底图加载失败' }).count()).toBe(1)
      await shot(page, '53b-share-view-no-tiles')
    } finally {
      await page.context().close()
    }
  })

  it("another site cannot frame the link: its password prompt does not show inside someone else's page", async () => {
    const shareUrl = link.replace(/^https?:\/\/[^/]+/, server.url)
    const site = await serveSite({ '/': `<!doctype html><title>别人的页面</title><iframe src="${shareUrl}" width="390" height="600" onload="document.body.dataset.framed = '1'"></iframe>` })
    const page = await world.newPage()
    try {
      const answered = page.waitForResponse((r) => r.url() === shareUrl)
      await page.goto(site.url)
      // The server answered the frame's request; the browser refused to show the answer there.
      expect((await answered).status()).toBe(200)
      await page.waitForFunction(() => document.body.dataset.framed === '1')
      const frame = page.frames().find((f) => f.parentFrame() === page.mainFrame())!
      expect(frame.url()).not.toContain('/share/view')
      expect(await frame.locator('#app').count()).toBe(0)
      expect(await page.getByText('客户_图层_分享').count()).toBe(0)
      expect(takeCspViolations()).toEqual([expect.stringContaining("frame-ancestors 'self'")])
      await shot(page, '52b-share-framed-elsewhere')
    } finally {
      await page.context().close()
      await site.close()
    }
  })

  it('deleting the share on /share/management kills the link at once', async () => {
    await owner.goto(`${server.url}/share/management`)
    await on(owner, '.share-item__name', '客户_图层_分享').waitFor()
    await on(owner, '.share-item__exp', /有效期至/).waitFor()
    await shot(owner, '54-share-management')
    await expectTapTarget(on(owner, '.share-item__copy'))
    await expectTapTarget(on(owner, '.share-item__delete'))
    await on(owner, '.share-item__delete').click()
    // Deleting cannot be taken back: the confirm button is red, not the blue of a go-ahead.
    const confirm = owner.locator('.dialog--destructive .nut-dialog-footer-ok')
    await confirm.waitFor()
    expect(await confirm.evaluate((el) => getComputedStyle(el).backgroundImage + getComputedStyle(el).backgroundColor)).toMatch(/245, 63, 63/)
    await shot(owner, '54b-share-delete-confirm')
    await button(owner, '删除').click()
    await owner.getByText('还没有分享').waitFor()

    const page = await world.newPage()
    try {
      await page.goto(link.replace(/^https?:\/\/[^/]+/, server.url))
      await on(page, '.share-blocked__title', '分享不存在或已被删除').waitFor()
      await shot(page, '55-share-deleted')
    } finally {
      await page.context().close()
    }
  })
})
