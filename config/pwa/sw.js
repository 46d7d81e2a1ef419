// The H5 app's service worker. config/pwa writes it into dist/h5/sw.js behind the build's facts
// (self.__TEAMMAP_BUILD__: a version and the build's files), so that the app opens without network.
// - install keeps every file of this build in a cache named after its version (all or nothing);
// - navigations to the app's routes (/map, /addinfo ... browser-history routes, all one page) get
//   the kept index.html: the page and its chunks always come from the same build, and open offline;
// - /api/*, uploaded files (/files/*) and downloads always go to the network and are never kept;
// - map tiles from the tile host: the network first, the last TILE_MAX seen kept for offline use;
// - a new build's worker installs beside the running one and takes over at the next start of the
//   app (no skipWaiting: a running page never mixes two builds' chunks); it then deletes the
//   older builds' caches.
const BUILD = self.__TEAMMAP_BUILD__
const SHELL_PREFIX = 'teammap-shell-'
const SHELL = SHELL_PREFIX + BUILD.version
const TILES = 'teammap-tiles'
/** About 5 MB of 256-px tiles: a few screens of the places last worked in. */
const TILE_MAX = 300
const NETWORK_ONLY = /^\/(api|files|download)(\/|$)/
const KEPT = new Set(BUILD.files.map((f) => '/' + f))
/** Tile hosts that refused a CORS request: their tiles pass through unkept (an opaque answer's size is unknown to the quota). */
const noCors = new Set()

self.addEventListener('install', (event) => {
  // 'reload': the files as the server has them now, not an older copy from the HTTP cache.
  event.waitUntil(caches.open(SHELL).then((cache) => cache.addAll([...KEPT].map((p) => new Request(p, { cache: 'reload' })))))
})

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((n) => n.startsWith(SHELL_PREFIX) && n !== SHELL).map((n) => caches.delete(n))))
      // The first install controls the page that registered it, so that page already works offline.
      .then(() => self.clients.claim()),
  )
})

self.addEventListener('fetch', (event) => {
  const request = event.request
  if (request.method !== 'GET') return
  const url = new URL(request.url)
  if (url.origin === self.location.origin) {
    if (NETWORK_ONLY.test(url.pathname)) return
    if (request.mode === 'navigate') event.respondWith(kept(KEPT.has(url.pathname) ? url.pathname : '/index.html', request))
    else if (KEPT.has(url.pathname)) event.respondWith(kept(url.pathname, request))
    return
  }
  if (request.destination === 'image') event.respondWith(tile(request, url))
})

/** A file of this build from its cache (the network if the cache lost it). */
function kept(path, request) {
  return caches
    .open(SHELL)
    .then((cache) => cache.match(path))
    .then((hit) => hit || fetch(request))
}

/** A map tile: fresh from the network and kept (the most recent TILE_MAX); the kept one without network. */
async function tile(request, url) {
  const cache = await caches.open(TILES)
  if (!noCors.has(url.origin)) {
    try {
      const response = await fetch(url.href, { mode: 'cors', credentials: 'omit' })
      if (response.ok) {
        await cache.delete(url.href) // put it last: the oldest are dropped first
        await cache.put(url.href, response.clone())
        await trim(cache)
      }
      return response
    } catch {
      // offline, or a host without CORS: a kept tile, else the page's own request below
    }
  }
  const hit = await cache.match(url.href)
  if (hit) return hit
  const response = await fetch(request)
  if (response.type === 'opaque') noCors.add(url.origin)
  return response
}

async function trim(cache) {
  const keys = await cache.keys()
  for (const key of keys.slice(0, Math.max(0, keys.length - TILE_MAX))) await cache.delete(key)
}
