import { APP_MSG } from '../../src/domain/appMessages'
import { clusterCountShown, withoutClusterCounts } from '../../src/domain/mapSettings'
import type { DrawList } from '../../src/domain/mapDraw'
import { M2_PER_HA, M2_PER_MU, formatArea, formatLength, isAreaUnit } from '../../src/domain/points'
import { hostOf, isWebUrl, redirectTarget, webTarget, WEB_URL_MAX } from '../../src/domain/web'
import { ROUTES } from '../../src/router/routes'

describe('/web accepts only http(s) addresses', () => {
  it('opens http and https addresses with a host', () => {
    expect(webTarget('https://example.com')).toEqual({ ok: true, url: 'https://example.com' })
    expect(webTarget('http://example.com:8080/a/b?c=1#d')).toEqual({ ok: true, url: 'http://example.com:8080/a/b?c=1#d' })
    expect(webTarget('HTTPS://Example.com/路径')).toEqual({ ok: true, url: 'HTTPS://Example.com/路径' })
    expect(isWebUrl('http://[::1]:3000/')).toBe(true)
    expect(isWebUrl('https://192.168.1.2/x')).toBe(true)
  })

  it('decodes a parameter encoded once (H5) or twice (mini-program page options), and no further', () => {
    const url = 'https://example.com/a?b=1&c=2'
    expect(webTarget(encodeURIComponent(url))).toEqual({ ok: true, url })
    expect(webTarget(encodeURIComponent(encodeURIComponent(url)))).toEqual({ ok: true, url })
    // A '%' that belongs to the address stays as it is.
    expect(webTarget('https://example.com/%E4%B8%AD')).toEqual({ ok: true, url: 'https://example.com/%E4%B8%AD' })
    expect(webTarget('  https://example.com  ')).toEqual({ ok: true, url: 'https://example.com' })
  })

  it.each([
    ['a missing parameter', undefined],
    ['an empty one', ''],
    ['javascript:', 'javascript:alert(1)'],
    ['an encoded javascript:', encodeURIComponent('javascript:alert(1)')],
    ['data:', 'data:text/html,<b>x</b>'],
    ['file:', 'file:///etc/passwd'],
    ['ftp:', 'ftp://example.com'],
    ['a scheme-relative address', '//example.com'],
    ['a bare host', 'example.com'],
    ['no host', 'https://'],
    ['no host before the path', 'https:///path'],
    ['credentials before the host', 'https://user@evil.example'],
    ['spaces', 'https://exa mple.com'],
    ['a control character', 'https://example.com/a\u0000b'],
    ['a bad port', 'https://example.com:port/'],
    ['an address over the length limit', 'https://example.com/' + 'a'.repeat(WEB_URL_MAX)],
    ['malformed percent-encoding', '%E0%A4%A'],
  ])('says 链接无效 for %s', (_label, param) => {
    expect(webTarget(param)).toEqual({ ok: false, message: '链接无效' })
    expect(APP_MSG.webUrlInvalid).toBe('链接无效')
  })

  it('names the host shown above the page', () => {
    expect(hostOf('https://www.example.com:8443/a?b')).toBe('www.example.com')
    expect(hostOf('not a url')).toBe('')
  })
})

describe('/redirect/{path} leads to the SPEC path, query kept', () => {
  it('opens the path after /redirect with its query', () => {
    expect(redirectTarget('/redirect/share/view', 'id=abc&x=1', ROUTES)).toEqual({ to: '/share/view?id=abc&x=1' })
    expect(redirectTarget('/redirect/vip', '', ROUTES)).toEqual({ to: '/vip' })
    expect(redirectTarget('/redirect/group/', '?code=K1', ROUTES)).toEqual({ to: '/group?code=K1' })
    expect(redirectTarget('/redirect//map', '', ROUTES)).toEqual({ to: '/map' })
  })

  it('follows aliases such as /index (the router sends them on to the map)', () => {
    expect(redirectTarget('/redirect/index', 'a=1', ROUTES)).toEqual({ to: '/index?a=1' })
  })

  it('opens the map for /redirect alone', () => {
    expect(redirectTarget('/redirect', '', ROUTES)).toEqual({ to: '/map' })
    expect(redirectTarget('/redirect/', 'a=1', ROUTES)).toEqual({ to: '/map?a=1' })
  })

  it('sends unknown paths, screens not built yet and redirect loops to the not-found page', () => {
    expect(redirectTarget('/redirect/nowhere', 'a=1', ROUTES)).toEqual({ notFound: true })
    expect(redirectTarget('/redirect/share', '', ROUTES)).toEqual({ notFound: true })
    expect(redirectTarget('/redirect/redirect/map', '', ROUTES)).toEqual({ notFound: true })
    expect(redirectTarget('/redirect/x', '', [{ path: '/x', page: null }])).toEqual({ notFound: true })
    expect(redirectTarget('/redirect/x', '', [{ path: '/x', page: 'pages/x/index' }])).toEqual({ to: '/x' })
  })

  it('takes the path from `path=` where the address is the page route (mini-program)', () => {
    expect(redirectTarget('/pages/redirect/index', 'path=%2Fshare%2Fview&id=abc', ROUTES)).toEqual({ to: '/share/view?id=abc' })
    expect(redirectTarget('/pages/redirect/index', 'path=%252Fvip', ROUTES)).toEqual({ to: '/vip' })
    expect(redirectTarget('/pages/redirect/index', 'a=1', ROUTES)).toEqual({ to: '/map?a=1' })
    expect(redirectTarget('/pages/redirect/index', 'path=%2Fnowhere', ROUTES)).toEqual({ notFound: true })
  })
})

describe('areas in the unit the user chose', () => {
  it('keeps the default output: square metres, square kilometres from 1 km²', () => {
    expect(formatArea(3200)).toBe('3,200平方米')
    expect(formatArea(3200, 'm2')).toBe('3,200平方米')
    expect(formatArea(999_999.4)).toBe('999,999平方米')
    expect(formatArea(2_500_000)).toBe('2.50平方公里')
    expect(formatLength(856.4)).toBe('856米')
    expect(formatLength(1234)).toBe('1.23公里')
  })

  it('converts with 1 亩 = 666.67 m² and 1 公顷 = 10000 m²', () => {
    expect(M2_PER_MU).toBeCloseTo(666.67, 2)
    expect(M2_PER_HA).toBe(10_000)
    expect(formatArea(666.67, 'mu')).toBe('1.00亩')
    expect(formatArea(10_000, 'mu')).toBe('15.00亩')
    expect(formatArea(3200, 'mu')).toBe('4.80亩')
    expect(formatArea(10_000, 'ha')).toBe('1.00公顷')
    expect(formatArea(3200, 'ha')).toBe('0.32公顷')
  })

  it('groups thousands in mu and hectares too', () => {
    expect(formatArea(1_000_000_000, 'mu')).toBe('1,500,000.00亩')
    expect(formatArea(123_456_789, 'ha')).toBe('12,345.68公顷')
    expect(formatArea(0, 'mu')).toBe('0.00亩')
  })

  it('knows its units', () => {
    expect(['m2', 'mu', 'ha'].every(isAreaUnit)).toBe(true)
    expect(isAreaUnit('km2')).toBe(false)
    expect(isAreaUnit(null)).toBe(false)
  })
})

describe('cluster counts', () => {
  it('follow the user choice, else the system config', () => {
    expect(clusterCountShown(null, true)).toBe(true)
    expect(clusterCountShown(null, false)).toBe(false)
    expect(clusterCountShown(false, true)).toBe(false)
    expect(clusterCountShown(true, false)).toBe(true)
  })

  it('are blanked on every badge, keeping the same object for the same draw list', () => {
    const list: DrawList = {
      clusters: [{ key: 'a', clusterId: 1, level: 'low', lng: 116, lat: 39, count: 1500, label: '1.5k' }],
      points: [],
      shapes: [],
      heat: null,
      pointsInView: 1500,
    }
    const out = withoutClusterCounts(list)
    expect(out.clusters[0]).toMatchObject({ key: 'a', count: 1500, label: '' })
    expect(list.clusters[0].label).toBe('1.5k')
    expect(withoutClusterCounts(list)).toBe(out)
    const empty: DrawList = { ...list, clusters: [] }
    expect(withoutClusterCounts(empty)).toBe(empty)
  })
})
