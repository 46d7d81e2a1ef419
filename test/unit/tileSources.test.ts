/** The keyless map's tile sources (地图样式 → 底图来源): which exist, where their tiles come from, and on which datum they are drawn. */
import { AMAP_TILE_URL, DEFAULT_TILE_SOURCE, isGcj02Tiles, isTileSourceId, tileSourceOf, tileSources } from '../../src/domain/tileSources'

const OSM_BUILD = { url: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png', attribution: '© OpenStreetMap' }

describe('tileSources', () => {
  it('should offer the build tiles, AMap tiles and no tiles, in that order, with Chinese names', () => {
    expect(tileSources(OSM_BUILD).map((s) => [s.id, s.label])).toEqual([
      ['osm', 'OpenStreetMap'],
      ['amap', '高德'],
      ['none', '无底图'],
    ])
  })

  it('should take the build tiles as they are configured, with their attribution', () => {
    const own = tileSources({ url: 'https://tiles.example.cn/{z}/{x}/{y}.png', attribution: '© 本单位' })[0]
    expect(own).toMatchObject({ id: 'osm', label: '默认底图', url: 'https://tiles.example.cn/{z}/{x}/{y}.png', attribution: '© 本单位', gcj02: false })
  })

  it("should load AMap's road tiles from its four hosts, credited in Chinese", () => {
    const amap = tileSourceOf('amap', OSM_BUILD)
    expect(amap.url).toBe('https://webrd0{s}.is.autonavi.com/appmaptile?lang=zh_cn&size=1&scale=1&style=8&x={x}&y={y}&z={z}')
    expect(amap.subdomains.split('').map((s) => amap.url.replace('{s}', s).split('/')[2])).toEqual([
      'webrd01.is.autonavi.com',
      'webrd02.is.autonavi.com',
      'webrd03.is.autonavi.com',
      'webrd04.is.autonavi.com',
    ])
    expect(amap.attribution).toBe('© 高德地图')
    expect(amap.maxNativeZoom).toBe(18)
  })

  it('should draw markers unshifted on AMap tiles (GCJ-02, as stored) and shifted to WGS-84 on OpenStreetMap', () => {
    expect(tileSourceOf('amap', OSM_BUILD).gcj02).toBe(true)
    expect(tileSourceOf('osm', OSM_BUILD).gcj02).toBe(false)
    // A build whose own tiles are AMap's is on GCJ-02 too.
    expect(tileSourceOf('osm', { url: AMAP_TILE_URL, attribution: '' }).gcj02).toBe(true)
  })

  it('should load nothing and credit nobody without tiles', () => {
    expect(tileSourceOf('none', OSM_BUILD)).toMatchObject({ url: '', attribution: '' })
  })

  it('should start from the build tiles and take them for a remembered value it does not know', () => {
    expect(DEFAULT_TILE_SOURCE).toBe('osm')
    for (const v of [null, undefined, '', 'google', 3]) expect(tileSourceOf(v, OSM_BUILD).id).toBe('osm')
    expect(isTileSourceId('amap')).toBe(true)
    expect(isTileSourceId('AMAP')).toBe(false)
  })
})

describe('isGcj02Tiles', () => {
  it.each([
    [AMAP_TILE_URL, true],
    ['https://webst0{s}.is.autonavi.com/appmaptile?style=6&x={x}&y={y}&z={z}', true],
    ['https://wprd0{s}.is.autonavi.com:443/appmaptile?x={x}&y={y}&z={z}', true],
    ['//tiles.amap.com/{z}/{x}/{y}.png', true],
    ['https://tile.openstreetmap.org/{z}/{x}/{y}.png', false],
    ['https://notamap.com/{z}/{x}/{y}.png', false],
    ['https://autonavi.com.example.cn/{z}/{x}/{y}.png', false],
    ['/tiles/{z}/{x}/{y}.png', false],
  ])('%s -> %s', (url, gcj02) => {
    expect(isGcj02Tiles(url)).toBe(gcj02)
  })
})
