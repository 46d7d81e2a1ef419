/**
 * The installable H5 app (config/pwa): the web app manifest, the list of files the service worker
 * keeps, and the worker itself, run in a sandbox with in-memory caches and a fake network: what it
 * keeps, what it answers without network, what it never keeps (/api/*, uploads), and how a new
 * build's worker replaces the old one's caches.
 */
import fs from 'node:fs'
import path from 'node:path'
import vm from 'node:vm'
import { MANIFEST_FILE, START_URL, SW_FILE, THEME_COLOR, buildVersion, precacheList, serviceWorkerSource, webManifest } from '../../config/pwa'

const BUILD_FILES = [
  'index.html',
  'js/app.1a2b3c4d.js',
  'js/runtime.5e6f7a8b.js',
  'js/pages-map-index.0a1b2c3d.js',
  'js/pages-addinfo-index.4d5e6f70.js',
  'js/pages-map-index.0a1b2c3d.js.LICENSE.txt',
  'js/app.1a2b3c4d.js.map',
  'css/app.11223344.css',
  'css/pages-map-index.55667788.css',
  'static/images/layers.2b3c4d5e.png',
  'pwa/icon-192.png',
  'pwa/icon-512.png',
  MANIFEST_FILE,
  SW_FILE,
]
const contents = (name: string) => `content of ${name}`

describe('the web app manifest', () => {
  it('names the app, starts on the map in its own window in the app colour, with 192 and 512 px icons', () => {
    const m = webManifest()
    expect(m.name).toBe('团队地图')
    expect(m.short_name).toBe('团队地图')
    expect(m.start_url).toBe('/map')
    expect(START_URL).toBe('/map')
    expect(m.display).toBe('standalone')
    expect(m.theme_color).toBe(THEME_COLOR)
    // index.html's theme-color and the manifest agree
    expect(fs.readFileSync(path.join(__dirname, '../../src/index.html'), 'utf8')).toContain(`<meta name="theme-color" content="${THEME_COLOR}">`)
    expect(m.icons.map((i) => `${i.sizes} ${i.purpose}`)).toEqual(['192x192 any', '192x192 maskable', '512x512 any', '512x512 maskable'])
  })

  it.each([192, 512])('its %i px icon is a PNG of that size', (size) => {
    const png = fs.readFileSync(path.join(__dirname, `../../src/assets/pwa/icon-${size}.png`))
    expect(png.subarray(1, 4).toString('ascii')).toBe('PNG')
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([size, size])
  })
})

describe('the files the worker keeps', () => {
  it('are every JS, CSS, image, the manifest and index.html of the build, not source maps, licence notes or the worker', () => {
    expect(precacheList(BUILD_FILES)).toEqual([
      'css/app.11223344.css',
      'css/pages-map-index.55667788.css',
      'index.html',
      'js/app.1a2b3c4d.js',
      'js/pages-addinfo-index.4d5e6f70.js',
      'js/pages-map-index.0a1b2c3d.js',
      'js/runtime.5e6f7a8b.js',
      MANIFEST_FILE,
      'pwa/icon-192.png',
      'pwa/icon-512.png',
      'static/images/layers.2b3c4d5e.png',
    ])
  })

  it('have a version that changes with any file and stays with the same build', () => {
    const list = precacheList(BUILD_FILES)
    expect(buildVersion(list, contents)).toBe(buildVersion([...list], contents))
    expect(buildVersion(list, (n) => (n === 'index.html' ? 'another page' : contents(n)))).not.toBe(buildVersion(list, contents))
  })
})

/** An in-memory Cache keyed by URL, in insertion order like the browser's. */
class FakeCache {
  entries = new Map<string, Response>()
  constructor(
    private readonly origin: string,
    private readonly network: (req: { url: string }) => Promise<Response>,
  ) {}
  private key(req: { url: string } | string): string {
    return new URL(typeof req === 'string' ? req : req.url, this.origin).href
  }
  async match(req: Request | string): Promise<Response | undefined> {
    return this.entries.get(this.key(req))?.clone()
  }
  async put(req: Request | string, res: Response): Promise<void> {
    this.entries.set(this.key(req), res)
  }
  async delete(req: Request | string): Promise<boolean> {
    return this.entries.delete(this.key(req))
  }
  async keys(): Promise<Request[]> {
    return [...this.entries.keys()].map((u) => new Request(u))
  }
  async addAll(reqs: Request[]): Promise<void> {
    const answers = await Promise.all(reqs.map((r) => this.network(r)))
    if (answers.some((a) => !a.ok)) throw new TypeError('addAll: a file failed')
    reqs.forEach((r, i) => this.entries.set(this.key(r), answers[i]))
  }
}

const ORIGIN = 'https://map.example.cn'
const TILE = 'https://tile.openstreetmap.org/12/3372/1552.png'

/** A phone's browser: one set of caches and a network that can go away, running the workers of builds. */
function browser() {
  const caches = new Map<string, FakeCache>()
  let online = true
  /** The server's files: those of the latest build started. */
  let served: (name: string) => string = contents
  const requests: string[] = []
  const network = async (input: { url: string } | string): Promise<Response> => {
    const req = typeof input === 'string' ? { url: input } : input
    requests.push(req.url)
    if (!online) throw new TypeError('Failed to fetch')
    const url = new URL(req.url)
    if (url.origin !== ORIGIN) return new Response(`tile ${url.pathname}`, { headers: { 'content-type': 'image/png' } })
    return new Response(served(url.pathname.slice(1)), { headers: { 'content-type': 'text/plain' } })
  }
  const cacheStorage = {
    open: async (name: string) => {
      if (!caches.has(name)) caches.set(name, new FakeCache(ORIGIN, network))
      return caches.get(name)!
    },
    keys: async () => [...caches.keys()],
    delete: async (name: string) => caches.delete(name),
  }

  /** Installs and activates the worker of a build with these file contents; returns how to send it requests. */
  async function start(files: string[], content: (n: string) => string = contents) {
    served = content
    const source = serviceWorkerSource(files, content)
    const listeners: Record<string, (e: any) => void> = {}
    let claimed = false
    const self: any = {
      location: new URL(`${ORIGIN}/sw.js`),
      addEventListener: (type: string, fn: (e: any) => void) => (listeners[type] = fn),
      clients: { claim: async () => void (claimed = true) },
    }
    self.self = self
    // A worker's Request resolves paths against its origin; Node's needs whole URLs.
    const WorkerRequest = class extends Request {
      constructor(input: string, init?: RequestInit) {
        super(new URL(input, ORIGIN), init)
      }
    }
    vm.runInNewContext(source, { self, caches: cacheStorage, fetch: network, Request: WorkerRequest, Response, URL, Set, Promise, Math, TypeError })
    const lifecycle = async (type: string) => {
      let done: Promise<unknown> = Promise.resolve()
      listeners[type]({ waitUntil: (p: Promise<unknown>) => (done = p) })
      await done
    }
    await lifecycle('install')
    await lifecycle('activate')
    /** What the worker answers: a response, or 'network' when it leaves the request to the browser. */
    const send = async (url: string, init: { method?: string; mode?: string; destination?: string } = {}): Promise<string | 'network'> => {
      const answered: { response?: Promise<Response> } = {}
      // What a FetchEvent's request tells the worker (Node's Request has no mode 'navigate' nor destination).
      const request = { url: new URL(url, ORIGIN).href, method: init.method ?? 'GET', mode: init.mode ?? 'cors', destination: init.destination ?? '' }
      const event = { request, respondWith: (p: Promise<Response>) => (answered.response = p) }
      listeners.fetch(event)
      if (!answered.response) return 'network'
      return (await answered.response).text()
    }
    return { send, claimed: () => claimed }
  }
  return {
    start,
    caches,
    requests,
    setOnline: (next: boolean) => void (online = next),
  }
}

describe('the service worker', () => {
  it('keeps every file of the build at install and takes the page that registered it', async () => {
    const b = browser()
    const sw = await b.start(BUILD_FILES)
    const shell = [...b.caches.keys()].find((n) => n.startsWith('teammap-shell-'))!
    expect([...b.caches.get(shell)!.entries.keys()].map((u) => u.slice(ORIGIN.length + 1)).sort()).toEqual(precacheList(BUILD_FILES))
    expect(sw.claimed()).toBe(true)
  })

  it('opens the app without network: every route gets the kept index.html, chunks and CSS come from the cache', async () => {
    const b = browser()
    const sw = await b.start(BUILD_FILES)
    b.setOnline(false)
    for (const route of ['/map', '/addinfo?lng=1&lat=2', '/', '/share/view?id=abc']) expect(await sw.send(route, { mode: 'navigate', destination: 'document' })).toBe('content of index.html')
    expect(await sw.send('/js/pages-addinfo-index.4d5e6f70.js', { destination: 'script' })).toBe('content of js/pages-addinfo-index.4d5e6f70.js')
    expect(await sw.send('/css/app.11223344.css', { destination: 'style' })).toBe('content of css/app.11223344.css')
  })

  it('never answers or keeps API calls, uploads, uploaded files or downloads', async () => {
    const b = browser()
    const sw = await b.start(BUILD_FILES)
    expect(await sw.send('/api/marker/getlist', { method: 'POST' })).toBe('network')
    expect(await sw.send('/api/file/upload', { method: 'POST' })).toBe('network')
    expect(await sw.send('/api/sync/socket')).toBe('network')
    expect(await sw.send('/files/3/photo.jpg', { destination: 'image' })).toBe('network')
    expect(await sw.send('/files/3/photo.jpg', { mode: 'navigate', destination: 'document' })).toBe('network')
    expect(await sw.send('/download', { mode: 'navigate', destination: 'document' })).toBe('network')
    const kept = [...b.caches.values()].flatMap((c) => [...c.entries.keys()])
    expect(kept.filter((u) => /\/(api|files|download)\b/.test(u))).toEqual([])
  })

  it('keeps the map tiles last seen, a bounded number, and shows them without network', async () => {
    const b = browser()
    const sw = await b.start(BUILD_FILES)
    expect(await sw.send(TILE, { destination: 'image' })).toBe('tile /12/3372/1552.png')
    for (let x = 0; x < 320; x++) await sw.send(`https://tile.openstreetmap.org/14/${x}/6000.png`, { destination: 'image' })
    const tiles = b.caches.get('teammap-tiles')!
    expect(tiles.entries.size).toBe(300)
    // the oldest went first
    expect(tiles.entries.has(TILE)).toBe(false)
    b.setOnline(false)
    expect(await sw.send('https://tile.openstreetmap.org/14/319/6000.png', { destination: 'image' })).toBe('tile /14/319/6000.png')
    await expect(sw.send(TILE, { destination: 'image' })).rejects.toThrow('Failed to fetch')
  })

  it("a new build's worker keeps its own files and deletes the older build's cache, leaving the tiles", async () => {
    const b = browser()
    const first = await b.start(BUILD_FILES)
    await first.send(TILE, { destination: 'image' })
    const next = [...BUILD_FILES.filter((f) => f !== 'js/pages-map-index.0a1b2c3d.js'), 'js/pages-map-index.99aa88bb.js']
    const second = await b.start(next, (n) => (n === 'index.html' ? 'the new page' : contents(n)))
    const shells = [...b.caches.keys()].filter((n) => n.startsWith('teammap-shell-'))
    expect(shells).toHaveLength(1)
    expect(b.caches.has('teammap-tiles')).toBe(true)
    b.setOnline(false)
    expect(await second.send('/map', { mode: 'navigate', destination: 'document' })).toBe('the new page')
    expect(await second.send('/js/pages-map-index.99aa88bb.js', { destination: 'script' })).toBe('content of js/pages-map-index.99aa88bb.js')
  })
})
