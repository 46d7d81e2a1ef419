/** The image URL rule (src/domain/fileUrl.ts) and the system config checks built on it. */
import { isHttpsUrl, isLogoUrl, isOwnFileUrl } from '../../src/domain/fileUrl'
import { checkFieldValues, cleanStyle, styleIconProblem } from '../../src/domain/markers'
import { FILE_URL_MSG, SYSTEM_CONFIG_MSG } from '../../src/domain/systemMessages'
import { BRAND_MAX, SIGN_RADIUS_MAX, SIGN_RADIUS_MIN, checkBrand, checkLogo, checkServicePhone, checkServiceUrl, checkSignRadius } from '../../src/domain/systemConfig'
import { newStorageKey, urlOfKey } from '../../server/src/services/storage'
import type { LayerField } from '../../types/mapdata'

const OWN = '/files/12/0123456789abcdef0123456789abcdef.jpg'

describe('isOwnFileUrl', () => {
  it('accepts exactly what the upload call answers, for every image type it stores', () => {
    for (const extension of ['jpg', 'png', 'gif', 'webp']) expect(isOwnFileUrl(urlOfKey(newStorageKey(3, extension)))).toBe(true)
    expect(isOwnFileUrl(OWN)).toBe(true)
  })

  it.each([
    ['javascript:', 'javascript:alert(1)'],
    ['data:', 'data:image/png;base64,iVBORw0KGgo='],
    ['an outside https image', 'https://tracker.example.com/pixel.gif'],
    ['our path on another host', `https://tracker.example.com${OWN}`],
    ['a protocol-relative address', `//tracker.example.com${OWN}`],
    ['a made-up /files/ name', '/files/3/valve.png'],
    ['a path that climbs out', '/files/../../etc/passwd.png'],
    ['a query', `${OWN}?x=1`],
    ['a fragment', `${OWN}#x`],
    ['upper-case hex', '/files/12/0123456789ABCDEF0123456789ABCDEF.jpg'],
    ['an svg', '/files/12/0123456789abcdef0123456789abcdef.svg'],
    ['group 0', '/files/0/0123456789abcdef0123456789abcdef.jpg'],
    ['a space', ` ${OWN}`],
    ['an empty string', ''],
  ])('refuses %s', (_what, url) => {
    expect(isOwnFileUrl(url)).toBe(false)
  })

  it('refuses what is not a string', () => {
    for (const value of [undefined, null, 42, {}, [OWN]]) expect(isOwnFileUrl(value)).toBe(false)
  })
})

describe('isHttpsUrl and isLogoUrl', () => {
  it('takes https addresses with a host, a port, a path and a query', () => {
    for (const url of ['https://cdn.example.com/logo.png', 'https://example.com', 'https://a.b-c.example.cn:8443/x/y.png?v=2']) expect(isHttpsUrl(url)).toBe(true)
  })

  it.each([
    'http://cdn.example.com/logo.png',
    'javascript:alert(1)',
    'https://',
    'https://user:pw@example.com/logo.png',
    'https://example.com/a b.png',
    'https://example.com/"onerror="alert(1)',
    'https://example.com/<script>',
    `https://example.com/${'a'.repeat(600)}`,
    '//example.com/logo.png',
  ])('refuses %s', (url) => {
    expect(isHttpsUrl(url)).toBe(false)
  })

  it('takes an upload or an https address as the logo', () => {
    expect(isLogoUrl(OWN)).toBe(true)
    expect(isLogoUrl('https://cdn.example.com/logo.png')).toBe(true)
    expect(isLogoUrl('http://cdn.example.com/logo.png')).toBe(false)
  })
})

describe('marker icons and photo fields', () => {
  it('keeps an uploaded icon in the style and drops any other', () => {
    expect(cleanStyle({ icon: OWN })).toEqual({ icon: OWN })
    expect(cleanStyle({ icon: 'https://tracker.example.com/p.gif' })).toEqual({})
  })

  it('names an icon that is not an upload, and accepts none', () => {
    expect(styleIconProblem({ icon: 'javascript:alert(1)' })).toBe(FILE_URL_MSG.icon)
    expect(styleIconProblem({ icon: 'https://tracker.example.com/p.gif' })).toBe(FILE_URL_MSG.icon)
    for (const style of [{ icon: OWN }, { icon: '' }, { icon: null }, {}, undefined]) expect(styleIconProblem(style)).toBeNull()
  })

  it('refuses a photo value that is not an upload, naming the field', () => {
    const photo: LayerField = { id: 6, layer_id: 1, name: '现场照片', kind: 'photo', options: [], required: false, sort: 0, rev: 1 }
    expect(checkFieldValues([photo], { 6: [OWN] })).toEqual({ ok: true, values: { 6: [OWN] } })
    expect(checkFieldValues([photo], { 6: [OWN, 'https://tracker.example.com/p.gif'] })).toEqual({ ok: false, error: FILE_URL_MSG.fieldPhoto('现场照片') })
    expect(checkFieldValues([photo], { 6: 'javascript:alert(1)' })).toEqual({ ok: false, error: FILE_URL_MSG.fieldPhoto('现场照片') })
  })
})

describe('system config checks', () => {
  it('wants a brand of at most BRAND_MAX characters', () => {
    expect(checkBrand('勘察地图')).toBeNull()
    expect(checkBrand('  ')).toBe(SYSTEM_CONFIG_MSG.brandRequired)
    expect(checkBrand('图'.repeat(BRAND_MAX + 1))).toBe(SYSTEM_CONFIG_MSG.brandTooLong(BRAND_MAX))
  })

  it('wants a whole sign radius within the range', () => {
    for (const r of [SIGN_RADIUS_MIN, 300, SIGN_RADIUS_MAX]) expect(checkSignRadius(r)).toBeNull()
    for (const r of [SIGN_RADIUS_MIN - 1, SIGN_RADIUS_MAX + 1, 12.5, '300', NaN]) expect(checkSignRadius(r)).toBe(SYSTEM_CONFIG_MSG.signRadiusRange(SIGN_RADIUS_MIN, SIGN_RADIUS_MAX))
  })

  it('takes a service phone of digits and dashes and an https service link; empty removes either', () => {
    for (const p of ['', '400-800-1234', '010-12345678', '13800138000']) expect(checkServicePhone(p)).toBeNull()
    for (const p of ['400 800 1234', '+86 138', '400--800', '-400', 'tel:400', '1'.repeat(21)]) expect(checkServicePhone(p)).toBe(SYSTEM_CONFIG_MSG.servicePhoneInvalid)
    expect(checkServiceUrl('')).toBeNull()
    expect(checkServiceUrl('https://work.weixin.qq.com/kfid/kf001')).toBeNull()
    expect(checkServiceUrl('http://work.weixin.qq.com/kfid/kf001')).toBe(SYSTEM_CONFIG_MSG.serviceUrlInvalid)
    expect(checkServiceUrl('javascript:alert(1)')).toBe(SYSTEM_CONFIG_MSG.serviceUrlInvalid)
  })

  it('takes an upload, an https address or nothing as the logo', () => {
    expect(checkLogo('')).toBeNull()
    expect(checkLogo(OWN)).toBeNull()
    expect(checkLogo('https://cdn.example.com/logo.png')).toBeNull()
    expect(checkLogo('javascript:alert(1)')).toBe(FILE_URL_MSG.logo)
  })
})
