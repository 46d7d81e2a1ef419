/**
 * Distribution (SPEC 2 /reg "distribution register" and /distribution/view "distribution
 * view", both public) and the app download page (SPEC 1; GET /download on the API server) against
 * the real server: a promoter registers on /reg with an SMS code and lands on their own promotion page
 * (QR code, counts 0, 进入应用); another phone sees the invitation (who invites, 立即使用, no figures),
 * signs in through it, and the promoter's count becomes 1.
 */
import type { Page } from 'playwright-core'
import { button, input, on, openWorld, quiet, requestCode, shot, type Server, type World } from './harness'

jest.setTimeout(300_000)

const WECHAT_UA =
  'Mozilla/5.0 (Linux; Android 13; Redmi Note 12) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/111.0.5563.116 Mobile Safari/537.36 XWEB/1110017 MMWEBSDK/20231202 MicroMessenger/8.0.47.2560(0x28002F30) WeChat/arm64 Weixin NetType/WIFI Language/zh_CN ABI/arm64'

let world: World
let server: Server
let page: Page

const PROMOTER = '13955550001'
const INVITEE = '13955550002'
let code = ''

beforeAll(async () => {
  world = await openWorld()
  ;({ server } = world)
  page = await world.newPage()
})

afterAll(() => world?.close())

describe('distribution', () => {
  it('registers a promoter on /reg with an SMS code and lands on the promotion page with its QR code and counts 0', async () => {
    await page.goto(`${server.url}/reg`)
    await page.getByText('成为推广人').waitFor()
    // Checked before any call: the name is required.
    await button(page, '注册并获取推广码').click()
    await page.getByText('请填写姓名').waitFor()
    await input(page, '请输入姓名').fill('王推广')
    const sms = await requestCode(page, server, PROMOTER)
    await input(page, '请输入验证码').fill(sms)
    await input(page, '公司或团队名称（选填）').fill('星火渠道')
    await shot(page, '110-distribution-reg')
    await button(page, '注册并获取推广码').click()
    await page.waitForURL(/\/distribution\/view\?code=[A-Z0-9]{8}$/)
    code = new URL(page.url()).searchParams.get('code')!

    // The promoter's own page: headed as theirs, not with the invitee's wording.
    await on(page, '.dist-own-title', '我的推广页').waitFor()
    await on(page, '.dist-own-name', '王推广 · 星火渠道').waitFor()
    expect(await page.getByText('王推广 邀请您使用').count()).toBe(0)
    expect(await on(page, '.dist-use').count()).toBe(0)
    const link = `${server.url}/login?channel=dist_${code}`
    await on(page, '.dist-link').filter({ hasText: link }).waitFor()
    // The channel with the code stays on one line: the link never breaks inside the code.
    const codeLines = await on(page, '.dist-link__code').evaluate((el) => {
      const range = document.createRange()
      range.selectNodeContents(el)
      return { text: el.textContent, lines: new Set(Array.from(range.getClientRects()).map((r) => Math.round(r.top))).size }
    })
    expect(codeLines).toEqual({ text: `dist_${code}`, lines: 1 })
    // The QR code is drawn (a data-URL image with real size).
    const qr = on(page, '.dist-qr img, img.dist-qr').first()
    await qr.waitFor()
    expect(await qr.getAttribute('src')).toMatch(/^data:image\/gif;base64,/)
    expect(await qr.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(100)
    expect((await on(page, '.dist-registered').textContent())?.trim()).toBe('0')
    expect((await on(page, '.dist-paid').textContent())?.trim()).toBe('0')
    await page.getByText('注册人数').waitFor()
    await page.getByText('付费人数').waitFor()
    await quiet(page)
    await shot(page, '111-distribution-view')
    await on(page, '.dist-download').scrollIntoViewIfNeeded()
    await page.getByText('下载App', { exact: true }).first().waitFor()
    await shot(page, '112-distribution-view-bottom')
  })

  it('gives the same code back when the phone registers again', async () => {
    await page.goto(`${server.url}/reg`)
    await input(page, '请输入姓名').fill('另一个名字')
    await new Promise((r) => setTimeout(r, 1100))
    const sms = await requestCode(page, server, PROMOTER)
    await input(page, '请输入验证码').fill(sms)
    await button(page, '注册并获取推广码').click()
    await page.waitForURL(new RegExp(`/distribution/view\\?code=${code}$`))
    await on(page, '.dist-own-title', '我的推广页').waitFor()
  })

  it('signs a new phone in through the invitation (立即使用), and the count becomes 1', async () => {
    const p = await world.newPage()
    try {
      await p.goto(`${server.url}/distribution/view?code=${code}`)
      await p.getByText('王推广 邀请您使用').waitFor()
      // The invitation: who invites and how to join; the promoter's figures are not shown here.
      await on(p, '.dist-link').waitFor()
      expect(await on(p, '.dist-registered').count()).toBe(0)
      expect(await p.getByText('推广数据').count()).toBe(0)
      await shot(p, '111b-distribution-invitation')
      await button(p, '立即使用').click()
      await p.waitForURL(new RegExp(`/login\\?channel=dist_${code}$`))
      const sms = await requestCode(p, server, INVITEE)
      await input(p, '请输入验证码').fill(sms)
      await shot(p, '113-distribution-invite-login')
      await button(p, '登录').click()
      await p.waitForURL(/\/guide$/)
    } finally {
      await p.context().close()
    }

    await page.reload()
    await on(page, '.dist-registered')
      .filter({ hasText: /^\s*1\s*$/ })
      .waitFor()
    expect((await on(page, '.dist-paid').textContent())?.trim()).toBe('0')
    await shot(page, '114-distribution-view-count')
  })

  it('copies the invitation link', async () => {
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url })
    await button(page, '复制链接').click()
    await page.getByText('复制成功').waitFor()
    expect(await page.evaluate(() => navigator.clipboard.readText().catch(() => ''))).toBe(`${server.url}/login?channel=dist_${code}`)
  })

  it('shows 推广码无效 for an unknown code, and leads to /reg without one', async () => {
    await page.goto(`${server.url}/distribution/view?code=ZZZZZZZZ`)
    await page.getByText('推广码无效').waitFor()
    await shot(page, '115-distribution-invalid')
    // A plain way into the app, without an invitation's channel.
    await button(page, '进入应用').click()
    await page.waitForURL(/\/login$/)
    await page.goto(`${server.url}/distribution/view`)
    await page.getByText('请提供推广码').waitFor()
    await shot(page, '116-distribution-no-code')
    await button(page, '进入应用').waitFor()
    await button(page, '注册成为推广人').click()
    await page.waitForURL(/\/reg$/)
    await on(page, '.reg-title').waitFor()
  })

  it("enters the app from the promoter's own page", async () => {
    await page.goto(`${server.url}/distribution/view?code=${code}`)
    await on(page, '.dist-own-title', '我的推广页').waitFor()
    await button(page, '进入应用').click()
    await page.waitForURL(/\/login$/)
  })

  it('opens the download page from the promotion page', async () => {
    await page.goto(`${server.url}/distribution/view?code=${code}`)
    await button(page, '前往下载').click()
    await page.waitForURL(/\/download$/)
    await page.getByText('暂无可下载的版本').waitFor()
    await shot(page, '117-download-none')
  })
})

describe('the app download page', () => {
  it('lists the newest Android and HarmonyOS releases at mobile size', async () => {
    const at = new Date().toISOString()
    server.sql(
      'insert into app_releases (platform, version_code, version_name, notes, download_url, created_at) values (?, ?, ?, ?, ?, ?), (?, ?, ?, ?, ?, ?)',
      'android',
      72,
      '1.0.40',
      '新增任务中心\n签到支持水印相机\n修复已知问题',
      'https://dl.example.com/teammap-1.0.40.apk',
      at,
      'harmony',
      71,
      '1.0.39',
      '适配鸿蒙系统',
      'https://dl.example.com/teammap-1.0.39.hap',
      at,
    )
    await page.goto(`${server.url}/download`)
    expect(await page.title()).toBe('团队地图 App下载')
    await page.locator('h1', { hasText: '团队地图' }).waitFor()
    await page.getByText('版本 1.0.40').waitFor()
    await page.getByText('版本 1.0.39').waitFor()
    expect(await page.locator('a.button').evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href))).toEqual([
      'https://dl.example.com/teammap-1.0.40.apk',
      'https://dl.example.com/teammap-1.0.39.hap',
    ])
    // Fits the phone: nothing wider than the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
    await shot(page, '118-download')
  })

  it("covers the page inside WeChat with '请点击右上角「…」，选择在浏览器中打开'", async () => {
    const p = await world.newPage({ ua: WECHAT_UA })
    try {
      await p.goto(`${server.url}/download`)
      await p.getByText('请点击右上角「…」，选择在浏览器中打开').waitFor()
      await shot(p, '119-download-wechat')
    } finally {
      await p.context().close()
    }
  })
})
