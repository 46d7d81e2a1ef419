import { guard, type GuardInput } from '../../src/domain/guard'
import { warningEntryPath } from '../../src/domain/desktop'
import { ROUTES, findRoute } from '../../src/router/routes'

const route = (path: string) => findRoute(path)
const newUser = { id: 1, select_groupid: 0, nickname: '' }
const noNickname = { id: 1, select_groupid: 9, nickname: '' }
const ready = { id: 1, select_groupid: 9, nickname: '小王' }
const at = (path: string, over: Partial<GuardInput> = {}): GuardInput => ({ route: route(path), user: ready, device: 'mobile', ...over })

describe('navigation guard (SPEC 2)', () => {
  it('lets a user with no id navigate unchanged to pages that need no session', () => {
    expect(guard(at('/warning', { user: null }))).toEqual({ action: 'allow' })
    expect(guard(at('/login', { user: null }))).toEqual({ action: 'allow' })
    expect(guard(at('/share/view', { user: { id: undefined } }))).toEqual({ action: 'allow' })
  })

  it('sends a user with no id who opens a login page to sign in, and back afterwards', () => {
    const d = guard(at('/map', { user: null, query: 'a=1' }))
    expect(d).toMatchObject({ action: 'redirect', reason: 'login-required' })
    expect(d.action === 'redirect' && decodeURIComponent(d.to)).toBe('/login?redirect=/map?a=1')
  })

  it('sends a logged-in user with no selected group to the guide page', () => {
    expect(guard(at('/map', { user: newUser }))).toEqual({ action: 'redirect', to: '/guide', reason: 'no-group' })
    expect(guard(at('/home', { user: newUser }))).toMatchObject({ to: '/guide' })
    expect(guard(at('/guide/init', { user: newUser }))).toMatchObject({ to: '/guide' })
    expect(guard(at('/guide', { user: newUser }))).toEqual({ action: 'allow' })
  })

  it('sends a user with a group but no nickname to the initialise-user page', () => {
    expect(guard(at('/map', { user: noNickname }))).toEqual({ action: 'redirect', to: '/guide/init', reason: 'no-nickname' })
    expect(guard(at('/guide', { user: noNickname }))).toMatchObject({ to: '/guide/init' })
    expect(guard(at('/guide/init', { user: noNickname }))).toEqual({ action: 'allow' })
  })

  it('sends a user with a group who opens the guide or init page to the map', () => {
    expect(guard(at('/guide', { user: ready }))).toEqual({ action: 'redirect', to: '/map', reason: 'already-set-up' })
    expect(guard(at('/guide/init', { user: ready }))).toEqual({ action: 'redirect', to: '/map', reason: 'already-set-up' })
    expect(guard(at('/map', { user: ready }))).toEqual({ action: 'allow' })
  })

  it('keeps query strings on redirects', () => {
    expect(guard(at('/map', { user: newUser, query: 'share=1&x=2' }))).toMatchObject({ to: '/guide?share=1&x=2' })
    expect(guard(at('/guide', { user: ready, query: '?from=menu' }))).toMatchObject({ to: '/map?from=menu' })
    expect(guard(at('/index', { query: 'k=v' }))).toMatchObject({ to: '/map?k=v', reason: 'alias' })
  })

  it('redirects / and /index to /map', () => {
    expect(guard(at('/'))).toMatchObject({ action: 'redirect', to: '/map' })
    expect(guard(at('/index'))).toMatchObject({ action: 'redirect', to: '/map' })
  })

  it('lets login, reg, distribution view, share view and web view skip the device and group checks', () => {
    for (const path of ['/login', '/reg', '/distribution/view', '/share/view', '/web']) {
      expect(guard(at(path, { user: newUser, device: 'desktop' }))).toEqual({ action: 'allow' })
      expect(guard(at(path, { user: null, device: 'unknown' }))).toEqual({ action: 'allow' })
    }
  })

  it('redirects desktop or unknown devices to the warning page, naming the page they opened', () => {
    expect(guard(at('/map', { device: 'desktop' }))).toEqual({ action: 'redirect', to: '/warning?from=%2Fmap', reason: 'device' })
    expect(guard(at('/home', { device: 'unknown', user: null }))).toMatchObject({ to: '/warning?from=%2Fhome' })
    expect(guard(at('/guide', { device: 'desktop', query: 'code=AB12' }))).toMatchObject({ to: '/warning?from=%2Fguide%3Fcode%3DAB12' })
    expect(guard(at('/warning', { device: 'desktop' }))).toEqual({ action: 'allow' })
  })

  it('lets a developer who chose to continue use a desktop browser', () => {
    expect(guard(at('/map', { device: 'desktop', allowDesktop: true }))).toEqual({ action: 'allow' })
    expect(guard(at('/map', { device: 'desktop', allowDesktop: true, user: newUser }))).toMatchObject({ to: '/guide' })
  })

  it('shows the not-found page for any other path', () => {
    expect(guard({ route: findRoute('/no/such/page'), user: ready, device: 'mobile' })).toEqual({ action: 'redirect', to: '/404', reason: 'not-found' })
  })

  it('has a decision for every SPEC route for every kind of user', () => {
    for (const r of ROUTES) {
      for (const user of [null, newUser, noNickname, ready]) {
        const d = guard({ route: r, user, device: 'mobile' })
        expect(['allow', 'redirect']).toContain(d.action)
      }
    }
  })
})

describe("warningEntryPath (what the desktop warning page's QR code opens)", () => {
  it('is the page the desktop browser was sent away from, query kept', () => {
    expect(warningEntryPath('%2Fguide%3Fcode%3DAB12')).toBe('/guide?code=AB12')
    expect(warningEntryPath('/map')).toBe('/map')
  })
  it('is the site root without a page or for anything but a path of this site', () => {
    for (const from of [undefined, '', 'map', '%2F%2Fevil.example', '//evil.example/x', '/\\evil.example', '%2F%5Cevil.example', 'https://evil.example/', '%E0%A4%A']) {
      expect(warningEntryPath(from)).toBe('/')
    }
  })
})
