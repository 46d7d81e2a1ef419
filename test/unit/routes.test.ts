import { MAIN_PACKAGE_PAGES, ROUTES, backFallbackOf, findRoute, pageUrlOf, resolveRoute } from '../../src/router/routes'
import { appPages } from '../../src/router/packages'

// SPEC section 2, route by route: path -> access.
const SPEC_ROUTES: Record<string, 'public' | 'login' | 'none'> = {
  '/': 'none',
  '/login': 'public',
  '/reg': 'public',
  '/distribution/view': 'public',
  '/group': 'login',
  '/department': 'login',
  '/guide': 'login',
  '/guide/init': 'login',
  '/home': 'login',
  '/about': 'login',
  '/web': 'public',
  '/vip': 'login',
  '/logoff': 'login',
  '/myinfo': 'login',
  '/order': 'login',
  '/system/setting': 'login',
  '/index': 'login',
  '/route': 'login',
  '/route/add': 'login',
  '/map': 'login',
  '/addinfo': 'login',
  '/fields': 'login',
  '/oplog': 'login',
  '/task': 'login',
  '/task/add': 'login',
  '/share/view': 'public',
  '/share/management': 'login',
  '/redirect': 'login',
  '/warning': 'none',
}

describe('route table (SPEC 2)', () => {
  it('describes every SPEC route with its access', () => {
    for (const [path, access] of Object.entries(SPEC_ROUTES)) {
      expect(findRoute(path)).toMatchObject({ path, access })
    }
  })

  it('marks exactly login, reg, distribution view, share view and web view (and the warning page) as skipping the checks', () => {
    const skipping = ROUTES.filter((r) => r.skipChecks && r.path !== '/404')
      .map((r) => r.path)
      .sort()
    expect(skipping).toEqual(['/distribution/view', '/login', '/reg', '/share/view', '/warning', '/web'].sort())
  })

  it('matches /redirect/{path} to the hidden redirect helper', () => {
    expect(findRoute('/redirect/map')).toMatchObject({ path: '/redirect', hidden: true })
  })

  it('ignores query strings and trailing slashes when matching', () => {
    expect(findRoute('/map/?a=1')?.path).toBe('/map')
  })

  it('resolves a weapp page route to its SPEC route', () => {
    expect(resolveRoute('/pages/guide/init/index')?.path).toBe('/guide/init')
    expect(resolveRoute('/pages/map/index')?.path).toBe('/map')
  })

  it('maps SPEC paths to Taro pages, keeping the query, and unknown or unbuilt paths to the not-found page', () => {
    expect(pageUrlOf('/map?x=1')).toBe('/pages/map/index?x=1')
    expect(pageUrlOf('/index')).toBe('/pages/map/index')
    expect(pageUrlOf('/nowhere')).toBe('/pages/not-found/index')
  })

  it('carries the rest of a /redirect/{path} to the redirect page as ?path= (a page route has no room for it)', () => {
    expect(pageUrlOf('/redirect/share/view?id=abc')).toBe('/pages/redirect/index?path=%2Fshare%2Fview&id=abc')
    expect(pageUrlOf('/redirect')).toBe('/pages/redirect/index')
  })

  it('puts only map, login and share view in the weapp main package', () => {
    const { pages, subPackages } = appPages()
    expect(pages[0]).toBe('pages/map/index')
    for (const p of pages) expect(MAIN_PACKAGE_PAGES).toContain(p)
    const subPages = subPackages.flatMap((s) => s.pages.map((p) => `${s.root}/${p}`))
    expect(subPages).toEqual(expect.arrayContaining(['pages/guide/index', 'pages/guide/init/index', 'pages/home/index']))
    for (const p of subPages) expect(MAIN_PACKAGE_PAGES).not.toContain(p)
  })
})

describe('backFallbackOf', () => {
  it('goes to the list a page belongs to, else to the map', () => {
    expect(backFallbackOf('/task/add')).toBe('/task')
    expect(backFallbackOf('/route/add')).toBe('/route')
    expect(backFallbackOf('/system/setting')).toBe('/map')
    expect(backFallbackOf('/addinfo')).toBe('/map')
  })
})
