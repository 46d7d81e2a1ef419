/** The keyless map's attribution: the data's and the tile provider's, never Leaflet's prefix. */
import { tileAttribution } from '../../src/platform/map/tileAttribution'

describe('tileAttribution', () => {
  it('should credit OpenStreetMap for the default OSM tiles', () => {
    expect(tileAttribution('https://tile.openstreetmap.org/{z}/{x}/{y}.png')).toBe('© OpenStreetMap')
    expect(tileAttribution('https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png')).toBe('© OpenStreetMap')
  })

  it('should never mention Leaflet', () => {
    for (const url of ['https://tile.openstreetmap.org/{z}/{x}/{y}.png', 'https://tiles.example.cn/{z}/{x}/{y}.png', '/tiles/{z}/{x}/{y}.png']) {
      expect(tileAttribution(url)).not.toMatch(/leaflet/i)
    }
  })

  it('should name another tile provider by its host when no attribution is configured', () => {
    expect(tileAttribution('https://{s}.tiles.example.cn:8443/{z}/{x}/{y}.png?key=k')).toBe('© tiles.example.cn')
    expect(tileAttribution('//maps.example.com/{z}/{x}/{y}.png')).toBe('© maps.example.com')
    expect(tileAttribution('https://webrd0{s}.is.autonavi.com/appmaptile?x={x}&y={y}&z={z}')).toBe('© is.autonavi.com')
  })

  it('should use the configured attribution (MAP_TILE_ATTRIBUTION) whatever the tiles', () => {
    expect(tileAttribution('https://tile.openstreetmap.org/{z}/{x}/{y}.png', ' © 天地图 ')).toBe('© 天地图')
    expect(tileAttribution('/tiles/{z}/{x}/{y}.png', '© 本地瓦片')).toBe('© 本地瓦片')
  })

  it('should show nothing for tiles of the app own server without a configured attribution', () => {
    expect(tileAttribution('/tiles/{z}/{x}/{y}.png')).toBe('')
  })

  it('should escape what Leaflet would read as HTML', () => {
    expect(tileAttribution('https://x.cn/{z}/{x}/{y}.png', '<img src=x onerror=alert(1)> & "co"')).toBe('&lt;img src=x onerror=alert(1)&gt; &amp; &quot;co&quot;')
  })
})
