/**
 * The keyless map's attribution: only who provides the map data and tiles, never Leaflet's own
 * prefix (a link with a national flag, out of place in a Chinese product). Pure, so it is tested
 * without a browser; Leaflet shows the result as HTML, hence it is escaped here.
 */

const OSM = '© OpenStreetMap'

/** The attribution for a tile URL template; `configured` (MAP_TILE_ATTRIBUTION) wins when it is set. */
export function tileAttribution(tileUrl: string, configured = ''): string {
  if (configured.trim()) return escapeHtml(configured.trim())
  const host = tileHost(tileUrl)
  if (host === null) return ''
  if (host === 'openstreetmap.org' || host.endsWith('.openstreetmap.org')) return OSM
  return escapeHtml(`© ${host}`)
}

/**
 * The host a template loads tiles from, without a first label holding a placeholder (`{s}.`); null for a
 * template on the app's own server (relative) or one that is not a URL: that operator names the
 * provider with MAP_TILE_ATTRIBUTION.
 */
function tileHost(tileUrl: string): string | null {
  const m = /^(?:https?:)?\/\/([^/?#]+)/i.exec(tileUrl.trim())
  if (!m) return null
  const host = m[1]
    .replace(/^[^@]*@/, '')
    .replace(/^[a-z0-9-]*\{[^}]*\}[a-z0-9-]*\./i, '')
    .replace(/:\d+$/, '')
    .toLowerCase()
  return host && !host.includes('{') ? host : null
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)
}
