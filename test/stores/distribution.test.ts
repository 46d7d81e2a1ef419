/**
 * The distribution client (/reg and /distribution/view, public): DistributionStore's
 * registration (checked before any call), the promotion page's states (ready, 推广码无效, no code,
 * failed), the invitation link, copy, 立即使用 and the download page; and the login call carrying an
 * invitation's ?channel=.
 */
import type { DistributionView } from '../../types/distribution'
import { ErrCode } from '../../types/api'
import { ERRCODE } from '../../src/api/errors'
import { DIST_MSG } from '../../src/domain/distributionMessages'
import { MSG } from '../../src/domain/messages'
import '../../src/stores/distributionStores'
import { buildLogin, fail, makeRoot, ok } from '../support/fakes'

const VIEW: DistributionView = { code: 'ABCD2345', name: '王推广', company: '星火渠道', invite_path: '/login?channel=dist_ABCD2345', registered: 3, paid: 1, created_at: '2025-06-01T02:00:00.000Z' }
const texts = (root: { app: { notices: { text: string }[] } }) => root.app.notices.map((n) => n.text)
const bodies = (calls: { path: string; body: any }[], path: string) => calls.filter((c) => c.path === path).map(({ body: { header: _h, ...rest } }) => rest)
const FORM = { name: ' 王推广 ', phone: '13912340000', code: '123456', company: ' 星火渠道 ' }

describe('DistributionStore: /reg', () => {
  it('registers with the trimmed fields and answers the promotion page to go to', async () => {
    const { root, calls } = makeRoot({ '/api/user/distribution/register': () => ok(VIEW) })
    expect(await root.distribution.register(FORM)).toBe('/distribution/view?code=ABCD2345')
    expect(bodies(calls, '/api/user/distribution/register')).toEqual([{ name: '王推广', phone: '13912340000', code: '123456', company: '星火渠道' }])
    expect(root.distribution.view).toEqual(VIEW)
    expect(root.distribution.state).toBe('ready')
    expect(texts(root)).toContain(DIST_MSG.registered)
  })

  it.each([
    [{ ...FORM, name: '' }, DIST_MSG.nameRequired],
    [{ ...FORM, phone: '1234' }, MSG.phoneInvalid],
    [{ ...FORM, code: '' }, MSG.codeRequired],
    [{ ...FORM, company: '司'.repeat(41) }, DIST_MSG.companyTooLong(40)],
  ])('refuses %j before any call, with its message', async (form, message) => {
    const { root, calls } = makeRoot()
    expect(await root.distribution.register(form)).toBeNull()
    expect(calls).toHaveLength(0)
    expect(texts(root)).toEqual([message])
  })

  it("shows the server's refusal (a wrong code) and stays on the form", async () => {
    const { root } = makeRoot({ '/api/user/distribution/register': () => fail(ErrCode.CODE_INVALID, MSG.codeWrong) })
    expect(await root.distribution.register(FORM)).toBeNull()
    expect(texts(root)).toEqual([MSG.codeWrong])
    expect(root.distribution.view).toBeNull()
    expect(root.distribution.registering).toBe(false)
  })
})

describe('DistributionStore: /distribution/view', () => {
  it('loads the page of a code (any case) with the absolute invitation link and the download page', async () => {
    const { root, calls } = makeRoot({ '/api/user/distribution/view': () => ok(VIEW) })
    await root.distribution.open(' abcd2345 ')
    expect(bodies(calls, '/api/user/distribution/view')).toEqual([{ code: 'ABCD2345' }])
    expect(root.distribution.state).toBe('ready')
    expect(root.distribution.inviteLink).toBe('https://map.test/login?channel=dist_ABCD2345')
    expect(root.distribution.downloadLink).toBe('https://map.test/download')
  })

  it('says 推广码无效 for a code nobody holds, without a notice, and for a malformed one without a call', async () => {
    const { root, calls } = makeRoot({ '/api/user/distribution/view': () => fail(ERRCODE.NOT_FOUND, DIST_MSG.codeInvalid) })
    await root.distribution.open('ZZZZZZZZ')
    expect(root.distribution.state).toBe('invalid')
    expect(texts(root)).toEqual([])
    calls.length = 0
    await root.distribution.open('not-a-code')
    expect(root.distribution.state).toBe('invalid')
    expect(calls).toHaveLength(0)
  })

  it('has nothing to load without a code (the page leads to /reg)', async () => {
    const { root, calls } = makeRoot()
    await root.distribution.open(undefined)
    expect(root.distribution.state).toBe('missing')
    expect(calls).toHaveLength(0)
  })

  it('keeps the page while its counts reload, and reports a failed load to retry', async () => {
    let up = true
    const { root } = makeRoot({ '/api/user/distribution/view': () => (up ? ok(VIEW) : { status: 502, data: '' }) })
    await root.distribution.open('ABCD2345')
    up = false
    const again = root.distribution.reload()
    expect(root.distribution.state).toBe('ready')
    await again
    expect(root.distribution.state).toBe('failed')
    expect(root.distribution.error).toBe(MSG.systemError)
    up = true
    await root.distribution.reload()
    expect(root.distribution.state).toBe('ready')
  })

  it('copies the link, opens the invitation, and opens the download page (in /web where nothing else can)', async () => {
    const { root, copied, navigations } = makeRoot({ '/api/user/distribution/view': () => ok(VIEW) })
    await root.distribution.open('ABCD2345')
    expect(await root.distribution.copyLink()).toBe(true)
    expect(copied).toEqual(['https://map.test/login?channel=dist_ABCD2345'])
    expect(texts(root)).toContain(MSG.copyOk)
    root.distribution.useNow()
    expect(navigations.at(-1)).toEqual({ path: '/login?channel=dist_ABCD2345', mode: undefined })
    // The neutral (mini-program) platform opens no browser.
    await root.distribution.openDownload()
    expect(navigations.at(-1)?.path).toBe(`/web?url=${encodeURIComponent('https://map.test/download')}`)
    // Where the browser or the host app opens it, no page is pushed.
    const opened: string[] = []
    const browser = makeRoot(
      {},
      {
        openDownloadUrl: async (url) => {
          opened.push(url)
          return true
        },
      },
    )
    const before = browser.navigations.length
    await browser.root.distribution.openDownload()
    expect(opened).toEqual(['https://map.test/download'])
    expect(browser.navigations).toHaveLength(before)
  })
})

describe('DistributionStore: whose page it is', () => {
  it("shows the promoter's own page on the device that registered the code, also after a restart", async () => {
    const first = makeRoot({ '/api/user/distribution/register': () => ok(VIEW), '/api/user/distribution/view': () => ok(VIEW) })
    await first.root.distribution.register(FORM)
    expect(first.root.distribution.isOwn).toBe(true)
    const again = makeRoot({ '/api/user/distribution/view': () => ok(VIEW) }, { storage: first.storage.dump() })
    await again.root.distribution.open('ABCD2345')
    expect(again.root.distribution.isOwn).toBe(true)
    // Logging out of the app does not make the promoter a stranger to their page.
    again.root.distribution.reset()
    await again.root.distribution.open('ABCD2345')
    expect(again.root.distribution.isOwn).toBe(true)
  })

  it('shows the invitation to anyone else (another device, or another code on this one)', async () => {
    const other: DistributionView = { ...VIEW, code: 'WXYZ2345', invite_path: '/login?channel=dist_WXYZ2345' }
    const stranger = makeRoot({ '/api/user/distribution/view': () => ok(VIEW) })
    await stranger.root.distribution.open('ABCD2345')
    expect(stranger.root.distribution.isOwn).toBe(false)
    const promoter = makeRoot({ '/api/user/distribution/register': () => ok(VIEW), '/api/user/distribution/view': () => ok(other) })
    await promoter.root.distribution.register(FORM)
    await promoter.root.distribution.open('WXYZ2345')
    expect(promoter.root.distribution.isOwn).toBe(false)
    // Whatever else sits in storage is not taken for a code.
    const junk = makeRoot({ '/api/user/distribution/view': () => ok(VIEW) }, { storage: { promoter_codes: '{"a":1' } })
    await junk.root.distribution.open('ABCD2345')
    expect(junk.root.distribution.isOwn).toBe(false)
  })

  it('enters the app plainly, without an invitation channel: the login, or the map when signed in', async () => {
    const { root, navigations } = makeRoot({ '/api/user/login': () => ok(buildLogin()) })
    root.distribution.enterApp()
    expect(navigations.at(-1)).toEqual({ path: '/login', mode: undefined })
    expect(await root.session.login('13800138000', '123456')).toBe(true)
    root.distribution.enterApp()
    expect(navigations.at(-1)?.path).toBe('/map')
  })
})

describe('login through an invitation (?channel=)', () => {
  it("sends the invitation's channel, else the device kind", async () => {
    const { root, calls } = makeRoot({ '/api/user/login': () => ok(buildLogin()) })
    expect(await root.session.login('13800138000', '123456', 'dist_ABCD2345')).toBe(true)
    expect(await root.session.login('13800138000', '123456')).toBe(true)
    expect(await root.session.login('13800138000', '123456', 'x'.repeat(65))).toBe(true)
    const channels = bodies(calls, '/api/user/login').map((b) => b.channel)
    expect(channels[0]).toBe('dist_ABCD2345')
    expect(channels[1]).toBe(root.platform.device.header())
    expect(channels[2]).toBe(root.platform.device.header())
  })
})
