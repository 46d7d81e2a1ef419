/** 导航: the place of a marker, a stop or a task, AMap's navigation address, and how H5 opens it (host app or browser). */
import { AMAP_NAVIGATION_BASE, NAV_NAME_MAX, amapNavigationUri, navName, navPlaceOf, navPlaceProblem } from '../../src/domain/directions'
import { markerAddress, markerNavPlace } from '../../src/domain/markerPlace'
import { DIRECTIONS_MSG } from '../../src/domain/directionsMessages'
import { decodeHostMessage, encodeHostMessage } from '../../src/domain/hostMessages'
import { browserDirections, type DirectionsWindow } from '../../src/platform/directions/browser'
import { buildField, buildMarker } from '../support/mapBuilders'

const TIANANMEN = { lng: 116.397428, lat: 39.90923, name: '天安门', address: '北京市东城区长安街' }

describe('AMap navigation address (URI API)', () => {
  it('navigates by car to the GCJ-02 place as stored, named, opening the AMap app when installed', () => {
    const url = new URL(amapNavigationUri(TIANANMEN))
    expect(`${url.origin}${url.pathname}`).toBe(AMAP_NAVIGATION_BASE)
    expect(url.searchParams.get('to')).toBe('116.397428,39.909230,天安门')
    expect(url.searchParams.get('mode')).toBe('car')
    // gaode: the coordinates are GCJ-02, AMap shifts nothing
    expect(url.searchParams.get('coordinate')).toBe('gaode')
    expect(url.searchParams.get('callnative')).toBe('1')
    expect(url.searchParams.get('src')).toBeTruthy()
    // no start: AMap starts from where the phone is
    expect(url.searchParams.has('from')).toBe(false)
  })

  it('is the exact address of the URI API for a plain name', () => {
    expect(amapNavigationUri({ lng: 121.4737, lat: 31.2304, name: 'A1' })).toBe('https://uri.amap.com/navigation?to=121.473700,31.230400,A1&mode=car&coordinate=gaode&callnative=1&src=teammap')
  })

  it('keeps a name with commas, ampersands and line breaks inside the `to` parameter', () => {
    const url = new URL(amapNavigationUri({ lng: 116.4, lat: 39.9, name: '仓库,北门 & 装卸区\n2号' }))
    const to = url.searchParams.get('to')!.split(',')
    expect(to).toHaveLength(3)
    expect(to[2]).toBe('仓库，北门 & 装卸区 2号')
    expect(url.searchParams.get('mode')).toBe('car')
  })

  it('names a place without a name 目的地 and cuts a very long one', () => {
    expect(navName('  ')).toBe(DIRECTIONS_MSG.defaultName)
    expect(navName(null)).toBe(DIRECTIONS_MSG.defaultName)
    expect(navName('长'.repeat(100))).toHaveLength(NAV_NAME_MAX)
  })
})

describe('which places can be navigated to', () => {
  it('refuses a place without coordinates, at 0,0 or out of range', () => {
    expect(navPlaceProblem(null)).toBe(DIRECTIONS_MSG.noPlace)
    expect(navPlaceProblem({ lng: 0, lat: 0 })).toBe(DIRECTIONS_MSG.noPlace)
    expect(navPlaceProblem({ lng: Number.NaN, lat: 39.9 })).toBe(DIRECTIONS_MSG.noPlace)
    expect(navPlaceProblem({ lng: 200, lat: 39.9 })).toBe(DIRECTIONS_MSG.noPlace)
    expect(navPlaceProblem({ lng: 116.4, lat: 39.9 })).toBeNull()
  })

  it("takes a route stop's or a task's name and coordinates as they are", () => {
    expect(navPlaceOf({ name: '客户甲', lng: 116.31, lat: 39.98 })).toEqual({ name: '客户甲', lng: 116.31, lat: 39.98, address: '' })
    expect(navPlaceOf(null)).toBeNull()
    expect(navPlaceOf({ name: '坏点', lng: 0, lat: 0 })).toBeNull()
  })
})

describe("a marker's place", () => {
  it('is a point marker’s own position, with its name', () => {
    expect(markerNavPlace(buildMarker({ type: 0, name: '网点A', points: '116.3974280,39.9092300' }))).toEqual({ lng: 116.397428, lat: 39.90923, name: '网点A', address: '' })
  })

  it("is a line's middle along its length, not the middle of its bounds", () => {
    // an L-shaped line: 0.02 east then 0.02 north; halfway along is the corner
    const p = markerNavPlace(buildMarker({ type: 1, points: '116.30,39.90|116.32,39.90|116.32,39.92' }))!
    expect(p.lng).toBeCloseTo(116.32, 6)
    expect(p.lat).toBeCloseTo(39.9, 6)
  })

  it("is inside an area and at a circle's centre", () => {
    const square = markerNavPlace(buildMarker({ type: 3, points: '116.30,39.90|116.32,39.90|116.32,39.92|116.30,39.92' }))!
    expect(square.lng).toBeCloseTo(116.31, 6)
    expect(square.lat).toBeCloseTo(39.91, 6)
    expect(markerNavPlace(buildMarker({ type: 5, points: '116.5,40.1', radius: 300 }))).toMatchObject({ lng: 116.5, lat: 40.1 })
  })

  it('is none for a geometry that does not parse or lies at 0,0', () => {
    expect(markerNavPlace(buildMarker({ type: 0, points: 'abc' }))).toBeNull()
    expect(markerNavPlace(buildMarker({ type: 0, points: '0,0' }))).toBeNull()
  })

  it("carries the address from the layer's first filled text field named like an address", () => {
    const fields = [buildField({ id: 1, name: '电话', kind: 'phone' }), buildField({ id: 2, name: '备用地址', kind: 'text' }), buildField({ id: 3, name: '收货地址', kind: 'text' })]
    const m = buildMarker({ type: 0, points: '116.4,39.9', fields: { '1': '13800138000', '2': '  ', '3': '北京市朝阳区望京街1号' } })
    expect(markerAddress(m, fields)).toBe('北京市朝阳区望京街1号')
    expect(markerNavPlace(m, fields)?.address).toBe('北京市朝阳区望京街1号')
    // a number field named 地址编号 is not an address
    expect(markerAddress(buildMarker({ fields: { '9': 12 } }), [buildField({ id: 9, name: '地址编号', kind: 'number' })])).toBe('')
  })
})

function fakeWindow(opts: { host?: boolean; tab?: boolean } = {}) {
  const posted: string[] = []
  const opened: { url: string; target: string }[] = []
  const tab = { opener: {} as unknown }
  const win: DirectionsWindow = {
    open: (url, target) => {
      opened.push({ url, target })
      return opts.tab === false ? null : tab
    },
    location: { href: 'https://map.test/map' },
    ...(opts.host ? { TeamMapHost: { postMessage: (m: string) => void posted.push(m) } } : {}),
  }
  return { win, posted, opened, tab }
}

describe('opening navigation on H5', () => {
  it("inside the host app, sends open_url with AMap's navigation address and opens no tab", async () => {
    const { win, posted, opened } = fakeWindow({ host: true })
    const sent: unknown[] = []
    const directions = browserDirections(win, async () => ({ send: (type: string, data: unknown) => void sent.push({ type, data }) }) as never)
    await expect(directions.open(TIANANMEN)).resolves.toBe('opened')
    expect(sent).toEqual([{ type: 'open_url', data: { url: amapNavigationUri(TIANANMEN) } }])
    expect(opened).toEqual([])
    expect(posted).toEqual([])
  })

  it('inside the host app, the real bridge posts a version-1 open_url envelope the host can decode', async () => {
    const { win, posted } = fakeWindow({ host: true })
    const { HostBridge, createWindowHostTransport } = await import('../../src/platform/host/bridge')
    const bridge = new HostBridge(createWindowHostTransport(win), { setInterval: () => 0, clearInterval: () => undefined, setTimeout: () => 0, clearTimeout: () => undefined })
    await browserDirections(win, async () => bridge).open(TIANANMEN)
    expect(posted).toEqual([encodeHostMessage('open_url', { url: amapNavigationUri(TIANANMEN) })])
    expect(decodeHostMessage(posted[0])).toEqual({ v: 1, type: 'open_url', data: { url: amapNavigationUri(TIANANMEN) } })
  })

  it('says failed when the host bridge cannot be loaded or refuses the message', async () => {
    const { win } = fakeWindow({ host: true })
    await expect(browserDirections(win, () => Promise.reject(new Error('chunk'))).open(TIANANMEN)).resolves.toBe('failed')
    const refusing = {
      send: () => {
        throw new Error('gone')
      },
    }
    await expect(browserDirections(win, async () => refusing as never).open(TIANANMEN)).resolves.toBe('failed')
  })

  it('in a phone browser, opens the address in a new tab that gets no handle on the map page', async () => {
    const { win, opened, tab } = fakeWindow()
    await expect(browserDirections(win, () => Promise.reject(new Error('no host'))).open(TIANANMEN)).resolves.toBe('opened')
    expect(opened).toEqual([{ url: amapNavigationUri(TIANANMEN), target: '_blank' }])
    expect(tab.opener).toBeNull()
    expect(win.location.href).toBe('https://map.test/map')
  })

  it('in a browser that refuses a new tab, goes to the address in this one', async () => {
    const { win } = fakeWindow({ tab: false })
    await browserDirections(win, () => Promise.reject(new Error('no host'))).open(TIANANMEN)
    expect(win.location.href).toBe(amapNavigationUri(TIANANMEN))
  })
})
