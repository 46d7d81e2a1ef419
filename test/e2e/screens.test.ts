/**
 * The remaining screens against the real server: /about, /myinfo (nickname), /system/setting
 * (area unit kept on the phone), /web (an external page, a bad link refused), /redirect/{path}, the
 * upgrade prompt on Android (once a day), the location-permission dialog when location is refused, and
 * /logoff deleting an account after the warnings and a confirmation.
 */
import type { Page } from 'playwright-core'
import { apiCall, apiSignIn, button, input, notice, on, openWorld, requestCode, serveSite, shot, signUp, type Server, type World } from './harness'

jest.setTimeout(300_000)

let world: World
let server: Server
let page: Page

const PHONE = '13855550006'

beforeAll(async () => {
  // /web frames only the hosts the operator allows: here the test's own sites on this machine.
  world = await openWorld({ WEB_FRAME_HOSTS: 'http://127.0.0.1:*' })
  ;({ server } = world)
  page = await world.newPage()
  await signUp(page, server, PHONE, '周外勤')
})

afterAll(() => world?.close())

describe('the remaining screens', () => {
  it('/about names the app and its versions, and offers customer service', async () => {
    await page.goto(`${server.url}/about`)
    await on(page, '.about-brand', '团队地图').waitFor()
    await on(page, '.about-cells', '1.0.38').waitFor()
    await on(page, '.about-cells', '70').waitFor()
    await shot(page, '70-about')
    await on(page, '.about-service').click()
    await page.getByText('客服联系方式尚未配置').waitFor()
  })

  it('/myinfo changes the nickname, refusing an empty one, and the map shows the new name', async () => {
    await page.goto(`${server.url}/myinfo`)
    await on(page, '.myinfo-phone', '138****0006').waitFor()
    await on(page, '.myinfo-nickname').click()
    await input(page, '请输入昵称').fill('')
    await button(page, '保存').click()
    await notice(page, '请输入昵称').waitFor()
    await input(page, '请输入昵称').fill('周组长')
    await button(page, '保存').click()
    await on(page, '.myinfo-nickname', '周组长').waitFor()
    await shot(page, '71-myinfo')
    await page.goto(`${server.url}/map`)
    await on(page, '.map-nickname', '周组长').waitFor()
  })

  it('/system/setting keeps the chosen area unit on the phone', async () => {
    await page.goto(`${server.url}/system/setting`)
    // H5 has no navigation bar of its own: the page carries its title and a way back.
    await on(page, '.page-header__title', '设置').waitFor()
    await on(page, '.page-header__back').waitFor()
    // Every control says what it is for: the unit chips under their label. The keyless map's tiles are
    // chosen in the map's 地图样式 sheet (无底图 among them): no second 底图 switch here.
    await on(page, '.setting-area-unit .setting-label', '面积单位').waitFor()
    expect(await page.locator('.setting-style-bg').count()).toBe(0)
    await on(page, '.setting-area-unit .nut-radio', '亩').click()
    await on(page, '.setting-area-unit', /亩/).waitFor()
    await shot(page, '72-setting')
    await page.reload()
    await on(page, '.setting-area-unit .nut-radio-button-active', '亩').waitFor()
  })

  it('/web shows an external page with a way out to the browser, and refuses a link that is not http(s)', async () => {
    // The external page: a site of its own on this machine (the browser never leaves it).
    const site = await serveSite({ '/help': '<!doctype html><meta charset="utf-8"><h1>帮助中心</h1>' })
    try {
      await page.goto(`${server.url}/web?url=${encodeURIComponent(`${site.url}/help`)}`)
      await on(page, '.web-frame__host', '127.0.0.1').waitFor()
      await on(page, '.web-frame__open').waitFor()
      // shown inside the app: the operator allows this host (WEB_FRAME_HOSTS)
      await page.frameLocator('.web-frame__iframe').getByText('帮助中心').waitFor()
      await shot(page, '73-web')
    } finally {
      await site.close()
    }
    await page.goto(`${server.url}/web?url=${encodeURIComponent('javascript:alert(1)')}`)
    await page.getByText('链接无效').first().waitFor()
  })

  it('a slow call shows the loading mask, 加载中 with its spinner, and the page once it is answered', async () => {
    // Every call sets the loading indicator (SPEC 7), shown once a call has taken 300 ms.
    await page.route('**/api/layer/getlist', async (r) => {
      await new Promise((done) => setTimeout(done, 1500))
      await r.continue()
    })
    await page.goto(`${server.url}/map`)
    await on(page, '.loading-mask', '加载中').waitFor()
    const spinner = (await page.locator('.loading-mask .spinner').boundingBox())!
    expect(spinner.width).toBeGreaterThanOrEqual(20)
    await shot(page, '72b-loading-mask')
    await page.locator('.loading-mask').waitFor({ state: 'detached' })
    await page.unroute('**/api/layer/getlist')
  })

  it('/redirect/{path} lands on the path, query kept', async () => {
    await page.goto(`${server.url}/redirect/home?from=sms`)
    await page.waitForURL(/\/home\?from=sms$/)
    await on(page, '.home-nickname', '周组长').waitFor()
    // rows that open another page end in a chevron
    await on(page, '.home-setting .home-go__chevron').waitFor()
  })

  it('refused location shows 权限错误 with authorise and cancel, and the map stays usable', async () => {
    await page.context().clearPermissions()
    await page.goto(`${server.url}/map`)
    await on(page, '.map-tool', '定位').click()
    await page.getByText('权限错误').waitFor()
    await button(page, '去授权').waitFor()
    await shot(page, '75-location-permission')
    await button(page, '取消').click()
    await page.getByText('权限错误').waitFor({ state: 'hidden' })
    await on(page, '.map-tool', '图层').click()
    await on(page, '.layer-panel').first().waitFor()
  })

  it("draws NutUI's icons inline, at their size and in their colour, with no mask image to decode", async () => {
    await page.goto(`${server.url}/map`)
    await on(page, '.map-tool', '图层').waitFor()
    const icons = await page.locator('.map-page .nut-icon').evaluateAll((list) =>
      list.map((el) => {
        const css = getComputedStyle(el)
        const svg = el.querySelector('svg')
        const box = el.getBoundingClientRect()
        return {
          name: [...el.classList].find((c) => c.startsWith('nut-icon-')),
          mask: css.maskImage || css.getPropertyValue('-webkit-mask-image') || 'none',
          color: css.color,
          fill: svg ? getComputedStyle(svg.querySelector('path')!).fill : null,
          drawn: !!svg && svg.getBoundingClientRect().width === box.width && box.width > 0,
        }
      }),
    )
    const byName = new Map(icons.map((i) => [i.name, i]))
    expect([...byName.keys()]).toEqual(expect.arrayContaining(['nut-icon-Search', 'nut-icon-User', 'nut-icon-Location', 'nut-icon-Category', 'nut-icon-Plus']))
    for (const i of icons) {
      expect(i.mask).toBe('none')
      expect(i.drawn).toBe(true)
      expect(i.fill).toBe(i.color)
    }
    expect(byName.get('nut-icon-Location')!.color).toBe('rgb(22, 93, 255)')
    expect(byName.get('nut-icon-Plus')!.color).toBe('rgb(255, 255, 255)')
    expect(byName.get('nut-icon-Search')!.color).toBe('rgb(134, 144, 156)')
  })

  it("/login loads the map's code while the SMS code is awaited, and the sign-in then opens the map", async () => {
    const p = await world.newPage()
    await p.goto(`${server.url}/login`)
    await input(p, '请输入手机号').waitFor()
    // Leaflet puts itself on window as L; the map page's styles come with its code.
    const mapCodeIn = () =>
      p.evaluate(
        () =>
          'L' in window &&
          [...document.styleSheets].some((s) => {
            try {
              return [...s.cssRules].some((r) => r instanceof CSSStyleRule && r.selectorText.includes('.map-tools'))
            } catch {
              return false
            }
          }),
      )
    // Only asking for a code brings it: a visitor who just looks at the sign-in page does not pay for it.
    await p.waitForLoadState('networkidle')
    expect(await mapCodeIn()).toBe(false)
    const code = await requestCode(p, server, PHONE)
    await p.waitForFunction(() => 'L' in window)
    expect(await mapCodeIn()).toBe(true)
    await input(p, '请输入验证码').fill(code)
    await button(p, '登录').click()
    await p.waitForURL(/\/map$/)
    await on(p, '.map-tool', '图层').waitFor()
    await p.context().close()
  })

  it('an Android phone is told of a newer release once a day', async () => {
    server.sql(
      "INSERT INTO app_releases (platform, version_code, version_name, notes, download_url, created_at) VALUES ('android', 72, '1.0.40', ?, 'https://example.com/teammap-1.0.40.apk', ?)",
      '新增路线规划\n修复已知问题',
      new Date().toISOString(),
    )
    const p = await world.newPage()
    await p.goto(`${server.url}/login`)
    await p.getByText('发现新版本').waitFor()
    await p.getByText('1.0.40').first().waitFor()
    await p.getByText('新增路线规划').waitFor()
    await shot(p, '74-upgrade')
    await button(p, '稍后').click()
    await p.getByText('发现新版本').waitFor({ state: 'hidden' })
    await p.reload()
    await p.locator('input[placeholder="请输入手机号"]:visible').waitFor()
    expect(await p.getByText('发现新版本').count()).toBe(0)
    await p.context().close()
    // Later tests sign up new phones without this release in the way.
    server.sql('DELETE FROM app_releases')
  })

  it('/logoff deletes the account only after the warning is ticked and confirmed, then signs out', async () => {
    const phone = '13855550016'
    const p = await world.newPage()
    await signUp(p, server, phone, '郑临时')
    const before = await apiSignIn(server, phone)
    await apiCall(server, '/api/layer/save', { name: '临时图层', type: 1 }, before)
    await p.goto(`${server.url}/home`)
    await p.locator('.nut-cell:visible', { hasText: '注销账号' }).click()
    await p.waitForURL(/\/logoff$/)
    await p.getByText('删除后无法恢复，请先导出需要保留的数据').waitFor()
    // Nothing happens until the user says they understand.
    expect(await p.locator('.logoff-submit:visible').getAttribute('class')).toMatch(/disabled/)
    await p.locator('.logoff-submit:visible').click()
    expect(await p.getByText('确定注销吗').count()).toBe(0)
    await shot(p, '76-logoff')
    await p.getByText('我已了解注销后数据无法恢复').click()
    await p.locator('.logoff-submit:visible').click()
    await p.getByText('注销后账号及您创建的地图数据将被永久删除且无法恢复，确定注销吗？').waitFor()
    await button(p, '确认注销').click()
    await p.waitForURL(/\/login/)
    await p.locator('.notice-bar:visible', { hasText: '账号已注销' }).first().waitFor()
    // The old session is gone, and signing in again starts a new account without any map.
    expect((await apiCall(server, '/api/layer/getlist', {}, before)).header.errcode).not.toBe(0)
    const after = await apiSignIn(server, phone)
    expect(after.userid).not.toBe(before.userid)
    expect(after.groupid || 0).toBe(0)
    await p.context().close()
  })
})
