/**
 * Reading the map without signal: the first start of the app loads online and saves a copy in the
 * offline storage; a second start sharing that storage, with the network off, shows the same layers,
 * markers, fields, notes, detail and search from it, resumes the live sync from the saved seq, makes
 * room when the storage is full, and logout forgets it.
 */
import { runInAction } from 'mobx'
import type { Layer, Marker } from '../../types/mapdata'
import type { SyncChangesRes } from '../../types/sync'
import { MSG } from '../../src/domain/messages'
import { OFFLINE_MSG } from '../../src/domain/offlineMessages'
import { OFFLINE_CHUNK_MARKERS, offlineGroupPrefix } from '../../src/domain/offline'
import { MARKER_COLUMNS_VERSION, decodeMarkerColumns } from '../../src/domain/markerColumns'
import { memoryOffline } from '../../src/platform/offline/memory'
import { buildLogin, makeRoot, ok, type Handler } from '../support/fakes'
import { buildField, buildLayer, buildMarker, buildNote } from '../support/mapBuilders'

const settle = async () => {
  for (let i = 0; i < 30; i++) await new Promise((r) => setImmediate(r))
}

const spots = buildLayer({ id: 1, name: '客户', type: 1, show: true, marker_count: 2 })
const wells = buildLayer({ id: 2, name: '水井', type: 1, show: true, marker_count: 1 })
const hidden = buildLayer({ id: 3, name: '旧数据', type: 1, show: false, marker_count: 0 })
const phone = buildField({ id: 11, layer_id: 1, name: '电话', kind: 'phone' })
const m1 = buildMarker({ id: 101, layer_id: 1, name: '东门客户', fields: { '11': '13900001111' }, rev: 2 })
const m2 = buildMarker({ id: 102, layer_id: 1, name: '西门客户', rev: 1 })
const w1 = buildMarker({ id: 201, layer_id: 2, name: '三号井', rev: 1 })
const note = buildNote({ id: 501, marker_id: 101, content: '门口有条大狗' })

interface Server {
  up: boolean
  seq: number
  sinceAsked: number[]
  layers: Layer[]
  markers: Marker[]
  feed: SyncChangesRes[]
}

function serverHandlers(server: Server): Record<string, Handler> {
  // No network: the transport itself fails (what Taro.request does with the phone offline).
  const net =
    (h: Handler): Handler =>
    (body) => {
      if (!server.up) throw new Error('request:fail')
      return h(body)
    }
  return {
    '/api/user/login': net(() => ok(buildLogin())),
    '/api/layer/getlist': net(() => ok(server.layers)),
    '/api/system/title/style/getlist': net(() => ok([{ id: 61, layer_id: 1, font_size: 18, color: '#F53F3F', bg_color: '#FFFFFF', padding: 4, border_weight: 1, border_color: '#F53F3F', rev: 1 }])),
    '/api/marker/getlist': net((body) => {
      const all = server.markers.filter((m) => body.layer_ids.includes(m.layer_id))
      return ok({ list: all.slice((body.pageindex - 1) * body.pagesize, body.pageindex * body.pagesize), total: all.length })
    }),
    '/api/marker/getbyid': net((body) => ok(server.markers.filter((m) => body.ids.includes(m.id)))),
    '/api/layer/field/getlist': net((body) => ok(body.layer_id === 1 ? [phone] : [])),
    '/api/marker/note/getlist': net((body) => ok(body.markerid === 101 ? [note] : [])),
    '/api/marker/search': net(() => ok({ list: [], total: 0 })),
    '/api/user/logout': net(() => ok(null)),
    '/api/layer/setting/show': net(() => ok(null)),
    '/api/sync/changes': net((body) => {
      server.sinceAsked.push(body.since)
      const res = server.feed.shift() ?? { seq: server.seq, changes: [], more: false, reload: false }
      return ok(res)
    }),
  }
}

function newServer(): Server {
  return { up: true, seq: 40, sinceAsked: [], layers: [spots, wells, hidden], markers: [m1, m2, w1], feed: [] }
}

/** One start of the app on this phone: the kept key-value storage and offline data carry over. */
function start(server: Server, phone: { kv: Record<string, string>; data: Map<string, string>; quotaBytes?: number }) {
  const offline = memoryOffline({ data: phone.data, quotaBytes: phone.quotaBytes, online: server.up })
  const made = makeRoot(serverHandlers(server), { storage: phone.kv, offline })
  return made
}

/** The first start: signs in, opens the map (layers, markers), a marker's detail (fields, notes), and lets the copy be written. */
async function firstStart(server: Server, phone: { kv: Record<string, string>; data: Map<string, string>; quotaBytes?: number }) {
  const made = start(server, phone)
  const { root } = made
  await root.session.login('13800138000', '123456')
  const sync = root.sync
  await root.layers.load()
  await root.markers.loadShown()
  await root.layers.loadTitleStyles()
  await root.markers.openDetail(101)
  await settle()
  await root.offlineCache.flush()
  Object.assign(phone.kv, made.storage.dump())
  return { ...made, sync }
}

/** The second start with the network off: the map page's loads. */
async function offlineStart(server: Server, phone: { kv: Record<string, string>; data: Map<string, string> }) {
  server.up = false
  const made = start(server, phone)
  const { root } = made
  root.offlineCache.serve()
  const layersOk = await root.layers.load()
  const markersOk = layersOk && (await root.markers.loadShown())
  return { ...made, layersOk, markersOk }
}

function newPhone() {
  return { kv: {} as Record<string, string>, data: new Map<string, string>() }
}

describe('Offline cache: a second start without network shows what the first saved', () => {
  it('shows the same layers and markers, with one notice of the saved copy and no 网络错误', async () => {
    const server = newServer()
    const phone = newPhone()
    const first = await firstStart(server, phone)
    first.root.dispose()

    const { root, layersOk, markersOk } = await offlineStart(server, phone)
    expect(root.session.loggedIn).toBe(true)
    expect(layersOk).toBe(true)
    expect(markersOk).toBe(true)
    expect(root.layers.layers.map((l) => l.name)).toEqual(['客户', '水井', '旧数据'])
    expect(root.markers.all.map((m) => m.name).sort()).toEqual(['三号井', '东门客户', '西门客户'])
    const texts = root.app.notices.map((n) => n.text)
    expect(texts.filter((t) => t.startsWith('网络不可用，地图显示的是本机保存的数据'))).toHaveLength(1)
    expect(texts.some((t) => t.includes('保存于'))).toBe(true)
    expect(texts).not.toContain(MSG.networkError)
  })

  it('opens a marker detail with its fields and notes, and searches names, notes and field values', async () => {
    const server = newServer()
    const phone = newPhone()
    ;(await firstStart(server, phone)).root.dispose()
    const { root } = await offlineStart(server, phone)

    expect(await root.markers.openDetail(101)).toBe(true)
    await settle()
    expect(root.markers.detail?.name).toBe('东门客户')
    expect(root.fields.fieldsOf(1).map((f) => f.name)).toEqual(['电话'])
    expect(root.notes.notesOf(101).map((n) => n.content)).toEqual(['门口有条大狗'])

    await root.markers.search('大狗')
    expect(root.markers.searchResults.map((m) => m.id)).toEqual([101])
    await root.markers.search('1390000')
    expect(root.markers.searchResults.map((m) => m.id)).toEqual([101])
    await root.markers.search('客户')
    expect(root.markers.searchResults.map((m) => m.id).sort()).toEqual([101, 102])
    expect(root.markers.searchTotal).toBe(2)
    await root.markers.search('井')
    expect(root.markers.searchResults.map((m) => m.name)).toEqual(['三号井'])
    expect(root.app.notices.map((n) => n.text)).not.toContain(MSG.networkError)
  })

  it("draws the layers' titles in their saved styles", async () => {
    const server = newServer()
    const phone = newPhone()
    ;(await firstStart(server, phone)).root.dispose()
    const { root } = await offlineStart(server, phone)
    await root.layers.loadTitleStyles()
    expect(root.layers.titleStyleFor(1).font_size).toBe(18)
    expect(root.app.notices.map((n) => n.text)).not.toContain(MSG.networkError)
  })

  it('a layer never saved still says 网络错误 when shown offline', async () => {
    const server = newServer()
    const phone = newPhone()
    ;(await firstStart(server, phone)).root.dispose()
    const { root } = await offlineStart(server, phone)
    expect(await root.markers.loadLayers([3])).toBe(false)
    expect(root.app.notices.map((n) => n.text)).toContain(MSG.networkError)
  })

  it('a load that fails with a network error while the device still says online is answered from the copy', async () => {
    const server = newServer()
    const phone = newPhone()
    ;(await firstStart(server, phone)).root.dispose()
    server.up = true
    const made = start(server, phone)
    made.root.offlineCache.serve()
    server.up = false
    expect(await made.root.layers.load()).toBe(true)
    expect(made.root.layers.layers).toHaveLength(3)
    expect(made.root.app.notices.map((n) => n.text)).not.toContain(MSG.networkError)
  })

  it('does not write back what the copy itself answered, so its time stays the time of the last online load', async () => {
    const server = newServer()
    const phone = newPhone()
    const first = await firstStart(server, phone)
    const savedAt = first.root.offlineCache.savedAt
    expect(savedAt).not.toBe('')
    first.root.dispose()
    const { root } = await offlineStart(server, phone)
    await settle()
    await root.offlineCache.flush()
    expect(root.offlineCache.savedAt).toBe(savedAt)
  })
})

describe('Offline cache: the live-sync seq across a restart', () => {
  it('saves the seq with the copy; the next start pulls only the changes since, and applies them to the saved markers', async () => {
    const server = newServer()
    const phone = newPhone()
    const first = await firstStart(server, phone)
    // The socket opens and says ready: the first pull takes the current seq.
    const conn = first.sockets.last()
    conn.open()
    conn.push({ type: 'ready', seq: 40 })
    await settle()
    await first.root.offlineCache.flush()
    expect(server.sinceAsked).toEqual([0])
    first.root.dispose()

    // Offline start; then the network comes back and a teammate's rename is in the log.
    const second = await offlineStart(server, phone)
    const renamed = { ...m2, name: '西门客户（已搬走）', rev: 2 }
    server.markers = [m1, renamed, w1]
    server.feed.push({ seq: 41, changes: [{ seq: 41, kind: 'marker', id: 102, op: 'upsert', rev: 2, layer_id: 1 }], more: false, reload: false })
    server.up = true
    second.offline.network.set(true)
    const sync = second.root.sync
    await settle()
    const conn2 = second.sockets.last()
    conn2.open()
    conn2.push({ type: 'ready', seq: 41 })
    await settle()
    expect(server.sinceAsked).toEqual([0, 40])
    expect(second.root.markers.find(102)?.name).toBe('西门客户（已搬走）')
    expect(sync.since).toBe(41)
    await second.root.offlineCache.flush()
    expect(second.offline.storage.dump()[`${offlineGroupPrefix(7, 3)}since`]).toBe(41)
  })

  it('asks for everything again when the server says the log no longer reaches the saved seq', async () => {
    const server = newServer()
    const phone = newPhone()
    const first = await firstStart(server, phone)
    first.sockets.last().open()
    first.sockets.last().push({ type: 'ready', seq: 40 })
    await settle()
    await first.root.offlineCache.flush()
    first.root.dispose()

    const second = await offlineStart(server, phone)
    server.markers = [m1, m2, w1, buildMarker({ id: 103, layer_id: 1, name: '北门客户' })]
    server.feed.push({ seq: 90, changes: [], more: false, reload: true })
    server.up = true
    second.offline.network.set(true)
    void second.root.sync
    await settle()
    second.sockets.last().open()
    second.sockets.last().push({ type: 'ready', seq: 90 })
    await settle()
    expect(server.sinceAsked).toEqual([0, 40])
    expect(second.root.markers.find(103)?.name).toBe('北门客户')
  })
})

describe('Offline cache: room', () => {
  /** Markers as a field team fills them: a name, a few field values, a point. */
  function realisticLayer(layerId: number, n: number): Marker[] {
    return Array.from({ length: n }, (_, i) =>
      buildMarker({
        id: layerId * 100000 + i,
        layer_id: layerId,
        name: `巡检点${i + 1}号 东城区`,
        points: `${(116.3 + (i % 100) * 0.001).toFixed(6)},${(39.9 + Math.floor(i / 100) * 0.001).toFixed(6)}`,
        fields: { '11': `1390000${String(i).padStart(4, '0')}`, '12': '正常', '13': i * 3 },
        style: { color: '#165DFF', size: 32 },
      }),
    )
  }

  /** The bytes the copy of one such layer of n markers takes in the storage, written by the store as it writes every copy. */
  async function layerBytes(n: number): Promise<number> {
    const server = newServer()
    server.layers = [spots]
    server.markers = realisticLayer(1, n)
    const phone = newPhone()
    const { root } = start(server, phone)
    await root.session.login('13800138000', '123456')
    void root.sync
    await root.layers.load()
    await root.markers.loadShown()
    await root.offlineCache.flush()
    const saved = [...phone.data].filter(([key]) => /markers:1(@|$)/.test(key))
    // The copy is there whole: a second start reads back every marker of it.
    expect(saved.length).toBe(1 + Math.ceil(n / OFFLINE_CHUNK_MARKERS))
    return saved.reduce((sum, [, raw]) => sum + raw.length, 0)
  }

  it("a 5,000-marker layer takes under 1 MB saved, its chunks in columns (the markers' own JSON took about 330 bytes a marker)", async () => {
    const bytes = await layerBytes(5000)
    // Printed for the report: the figure the budget of the mini-program (src/platform/offline/index.weapp.ts) is planned on.
    console.log(`a 5,000-marker layer saved: ${bytes} bytes (${(bytes / 1024 / 1024).toFixed(2)} MB, ${Math.round(bytes / 5000)} bytes a marker)`)
    expect(bytes).toBeLessThan(1024 * 1024)
  })

  it('when the storage is full, drops the least recently shown layer not pinned, says which, and keeps the pinned layer and the outbox', async () => {
    const server = newServer()
    const big = (layerId: number) => realisticLayer(layerId, 300)
    const parks = buildLayer({ id: 4, name: '公园', type: 1, show: false })
    const schools = buildLayer({ id: 5, name: '学校', type: 1, show: false })
    server.layers = [spots, wells, parks, schools]
    server.markers = [...big(1), ...big(2), ...big(4), ...big(5)]
    // Room for three and a half such layers: the fourth shown makes one go.
    const phone = { ...newPhone(), quotaBytes: Math.round(3.5 * (await layerBytes(300))) }
    phone.data.set('outbox:1', JSON.stringify({ kind: 'marker', name: '待同步的标注' }))
    const made = start(server, phone)
    const { root } = made
    await root.session.login('13800138000', '123456')
    void root.sync
    await root.layers.load()
    await root.markers.loadShown()
    await root.offlineCache.flush()
    // 客户 is kept for offline use whatever the room.
    await root.offlineCache.setPinned(1, true)
    expect(root.offlineCache.isPinned(1)).toBe(true)
    await root.offlineCache.flush()
    // Showing 公园 then 学校: 水井 (shown longest ago, not pinned) has to go for them.
    await root.layers.setShown(4, true)
    await root.offlineCache.flush()
    await root.layers.setShown(5, true)
    await root.offlineCache.flush()

    const keys = Array.from(phone.data.keys())
    const prefix = offlineGroupPrefix(7, 3)
    expect(keys).toContain(`${prefix}markers:1`)
    expect(keys).not.toContain(`${prefix}markers:2`)
    expect(keys).toContain(`${prefix}markers:5`)
    expect(keys).toContain('outbox:1')
    const texts = root.app.notices.map((n) => n.text)
    expect(texts).toContain(OFFLINE_MSG.dropped(['水井']))
  })

  it('says so when even the pinned layers do not fit', async () => {
    const server = newServer()
    server.markers = [...realisticLayer(1, 400)]
    server.layers = [spots]
    // Room for less than half of it.
    const phone = { ...newPhone(), quotaBytes: Math.round(0.45 * (await layerBytes(400))) }
    const made = start(server, phone)
    const { root } = made
    await root.session.login('13800138000', '123456')
    void root.sync
    await root.offlineCache.setPinned(1, true)
    await root.layers.load()
    await root.markers.loadShown()
    await root.offlineCache.flush()
    expect(root.app.notices.map((n) => n.text)).toContain(OFFLINE_MSG.pinnedTooBig(['客户']))
  })
})

describe('Offline cache: a large layer saved in chunks', () => {
  const many = (layerId: number, n: number, name = '巡检点') => Array.from({ length: n }, (_, i) => buildMarker({ id: layerId * 100000 + i, layer_id: layerId, name: `${name}${i + 1}` }))

  /** Offline storage whose writes stop answering (the app closed) after `writes` more values. */
  function closingAfter(data: Map<string, string>, writes: number) {
    const offline = memoryOffline({ data })
    const set = offline.storage.set
    let left = writes
    offline.storage.set = (key, value) => (left-- > 0 ? set(key, value) : new Promise<void>(() => undefined))
    return offline
  }

  it('an offline start shows every marker of a 12,000-marker layer, page by page, in the saved order', async () => {
    const server = newServer()
    server.layers = [spots]
    server.markers = many(1, 12000)
    const phone = newPhone()
    ;(await firstStart(server, phone)).root.dispose()
    const prefix = offlineGroupPrefix(7, 3)
    // The layer's record names its chunks, each a part of the list, not the list itself.
    expect(Array.from(phone.data.keys()).filter((k) => k.startsWith(`${prefix}markers:1@`))).toHaveLength(12000 / OFFLINE_CHUNK_MARKERS)

    const { root, markersOk } = await offlineStart(server, phone)
    expect(markersOk).toBe(true)
    expect(root.markers.all.map((m) => m.id)).toEqual(server.markers.map((m) => m.id))
  })

  it('reads back every field of every marker kept in columns, and still reads a copy kept before, as the markers themselves', async () => {
    const server = newServer()
    server.layers = [spots]
    server.markers = Array.from({ length: 2 * OFFLINE_CHUNK_MARKERS + 7 }, (_, i) =>
      buildMarker({
        id: 100000 + i * 3,
        layer_id: 1,
        name: `巡检点${i + 1}`,
        type: i % 7 === 0 ? 1 : 0,
        points: i % 7 === 0 ? '116.39,39.9|116.4,39.91' : `${(116.3 + i * 0.001).toFixed(6)},39.9`,
        style: i % 2 ? { color: '#165DFF', size: 32 } : { color: '#F53F3F' },
        fields: i % 3 ? { '11': `1390000${i}`, '13': i } : {},
        rev: 1 + (i % 4),
        ...(i % 5 === 0 ? { client_id: `c-${i}` } : {}),
      }),
    )
    const phone = newPhone()
    ;(await firstStart(server, phone)).root.dispose()
    const chunkKeys = Array.from(phone.data.keys()).filter((k) => k.startsWith(`${offlineGroupPrefix(7, 3)}markers:1@`))
    expect(chunkKeys).toHaveLength(3)
    // Kept in columns, not as the markers' own JSON.
    for (const key of chunkKeys) expect(JSON.parse(phone.data.get(key)!)).toMatchObject({ v: MARKER_COLUMNS_VERSION })
    const offline = await offlineStart(server, phone)
    expect(offline.markersOk).toBe(true)
    expect(offline.root.markers.all).toEqual(server.markers)
    offline.root.dispose()

    // The same copy as an earlier version of the app kept it: each chunk the markers' own array.
    for (const key of chunkKeys) phone.data.set(key, JSON.stringify(decodeMarkerColumns(JSON.parse(phone.data.get(key)!)).list))
    const before = await offlineStart(server, phone)
    expect(before.markersOk).toBe(true)
    expect(before.root.markers.all).toEqual(server.markers)
  })

  it('a copy cut short by the app closing is never read: the previous copy is shown whole', async () => {
    const server = newServer()
    server.layers = [spots]
    server.markers = many(1, 3000, '旧')
    const phone = newPhone()
    ;(await firstStart(server, phone)).root.dispose()

    // The next start loads newer markers; the app closes after two of the new copy's chunks.
    server.markers = many(1, 3000, '新')
    const made = makeRoot(serverHandlers(server), { storage: phone.kv, offline: closingAfter(phone.data, 2) })
    await made.root.layers.load()
    await made.root.markers.loadShown()
    void made.root.offlineCache.flush()
    await settle()
    made.root.dispose()

    const { root, markersOk } = await offlineStart(server, phone)
    expect(markersOk).toBe(true)
    const names = root.markers.all.map((m) => m.name)
    expect(names).toHaveLength(3000)
    expect(names.every((n) => n.startsWith('旧'))).toBe(true)
  })

  it('a first copy cut short is not taken for a saved layer: showing it offline says 网络错误', async () => {
    const server = newServer()
    server.layers = [spots]
    server.markers = many(1, 3000)
    const phone = newPhone()
    const made = makeRoot(serverHandlers(server), { storage: phone.kv, offline: closingAfter(phone.data, 2) })
    await made.root.session.login('13800138000', '123456')
    await made.root.layers.load()
    await made.root.markers.loadShown()
    void made.root.offlineCache.flush()
    await settle()
    Object.assign(phone.kv, made.storage.dump())
    made.root.dispose()

    server.up = false
    const again = start(server, phone)
    again.root.offlineCache.serve()
    runInAction(() => (again.root.layers.layers = [spots]))
    expect(await again.root.markers.loadLayers([1])).toBe(false)
    expect(again.root.app.notices.map((n) => n.text)).toContain(MSG.networkError)
  })

  it('a copy with a chunk that does not decode is not read: showing it offline says 网络错误 and shows none of it', async () => {
    const server = newServer()
    server.layers = [spots]
    server.markers = many(1, 2 * OFFLINE_CHUNK_MARKERS)
    const phone = newPhone()
    ;(await firstStart(server, phone)).root.dispose()
    const chunk = Array.from(phone.data.keys()).find((k) => k.startsWith(`${offlineGroupPrefix(7, 3)}markers:1@`))!
    phone.data.set(chunk, JSON.stringify({ ...JSON.parse(phone.data.get(chunk)!), v: MARKER_COLUMNS_VERSION + 1 }))

    server.up = false
    const again = start(server, phone)
    again.root.offlineCache.serve()
    runInAction(() => (again.root.layers.layers = [spots]))
    expect(await again.root.markers.loadLayers([1])).toBe(false)
    expect(again.root.markers.all).toEqual([])
    expect(again.root.app.notices.map((n) => n.text)).toContain(MSG.networkError)
  })

  it('a newer copy replaces the older one and leaves none of its chunks behind', async () => {
    const server = newServer()
    server.layers = [spots]
    server.markers = many(1, 2500, '旧')
    const phone = newPhone()
    const first = await firstStart(server, phone)
    server.markers = many(1, 1200, '新')
    await first.root.markers.loadLayers([1])
    await first.root.offlineCache.flush()
    first.root.dispose()
    const prefix = offlineGroupPrefix(7, 3)
    expect(Array.from(phone.data.keys()).filter((k) => k.startsWith(`${prefix}markers:1@`))).toHaveLength(Math.ceil(1200 / OFFLINE_CHUNK_MARKERS))

    const { root } = await offlineStart(server, phone)
    expect(root.markers.all.map((m) => m.name)).toEqual(server.markers.map((m) => m.name))
  })
})

describe('Offline cache: logout', () => {
  it('forgets the saved map data of the user, and not the outbox', async () => {
    const server = newServer()
    const phone = newPhone()
    phone.data.set('outbox:1', JSON.stringify({ kind: 'note' }))
    const first = await firstStart(server, phone)
    expect(Array.from(phone.data.keys()).some((k) => k.startsWith('map:7:'))).toBe(true)
    await first.root.session.logout()
    await settle()
    expect(Array.from(phone.data.keys())).toEqual(['outbox:1'])
  })

  it('an offline start keeps the user signed in and does not wait for the account', async () => {
    const server = newServer()
    const phone = newPhone()
    ;(await firstStart(server, phone)).root.dispose()
    const { root, calls } = await offlineStart(server, phone)
    expect(root.session.loggedIn).toBe(true)
    expect(calls.map((c) => c.path)).not.toContain('/api/user/getinfo')
  })
})
