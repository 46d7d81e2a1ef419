/**
 * The first user journey of the product on H5 in headless Chromium (mobile emulation) against the
 * real server: sign in with the code from the server's output, create the own map (7-day trial),
 * set the nickname, reach /map; log out and sign in again; a wrong code shows the server's
 * message; a desktop browser reaches /warning; unknown paths show the not-found page.
 */
import { MSG } from '../../src/domain/messages'
import { qrDataUrl } from '../../src/domain/qr'
import { DESKTOP_UA, button, closeTrialWelcome, input, openWorld, requestCode, signIn, shot, type Server, type World } from './harness'

jest.setTimeout(240_000)

let world: World
let server: Server

beforeAll(async () => {
  world = await openWorld()
  ;({ server } = world)
})

afterAll(() => world?.close())

const PHONE = '13800138000'

describe('H5 sign-in journey', () => {
  it('signs a new user in, creates their own map on a 7-day trial, sets the nickname and reaches /map', async () => {
    const page = await world.newPage()

    await page.goto(`${server.url}/map`)
    await page.waitForURL(/\/login\?redirect=/)
    await input(page, '请输入手机号').waitFor()
    await shot(page, '01-login')

    // A wrong code first: the server's message shows and nothing changes.
    const code = await requestCode(page, server, PHONE)
    const wrong = code === '000000' ? '111111' : '000000'
    await input(page, '请输入验证码').fill(wrong)
    await button(page, '登录').click()
    await page.getByText(MSG.codeWrong).waitFor()
    await shot(page, '02-login-wrong-code')
    expect(page.url()).toContain('/login')

    // The right code signs in; a new user has no group yet, so the guard opens the guide.
    await input(page, '请输入验证码').fill(code)
    await button(page, '登录').click()
    await page.waitForURL(/\/guide$/)
    await button(page, '创建我的地图').waitFor()
    await shot(page, '03-guide')
    // The invite field is a bordered input, not plain text.
    const field = await page.locator('.guide-code').evaluate((el) => {
      const css = getComputedStyle(el)
      return { style: css.borderBottomStyle, width: parseFloat(css.borderBottomWidth) }
    })
    expect(field.style).toBe('solid')
    expect(field.width).toBeGreaterThan(0)

    // Joining needs an invite code; an unknown one is refused with the server's message.
    await input(page, '邀请码或邀请链接').fill('NOPE42')
    await button(page, '加入团队').click()
    await page.getByText(MSG.inviteCodeInvalid).waitFor()

    await button(page, '创建我的地图').click()
    await page.waitForURL(/\/guide\/init$/)
    await input(page, '请输入昵称').waitFor()
    await shot(page, '04-init')

    // The nickname is required.
    await button(page, '完成').click()
    await page.getByText(MSG.nicknameRequired).waitFor()
    await input(page, '请输入昵称').fill('测绘小王')
    await button(page, '完成').click()
    await page.waitForURL(/\/map$/)
    // The map made before the nickname takes it.
    await page.getByText('测绘小王的地图').waitFor()
    await page.getByText('测绘小王', { exact: true }).waitFor()
    // A new trial map greets its administrator once.
    await closeTrialWelcome(page)
    await expect(page.getByText('试用版 · 剩余7天').count()).resolves.toBe(1)
    await page.locator('[data-testid=map-canvas]').waitFor()
    await shot(page, '05-map')

    // The stored user is encrypted: the phone number is not readable in localStorage.
    const stored = await page.evaluate(() => JSON.stringify(window.localStorage))
    expect(stored).not.toContain(PHONE)

    // Guide and init are for new users only: a set-up user is sent back to the map.
    await page.goto(`${server.url}/guide?from=test`)
    await page.waitForURL(/\/map\?from=test$/)

    // / and /index redirect to /map, keeping the query.
    await page.goto(`${server.url}/index?k=v`)
    await page.waitForURL(/\/map\?k=v$/)

    // Personal centre: name and logout.
    await page.goto(`${server.url}/home`)
    await page.getByText('测绘小王', { exact: true }).waitFor()
    await page.getByText('138****8000').waitFor()
    await shot(page, '06-home')
    await button(page, '退出登录').click()
    await page.getByText('确定退出当前账号吗？').waitFor()
    await shot(page, '07-logout-confirm')
    await button(page, '退出').click()
    await page.waitForURL(/\/login/)
    expect(await page.evaluate(() => window.localStorage.getItem('user_info'))).toBeFalsy()

    // After logout, the old session is gone: /map asks to sign in again.
    await page.goto(`${server.url}/map`)
    await page.waitForURL(/\/login\?redirect=/)

    // A second login goes straight to the map: the user already has a map and a nickname.
    await signIn(page, server, PHONE)
    await page.waitForURL(/\/map$/)
    await page.getByText('测绘小王', { exact: true }).waitFor()
    await page.context().close()
  })

  it('sends a desktop browser to the warning page, with a QR code of the page it opened', async () => {
    const page = await world.newPage({ ua: DESKTOP_UA })
    await page.goto(`${server.url}/guide?code=AB12`)
    await page.waitForURL(/\/warning\?from=%2Fguide%3Fcode%3DAB12$/)
    await page.getByText('请在手机上打开').waitFor()
    // The phone scans what the desktop browser was sent away from.
    const entry = `${server.url}/guide?code=AB12`
    await expect(page.locator('.warning-qr__url').innerText()).resolves.toBe(entry)
    const qr = page.locator('.warning-qr__image img')
    await qr.waitFor()
    await expect(qr.getAttribute('src')).resolves.toBe(qrDataUrl(entry, 5, 10))
    // The title leads; the developer's way on is small print.
    const size = (selector: string) => page.locator(selector).evaluate((el) => parseFloat(getComputedStyle(el).fontSize))
    expect(await size('.warning-title')).toBeGreaterThan(await size('.warning-dev__tip'))
    await shot(page, '08-warning-desktop')
    // A developer continues to the page they opened (which needs a session first).
    await button(page, '继续使用（开发者）').click()
    await page.waitForURL(/\/login\?redirect=%2Fguide%3Fcode%3DAB12$/)
    // The login page skips the device check.
    await page.goto(`${server.url}/login`)
    await input(page, '请输入手机号').waitFor()
    expect(page.url()).toMatch(/\/login$/)
    await page.context().close()
  })

  it('shows the not-found page for an unknown path', async () => {
    const page = await world.newPage()
    await page.goto(`${server.url}/no/such/page`)
    await page.getByText('您访问的页面不存在或已被移除').waitFor()
    await page.getByText('返回首页').waitFor()
    await shot(page, '09-not-found')
    await page.context().close()
  })

  it('answers an unknown API path with JSON, not the app', async () => {
    const res = await fetch(`${server.url}/api/no/such/call`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
    expect(res.status).toBe(404)
    expect(res.headers.get('content-type')).toContain('application/json')
  })
})
