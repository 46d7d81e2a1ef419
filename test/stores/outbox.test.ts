/**
 * The outbox in the stores: saves made without network are kept on the phone (and survive a restart),
 * shown at once, and sent once, in order, when the network returns; a conflict opens the sheet for
 * its item while the rest goes on; a refusal stays with the server's message; discard asks first.
 * A fake server that is idempotent by client_id, the memory offline platform, a hand-driven clock.
 */
import { runInAction } from 'mobx'
import type { Marker, MarkerInput, Note } from '../../types/mapdata'
import { ERRCODE } from '../../src/api/errors'
import { MSG } from '../../src/domain/messages'
import { OUTBOX_MSG } from '../../src/domain/outboxMessages'
import { isPendingMarker } from '../../src/domain/pendingLook'
import { memoryOffline, type MemoryOffline } from '../../src/platform/offline/memory'
import { manualScheduler } from '../support/manualScheduler'
import type { UploadTarget } from '../../src/platform/upload/types'
import { buildLogin, fail, makeRoot, ok, type Handler } from '../support/fakes'
import { buildField, buildLayer, buildMarker } from '../support/mapBuilders'

const settle = async () => {
  for (let i = 0; i < 30; i++) await new Promise((r) => setImmediate(r))
}

const NOW = '2026-11-26T08:00:00.000Z'

/** A server that answers a repeated client_id with the entity it made the first time. */
function fakeServer() {
  let seq = 100
  const markers = new Map<number, Marker & { client_id?: string }>([[1, buildMarker({ id: 1, layer_id: 1, name: '一号', rev: 1 })]])
  const notes = new Map<number, Note & { client_id?: string }>()
  const uploads: { path: string; target: UploadTarget }[] = []
  const byClient = new Map<string, number>()
  /** How many marker saves to come lose their answer on the way back (saved, then the network drops). */
  const lost = { answers: 0 }
  /** Answers given instead of saving, by marker name. */
  const refuse = new Map<string, ReturnType<typeof fail>>()
  /** A marker save's answer the test gives itself (the request hangs until then). */
  const held: { save: Promise<never> | null } = { save: null }
  const handlers: Record<string, Handler> = {
    '/api/layer/getlist': () => ok([buildLayer({ id: 1, name: '客户', type: 1, show: true, marker_count: markers.size })]),
    '/api/marker/getlist': () => ok({ list: Array.from(markers.values()), total: markers.size }),
    '/api/marker/getbyid': (b) => ok(b.ids.map((id: number) => markers.get(id)).filter(Boolean)),
    '/api/layer/field/getlist': () => ok([]),
    '/api/marker/save': (b: MarkerInput) => {
      if (held.save) return held.save
      if (refuse.has(b.name)) return refuse.get(b.name)!
      let saved: Marker & { client_id?: string }
      if (b.client_id && byClient.has(b.client_id)) saved = markers.get(byClient.get(b.client_id)!)!
      else if (b.id) {
        const cur = markers.get(b.id)!
        if (b.rev !== cur.rev) return { status: 200, data: { header: { errcode: ERRCODE.CONFLICT, errmsg: '该标注已被他人修改' }, data: cur } }
        saved = { ...cur, ...b, id: cur.id, rev: cur.rev + 1 } as Marker
        markers.set(saved.id, saved)
      } else {
        saved = buildMarker({ ...(b as Partial<Marker>), id: ++seq, rev: 1, created_at: NOW })
        saved.client_id = b.client_id
        markers.set(saved.id, saved)
        if (b.client_id) byClient.set(b.client_id, saved.id)
      }
      if (lost.answers > 0) {
        lost.answers--
        throw new Error('answer lost')
      }
      return ok(saved)
    },
    '/api/marker/delete': (b) => {
      markers.delete(b.id)
      return ok(null)
    },
    '/api/marker/note/save': (b) => {
      if (b.client_id && byClient.has(b.client_id)) return ok(notes.get(byClient.get(b.client_id)!))
      const n: Note = { id: ++seq, marker_id: b.marker_id, content: b.content, photos: b.photos, user_id: 7, user_name: '小王', rev: 1, created_at: NOW, updated_at: NOW }
      notes.set(n.id, n)
      if (b.client_id) byClient.set(b.client_id, n.id)
      return ok(n)
    },
    '/api/marker/note/getlist': (b) => ok(Array.from(notes.values()).filter((n) => n.marker_id === b.markerid)),
  }
  return { markers, notes, uploads, handlers, lost, refuse, held, down: { now: false } }
}

/** A signed-in phone on the map, with its offline platform (shared between two starts when given). */
async function phone(opts: { offline?: MemoryOffline; server?: ReturnType<typeof fakeServer>; startOffline?: boolean } = {}) {
  const server = opts.server ?? fakeServer()
  const clock = manualScheduler({ intervals: false })
  const offline = opts.offline ?? memoryOffline()
  // Every call fails like a dropped signal while the phone is offline (or the test cuts the line).
  const wired: Record<string, Handler> = {}
  const all: Record<string, Handler> = { '/api/user/login': () => ok(buildLogin()), ...server.handlers }
  for (const [path, h] of Object.entries(all)) {
    wired[path] = (body) => {
      if (!offline.network.online() || server.down.now) throw new Error('no signal')
      return h(body)
    }
  }
  const made = makeRoot(wired, {
    scheduler: clock.scheduler,
    offline,
    upload: {
      send: async (path, target) => {
        if (!offline.network.online()) throw new Error('offline')
        server.uploads.push({ path, target })
        return { url: `/uploads/${server.uploads.length}.jpg`, size_kb: 10, name: 'a.jpg' }
      },
    },
  })
  const { root } = made
  await root.session.login('13800138000', '123456')
  await root.layers.load()
  await root.markers.loadShown()
  // The map's field lists come with the layers the user opens.
  await root.fields.ensure(1)
  if (opts.startOffline) offline.network.set(false)
  const outbox = root.outbox
  await settle()
  made.calls.length = 0
  const writes = ['/api/marker/save', '/api/marker/delete', '/api/marker/note/save', '/api/marker/note/delete']
  /** The saves and deletes that reached the server. */
  const sent = () => made.calls.map((c) => c.path).filter((path) => writes.includes(path))
  return { ...made, server, clock, outbox, offline, sent }
}

const pointInput = (name: string, over: Partial<MarkerInput> = {}): MarkerInput => ({ layer_id: 1, name, type: 0, points: '116.4,39.9', ...over })

describe('OutboxStore: saving without network', () => {
  it('keeps a new point on the phone under a temp id, shows it in the layer at once, and says so instead of 网络错误', async () => {
    const p = await phone()
    p.offline.network.set(false)
    const m = await p.root.markers.save(pointInput('新点'))
    expect(m!.id).toBeLessThan(0)
    expect(p.root.markers.byLayer.get(1)!.map((x) => x.name)).toContain('新点')
    expect(p.root.layers.byId.get(1)!.marker_count).toBe(2)
    expect(p.root.app.notices.map((n) => n.text)).toContain(OUTBOX_MSG.savedOffline)
    expect(p.root.app.notices.map((n) => n.text)).not.toContain(MSG.networkError)
    expect(p.sent()).toEqual([])
    expect(p.outbox.count).toBe(1)
    expect(p.outbox.chipText).toBe('1条待同步')
    expect(Object.keys(p.offline.storage.dump())).toContain('outbox:7:3')
  })

  it('keeps a save whose request fails with a network error, and says so instead of 网络错误', async () => {
    const p = await phone()
    p.server.down.now = true
    const m = await p.root.markers.save(pointInput('地下室'))
    expect(m!.id).toBeLessThan(0)
    expect(p.outbox.count).toBe(1)
    expect(p.root.app.notices.map((n) => n.text)).toContain(OUTBOX_MSG.savedOffline)
    expect(p.root.app.notices.map((n) => n.text)).not.toContain(MSG.networkError)
    // The retry with backoff sends it once the line is back.
    p.server.down.now = false
    p.clock.advance(60_000)
    await settle()
    expect(Array.from(p.server.markers.values()).filter((x) => x.name === '地下室')).toHaveLength(1)
    expect(p.outbox.count).toBe(0)
  })

  it('sends the queue in order when the network returns, and the temp marker becomes the real one everywhere', async () => {
    const p = await phone()
    p.offline.network.set(false)
    const a = await p.root.markers.save(pointInput('甲'))
    await p.root.markers.save(pointInput('乙'))
    await p.root.markers.save({ ...pointInput('一号改'), id: 1, rev: 1 })
    // An edit of a queued create folds into the create: one save goes.
    await p.root.markers.save({ ...pointInput('甲改'), id: a!.id })
    p.root.markers.showDetail(p.root.markers.find(a!.id)!)
    expect(p.outbox.count).toBe(3)
    p.offline.network.set(true)
    await settle()
    expect(p.sent()).toEqual(['/api/marker/save', '/api/marker/save', '/api/marker/save'])
    const bodies = p.calls.filter((c) => c.path === '/api/marker/save').map((c) => c.body)
    expect(bodies.map((b) => b.name)).toEqual(['甲改', '乙', '一号改'])
    expect(bodies[0].client_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(bodies[2]).toMatchObject({ id: 1, rev: 1 })
    expect(p.outbox.count).toBe(0)
    const names = p.root.markers.byLayer.get(1)!.map((m) => `${m.id > 0 ? 'real' : 'temp'}:${m.name}`)
    expect(names.sort()).toEqual(['real:一号改', 'real:乙', 'real:甲改'])
    expect(p.root.markers.detail!.id).toBeGreaterThan(0)
    expect(p.root.layers.byId.get(1)!.marker_count).toBe(3)
    expect(p.server.markers.size).toBe(3)
  })

  it('sends the same client_id again when the answer was lost, and one marker results', async () => {
    const p = await phone()
    // The save and the first replay both reach the server, and both answers are lost.
    p.server.lost.answers = 2
    await p.root.markers.save(pointInput('山顶'))
    await settle()
    expect(p.outbox.count).toBe(1)
    p.clock.advance(60_000)
    await settle()
    const bodies = p.calls.filter((c) => c.path === '/api/marker/save').map((c) => c.body)
    expect(bodies).toHaveLength(3)
    expect(new Set(bodies.map((b) => b.client_id)).size).toBe(1)
    expect(Array.from(p.server.markers.values()).filter((m) => m.name === '山顶')).toHaveLength(1)
    expect(p.root.markers.byLayer.get(1)!.filter((m) => m.name === '山顶')).toHaveLength(1)
    expect(p.outbox.count).toBe(0)
  })

  it('shows one marker when the live-sync pull brings the queued create before its own answer', async () => {
    const p = await phone()
    // Every answer is lost: the server has the marker, the phone does not know its id.
    p.server.lost.answers = 99
    const temp = await p.root.markers.save(pointInput('坡顶'))
    await settle()
    const real = Array.from(p.server.markers.values()).find((m) => m.name === '坡顶')!
    await p.root.sync.apply([{ seq: 11, kind: 'marker', id: real.id, op: 'upsert', rev: real.rev, layer_id: 1 }])
    await settle()
    expect(
      p.root.markers.byLayer
        .get(1)!
        .filter((m) => m.name === '坡顶')
        .map((m) => m.id),
    ).toEqual([real.id])
    expect(p.root.markers.find(temp!.id)).toBeUndefined()
    expect(p.root.layers.byId.get(1)!.marker_count).toBe(2)
    expect(p.outbox.count).toBe(0)
  })

  it('opens the conflict sheet for a stale edit and goes on with the rest of the queue', async () => {
    const p = await phone()
    p.offline.network.set(false)
    await p.root.markers.save({ ...pointInput('我改的'), id: 1, rev: 1 }, p.root.markers.find(1))
    await p.root.markers.save(pointInput('后面的'))
    // A teammate saved marker 1 meanwhile.
    p.server.markers.set(1, { ...p.server.markers.get(1)!, name: '他改的', rev: 2 })
    p.offline.network.set(true)
    await settle()
    expect(p.root.sync.conflict).not.toBeNull()
    expect(p.root.sync.conflict!.kind).toBe('marker')
    expect(Array.from(p.server.markers.values()).map((m) => m.name)).toContain('后面的')
    expect(p.outbox.items.map((it) => it.status)).toEqual(['conflict'])
    // 保留我的: saved over the current rev, and the item leaves the outbox.
    await p.root.sync.keepMine()
    await settle()
    expect(p.server.markers.get(1)!.name).toBe('我改的')
    expect(p.outbox.count).toBe(0)
  })

  it('keeps a refused create with the server message, holds what depends on it, and sends the rest', async () => {
    const p = await phone()
    p.server.refuse.set('超额', fail(ERRCODE.LIMIT_REACHED, '标注数量已达上限'))
    p.offline.network.set(false)
    const over = await p.root.markers.save(pointInput('超额'))
    await p.root.notes.save({ marker_id: over!.id, content: '这里有井' })
    await p.root.markers.save(pointInput('正常'))
    p.offline.network.set(true)
    await settle()
    const refused = p.outbox.items.find((it) => it.status === 'refused')!
    expect(refused.error).toBe('标注数量已达上限')
    expect(p.outbox.statusOf(refused)).toBe(OUTBOX_MSG.statusRefused)
    expect(p.outbox.failedCount).toBe(1)
    expect(p.outbox.chipText).toBe('2条待同步 · 1条同步失败')
    expect(p.sent()).toEqual(['/api/marker/save', '/api/marker/save'])
    expect(Array.from(p.server.markers.values()).map((m) => m.name)).toContain('正常')
    expect(p.server.notes.size).toBe(0)
    // Still on the phone, pending, until the user resolves it.
    expect(p.root.markers.find(over!.id)).toBeDefined()
  })

  it('discards a queued create only after confirming, taking its marker and notes off the phone', async () => {
    const p = await phone()
    p.offline.network.set(false)
    const m = await p.root.markers.save(pointInput('草稿点'))
    await p.root.notes.save({ marker_id: m!.id, content: '记一笔' })
    const item = p.outbox.shown[0]
    p.outbox.askDiscard(item)
    expect(p.outbox.confirming).toBe(item)
    expect(p.outbox.discardText(item)).toBe(OUTBOX_MSG.discardCreate('草稿点'))
    p.outbox.askDiscard(null)
    expect(p.outbox.count).toBe(2)
    await p.outbox.discard(item)
    expect(p.outbox.count).toBe(0)
    expect(p.root.markers.find(m!.id)).toBeUndefined()
    expect(p.root.notes.notesOf(m!.id)).toEqual([])
    expect(p.root.layers.byId.get(1)!.marker_count).toBe(1)
    p.offline.network.set(true)
    await settle()
    expect(p.sent()).toEqual([])
  })

  it('uploads a note photo (with its own client_id) before the note, on the marker created first', async () => {
    const p = await phone()
    p.offline.network.set(false)
    const m = await p.root.markers.save(pointInput('水井'))
    const photo = await p.root.notes.uploadPhoto('blob:photo-1', (path, target) => p.root.notes.sendFile(path, target))
    expect(photo!.url.startsWith('kept:')).toBe(true)
    // Shown from the local file meanwhile; the form gives back the kept name.
    expect(p.root.notes.photoUrl(photo!.url)).toBe('blob:photo-1')
    expect(p.root.notes.serverUrl('blob:photo-1')).toBe(photo!.url)
    const note = await p.root.notes.save({ marker_id: m!.id, content: '水质好', photos: [photo!.url] })
    expect(note!.id).toBeLessThan(0)
    expect(p.root.notes.notesOf(m!.id).map((n) => n.content)).toEqual(['水质好'])
    expect(p.outbox.count).toBe(2)
    p.offline.network.set(true)
    await settle()
    expect(p.server.uploads).toHaveLength(1)
    expect(p.server.uploads[0].target.formData.client_id).toMatch(/^[0-9a-f-]{36}$/)
    const real = Array.from(p.server.markers.values()).find((x) => x.name === '水井')!
    const saved = Array.from(p.server.notes.values())
    expect(saved).toEqual([expect.objectContaining({ marker_id: real.id, content: '水质好', photos: ['/uploads/1.jpg'] })])
    expect(p.root.notes.notesOf(real.id).map((n) => n.id)).toEqual([saved[0].id])
    expect(p.outbox.count).toBe(0)
  })

  it('keeps the photo of a photo field taken without network and uploads it (as a field photo) before the new marker that shows it', async () => {
    const server = fakeServer()
    server.handlers['/api/layer/field/getlist'] = () => ok([buildField({ id: 5, layer_id: 1, name: '现场照片', kind: 'photo' })])
    const p = await phone({ server })
    p.offline.network.set(false)
    const photo = await p.root.notes.uploadPhoto('blob:field-1', (path, target) => p.root.notes.sendFile(path, target), 'field')
    expect(photo!.url.startsWith('kept:')).toBe(true)
    const m = await p.root.markers.save(pointInput('泵站', { fields: { '5': [photo!.url] } }))
    expect(m!.id).toBeLessThan(0)
    expect(p.root.notes.photoUrl((m!.fields['5'] as string[])[0])).toBe('blob:field-1')
    // The photo travels with its marker: one item to the user.
    expect(p.outbox.count).toBe(1)
    expect(p.sent()).toEqual([])
    p.offline.network.set(true)
    await settle()
    expect(p.server.uploads).toHaveLength(1)
    expect(p.server.uploads[0].target.formData.type).toBe('field')
    const real = Array.from(p.server.markers.values()).find((x) => x.name === '泵站')!
    expect(real.fields).toEqual({ '5': ['/uploads/1.jpg'] })
    expect(p.outbox.count).toBe(0)
  })

  it('shows a waiting point pending again when its list is read anew while a send of it fails', async () => {
    // After a reload without signal: the replay tries the queued point while the layer is read from the
    // phone's copy, which keeps the point without its pending flag; the try then fails on the network.
    const p = await phone()
    p.offline.network.set(false)
    const temp = (await p.root.markers.save(pointInput('山口新井')))!
    expect(isPendingMarker(p.root.markers.find(temp.id)!)).toBe(true)
    let drop: (e: Error) => void = () => undefined
    p.server.held.save = new Promise((_, reject) => (drop = reject))
    p.offline.network.set(true)
    await settle()
    expect(p.outbox.sending).not.toBeNull()
    const { pending: _pending, ...copied } = p.root.markers.find(temp.id) as Marker & { pending?: boolean }
    runInAction(() => p.root.markers.upsertLocal(copied))
    expect(isPendingMarker(p.root.markers.find(temp.id)!)).toBe(false)
    drop(new Error('no signal'))
    await settle()
    expect(p.outbox.sending).toBeNull()
    expect(p.outbox.count).toBe(1)
    expect(isPendingMarker(p.root.markers.find(temp.id)!)).toBe(true)
    // And it still goes once, on the next try.
    p.server.held.save = null
    p.clock.advance(60_000)
    await settle()
    expect(p.outbox.count).toBe(0)
    expect(Array.from(p.server.markers.values()).filter((m) => m.name === '山口新井')).toHaveLength(1)
  })

  it('comes back after the app is killed and restarted, shows the pending marker, and sends it once', async () => {
    const data = new Map<string, string>()
    const server = fakeServer()
    const first = await phone({ offline: memoryOffline({ data }), server })
    first.offline.network.set(false)
    await first.root.markers.save(pointInput('断网点'))
    first.root.dispose()
    const second = await phone({ offline: memoryOffline({ data }), server, startOffline: true })
    expect(second.outbox.count).toBe(1)
    expect(second.root.markers.byLayer.get(1)!.map((m) => m.name)).toContain('断网点')
    second.offline.network.set(true)
    await settle()
    expect(Array.from(server.markers.values()).filter((m) => m.name === '断网点')).toHaveLength(1)
    expect(second.outbox.count).toBe(0)
    expect(JSON.parse(data.get('outbox:7:3')!)).toEqual([])
  })

  it('warns before a logout that would lose what waits, and the logout drops it', async () => {
    const p = await phone()
    p.offline.network.set(false)
    await p.root.markers.save(pointInput('一'))
    await p.root.markers.save(pointInput('二'))
    expect(p.outbox.logoutWarning).toBe('2条数据还未同步，退出后将丢失')
    await p.root.session.logout()
    expect(p.offline.storage.dump()['outbox:7:3']).toBeUndefined()
  })

  it('says nothing at logout when the outbox is empty', async () => {
    const p = await phone()
    expect(p.outbox.logoutWarning).toBeNull()
  })
})
