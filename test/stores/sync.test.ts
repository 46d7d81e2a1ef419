/**
 * Live team sync in the stores (types/sync.ts): the socket's hello and ping, pulls on ready and
 * seq applied in place, reconnect with backoff and polling while the socket is down, presence, and
 * the conflict sheet a stale marker save opens. A fake socket, fake api and a hand-driven scheduler.
 */
import { SYNC_PING_INTERVAL_MS, SYNC_POLL_INTERVAL_MS, type SyncChange, type SyncChangesRes } from '../../types/sync'
import type { Marker } from '../../types/mapdata'
import { ERRCODE } from '../../src/api/errors'
import { SYNC_MSG } from '../../src/domain/syncMessages'
import { manualScheduler } from '../support/manualScheduler'
import { MarkerDraft } from '../../src/stores/MarkerDraft'
import { ok, type Handler } from '../support/fakes'
import { buildLayer, buildMarker, buildNote, signedInRoot } from '../support/mapBuilders'

/** Timers run only when the test moves the clock. */
const settle = async () => {
  for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r))
}

const spots = buildLayer({ id: 1, name: '客户', type: 1, show: true, marker_count: 2 })
const roads = buildLayer({ id: 2, name: '道路', type: 2, show: true, marker_count: 0 })

const m1 = buildMarker({ id: 1, layer_id: 1, name: '一号', rev: 1 })
const m2 = buildMarker({ id: 2, layer_id: 1, name: '二号', rev: 1 })

interface World {
  /** The server's markers by id (what getbyid answers). */
  markers: Map<number, Marker>
  /** Answers of /api/sync/changes, taken in order; then the last seq with nothing new. */
  feed: SyncChangesRes[]
  layers: ReturnType<typeof buildLayer>[]
}

async function syncedRoot(extra: Record<string, Handler> = {}) {
  const clock = manualScheduler()
  const world: World = { markers: new Map([m1, m2].map((m) => [m.id, m])), feed: [], layers: [spots, roads] }
  let lastSeq = 10
  const made = await signedInRoot(
    {
      '/api/layer/getlist': () => ok(world.layers),
      '/api/marker/getlist': (body) => ok({ list: Array.from(world.markers.values()).filter((m) => body.layer_ids.includes(m.layer_id)), total: world.markers.size }),
      '/api/marker/getbyid': (body) => ok(body.ids.map((id: number) => world.markers.get(id)).filter(Boolean)),
      '/api/sync/changes': () => {
        const res = world.feed.shift() ?? { seq: lastSeq, changes: [], more: false, reload: false }
        lastSeq = res.seq
        return ok(res)
      },
      '/api/layer/field/getlist': () => ok([]),
      ...extra,
    },
    { scheduler: clock.scheduler },
  )
  const { root } = made
  await root.layers.load()
  await root.markers.loadShown()
  const sync = root.sync
  await settle()
  return { ...made, sync, world, clock }
}

/** Opens the socket the store asked for and answers hello with ready. */
async function connect(s: Awaited<ReturnType<typeof syncedRoot>>, seq = 10) {
  const conn = s.sockets.last()
  conn.open()
  conn.push({ type: 'ready', seq })
  await settle()
  return conn
}

const upsert = (seq: number, m: Marker): SyncChange => ({ seq, kind: 'marker', id: m.id, op: 'upsert', rev: m.rev, layer_id: m.layer_id })

describe('SyncStore: the socket', () => {
  it('opens the socket at the API base with ws, says hello with the token and user id, and pings', async () => {
    const s = await syncedRoot()
    const conn = s.sockets.last()
    expect(conn.url).toBe('ws://api.test/api/sync/socket')
    expect(s.sync.statusText).toBe(SYNC_MSG.syncing)
    conn.open()
    expect(conn.sent[0]).toEqual({ type: 'hello', token: 'tok-7', userid: 7 })
    conn.push({ type: 'ready', seq: 10 })
    await settle()
    expect(s.sync.status).toBe('synced')
    expect(s.sync.statusText).toBe('已同步')
    s.clock.advance(SYNC_PING_INTERVAL_MS)
    expect(conn.sent.filter((m) => m.type === 'ping')).toHaveLength(1)
  })

  it('stops and closes the socket on logout', async () => {
    const s = await syncedRoot()
    const conn = await connect(s)
    s.root.session.logout()
    await settle()
    expect(conn.closed).toBe(true)
    expect(s.sync.status).toBe('offline')
  })
})

describe('SyncStore: pulling and applying in place', () => {
  it('on seq pulls the changes and adds, updates and removes markers without fetching pages again', async () => {
    const s = await syncedRoot()
    await connect(s)
    expect(s.sync.since).toBe(10)
    const added = buildMarker({ id: 3, layer_id: 1, name: '三号', rev: 1 })
    const moved = { ...m1, points: '116.5,39.5', rev: 2 }
    s.world.markers.set(3, added)
    s.world.markers.set(1, moved)
    s.world.markers.delete(2)
    s.world.feed.push({ seq: 13, changes: [upsert(11, added), upsert(12, moved), { seq: 13, kind: 'marker', id: 2, op: 'delete', rev: 2, layer_id: 1 }], more: false, reload: false })
    s.calls.length = 0
    s.sockets.last().push({ type: 'seq', seq: 13 })
    await settle()
    expect(s.calls.map((c) => c.path)).toEqual(['/api/sync/changes', '/api/marker/getbyid'])
    expect(s.calls[0].body.since).toBe(10)
    expect(s.calls[1].body.ids.sort()).toEqual([1, 3])
    expect(
      s.root.markers.byLayer
        .get(1)!
        .map((m) => m.id)
        .sort(),
    ).toEqual([1, 3])
    expect(s.root.markers.find(1)!.points).toBe('116.5,39.5')
    expect(s.root.layers.byId.get(1)!.marker_count).toBe(2)
    expect(s.sync.since).toBe(13)
  })

  it('pulls again at once while more follow', async () => {
    const s = await syncedRoot()
    await connect(s)
    const a = buildMarker({ id: 5, layer_id: 1, rev: 1 })
    const b = buildMarker({ id: 6, layer_id: 1, rev: 1 })
    s.world.markers.set(5, a)
    s.world.markers.set(6, b)
    s.world.feed.push({ seq: 11, changes: [upsert(11, a)], more: true, reload: false }, { seq: 12, changes: [upsert(12, b)], more: false, reload: false })
    s.calls.length = 0
    s.sockets.last().push({ type: 'seq', seq: 12 })
    await settle()
    expect(s.calls.filter((c) => c.path === '/api/sync/changes').map((c) => c.body.since)).toEqual([10, 11])
    expect(s.root.markers.find(5)).toBeDefined()
    expect(s.root.markers.find(6)).toBeDefined()
    expect(s.sync.since).toBe(12)
  })

  it('ignores its own save coming back (rev not newer than held)', async () => {
    const s = await syncedRoot()
    await connect(s)
    const held = s.root.markers.find(1)
    s.world.feed.push({ seq: 11, changes: [upsert(11, { ...m1, rev: 1 })], more: false, reload: false })
    s.calls.length = 0
    s.sockets.last().push({ type: 'seq', seq: 11 })
    await settle()
    expect(s.calls.map((c) => c.path)).toEqual(['/api/sync/changes'])
    expect(s.root.markers.find(1)).toBe(held)
  })

  it('reloads layers and markers fully once when the log no longer reaches back', async () => {
    const s = await syncedRoot()
    await connect(s)
    s.world.feed.push({ seq: 500, changes: [], more: false, reload: true })
    s.calls.length = 0
    s.sockets.last().push({ type: 'seq', seq: 500 })
    await settle()
    const paths = s.calls.map((c) => c.path)
    expect(paths.filter((p) => p === '/api/layer/getlist')).toHaveLength(1)
    expect(paths.filter((p) => p === '/api/marker/getlist')).toHaveLength(1)
    expect(s.sync.since).toBe(500)
  })

  it('refetches the notes of the open marker when a note changes', async () => {
    const note = buildNote({ id: 70, marker_id: 1, content: '新备注', rev: 1 })
    let notes: ReturnType<typeof buildNote>[] = []
    const s = await syncedRoot({ '/api/marker/note/getlist': () => ok(notes) })
    await s.root.notes.load(1)
    notes = [note]
    await connect(s)
    s.world.feed.push({ seq: 11, changes: [{ seq: 11, kind: 'note', id: 70, op: 'upsert', rev: 1, layer_id: 1, marker_id: 1 }], more: false, reload: false })
    s.calls.length = 0
    s.sockets.last().push({ type: 'seq', seq: 11 })
    await settle()
    expect(s.calls.map((c) => c.path)).toContain('/api/marker/note/getlist')
    expect(s.root.notes.notesOf(1).map((n) => n.content)).toEqual(['新备注'])
  })

  it('drops the markers of a layer a teammate deleted', async () => {
    const s = await syncedRoot()
    await connect(s)
    expect(s.root.markers.loadedCount(1)).toBe(2)
    s.world.feed.push({ seq: 11, changes: [{ seq: 11, kind: 'layer', id: 1, op: 'delete', rev: 2, layer_id: 1 }], more: false, reload: false })
    s.world.layers = [roads]
    s.calls.length = 0
    s.sockets.last().push({ type: 'seq', seq: 11 })
    await settle()
    expect(s.calls.map((c) => c.path)).toEqual(['/api/sync/changes', '/api/layer/getlist'])
    expect(s.root.layers.byId.has(1)).toBe(false)
    expect(s.root.markers.loadedCount(1)).toBeUndefined()
  })
})

describe('SyncStore: reconnecting', () => {
  it('polls while the socket is down, reconnects after 1 s, 2 s, 4 s … and stops polling once ready', async () => {
    const s = await syncedRoot()
    await connect(s)
    s.sockets.last().drop()
    expect(s.sync.status).toBe('offline')
    expect(s.sync.statusText).toBe('离线')
    expect(s.clock.timeouts()).toContain(1000)
    s.clock.advance(1000)
    await settle()
    expect(s.sockets.connections).toHaveLength(2)
    s.sockets.last().drop()
    expect(s.clock.timeouts()).toContain(2000)
    s.clock.advance(2000)
    await settle()
    s.sockets.last().drop()
    expect(s.clock.timeouts()).toContain(4000)
    // Meanwhile the change log is polled.
    s.calls.length = 0
    s.clock.advance(SYNC_POLL_INTERVAL_MS - 3000)
    await settle()
    expect(s.calls.filter((c) => c.path === '/api/sync/changes').length).toBeGreaterThanOrEqual(1)
    // Back: the next socket is ready, the delay starts over at 1 s and polling stops.
    await settle()
    const conn = s.sockets.last()
    conn.open()
    conn.push({ type: 'ready', seq: 10 })
    await settle()
    expect(s.sync.status).toBe('synced')
    s.calls.length = 0
    s.clock.advance(SYNC_POLL_INTERVAL_MS * 2)
    await settle()
    expect(s.calls.filter((c) => c.path === '/api/sync/changes')).toHaveLength(0)
    conn.drop()
    expect(s.clock.timeouts()).toContain(1000)
  })
})

describe('SyncStore: presence', () => {
  it('counts the others online and tells who edits the open marker; says which marker I edit', async () => {
    const s = await syncedRoot()
    const conn = await connect(s)
    conn.push({
      type: 'presence',
      people: [
        { user_id: 8, nickname: '张三', editing: 1 },
        { user_id: 9, nickname: '李四', editing: null },
      ],
    })
    expect(s.sync.othersOnline).toBe(2)
    expect(s.sync.editorsOf(1)).toEqual(['张三'])
    expect(SYNC_MSG.editing(s.sync.editorsOf(1))).toBe('张三正在编辑')
    await s.root.markers.openDetail(1)
    expect(conn.sent.at(-1)).toEqual({ type: 'editing', marker_id: 1 })
    s.root.markers.closeDetail()
    expect(conn.sent.at(-1)).toEqual({ type: 'editing', marker_id: null })
    s.sync.setFormMarker(2)
    expect(conn.sent.at(-1)).toEqual({ type: 'editing', marker_id: 2 })
  })
})

describe('conflicts on a marker save', () => {
  const conflict = (data: unknown) => ({ status: 200, data: { header: { errcode: ERRCODE.CONFLICT, errmsg: '数据已被他人修改' }, data } })

  async function editing(serverNow: Marker | null) {
    const saves: any[] = []
    const s = await syncedRoot({
      '/api/marker/save': (body) => {
        saves.push(body)
        if (body.id && body.rev !== (serverNow?.rev ?? -1) && saves.length === 1) return conflict(serverNow)
        const saved = { ...(serverNow ?? m1), ...body, id: body.id ?? 99, rev: (body.rev ?? 0) + 1 }
        return ok(saved)
      },
    })
    const draft = new MarkerDraft(s.root)
    draft.startEdit(s.root.markers.find(1)!)
    return { ...s, draft, saves }
  }

  it('sends the rev the edit started from, even after a teammate’s change arrived meanwhile', async () => {
    const theirs = { ...m1, rev: 2, name: '对方改的' }
    const s = await editing(theirs)
    s.world.markers.set(1, theirs)
    await connect(s)
    s.world.feed.push({ seq: 11, changes: [upsert(11, theirs)], more: false, reload: false })
    s.sockets.last().push({ type: 'seq', seq: 11 })
    await settle()
    expect(s.root.markers.find(1)!.rev).toBe(2)
    s.draft.setName('我改的')
    void s.draft.save()
    await settle()
    expect(s.saves[0]).toMatchObject({ id: 1, rev: 1, name: '我改的' })
    expect(s.sync.conflict).not.toBeNull()
  })

  it('keeps theirs: nothing is saved, their version shows, the form is not touched', async () => {
    const theirs = { ...m1, rev: 2, points: '116.8,39.8' }
    const s = await editing(theirs)
    s.draft.setName('我改的')
    const result = s.draft.save()
    await settle()
    expect(s.sync.conflict!.rows.map((r) => r.key).sort()).toEqual(['geometry', 'name'])
    expect(s.draft.name).toBe('我改的')
    s.sync.keepTheirs()
    expect(await result).toEqual(theirs)
    expect(s.saves).toHaveLength(1)
    expect(s.root.markers.find(1)!.points).toBe('116.8,39.8')
  })

  it('keeps mine: saves my version over the current rev', async () => {
    const theirs = { ...m1, rev: 2, points: '116.8,39.8' }
    const s = await editing(theirs)
    s.draft.setName('我改的')
    const result = s.draft.save()
    await settle()
    await s.sync.keepMine()
    const saved = await result
    expect(s.saves[1]).toMatchObject({ id: 1, rev: 2, name: '我改的', points: m1.points })
    expect(saved!.name).toBe('我改的')
    expect(s.sync.conflict).toBeNull()
  })

  it('merges per field: my name with their position, saved over the current rev', async () => {
    const theirs = { ...m1, rev: 3, points: '116.8,39.8' }
    const s = await editing(theirs)
    s.draft.setName('我改的')
    const result = s.draft.save()
    await settle()
    const c = s.sync.conflict!
    expect(c.picks).toEqual({ name: 'mine', geometry: 'theirs' })
    s.sync.pick('geometry', 'theirs')
    await s.sync.mergeSave()
    await result
    expect(s.saves[1]).toMatchObject({ id: 1, rev: 3, name: '我改的', points: '116.8,39.8' })
    expect(s.root.markers.find(1)!.name).toBe('我改的')
  })

  it('deleted by the teammate: says so, and 重新创建 saves mine as a new marker', async () => {
    const s = await editing(null)
    s.draft.setName('还要它')
    const result = s.draft.save()
    await settle()
    expect(s.sync.conflict).toMatchObject({ theirs: null, rows: [] })
    expect(SYNC_MSG.deleted('标注')).toBe('该标注已被他人删除')
    await s.sync.recreate()
    const saved = await result
    expect(s.saves[1].id).toBeUndefined()
    expect(s.saves[1].rev).toBeUndefined()
    expect(s.saves[1].name).toBe('还要它')
    expect(saved!.id).toBe(99)
  })

  it('deleted by the teammate: 放弃 saves nothing and the form keeps what was typed', async () => {
    const s = await editing(null)
    s.draft.setName('还要它')
    const result = s.draft.save()
    await settle()
    s.sync.discard()
    expect(await result).toBeUndefined()
    expect(s.saves).toHaveLength(1)
    expect(s.draft.name).toBe('还要它')
  })
})

describe('conflicts on a note save', () => {
  it('keeps the typed note: the sheet compares it, and 保留我的 saves it over the current rev', async () => {
    const theirs = buildNote({ id: 70, marker_id: 1, content: '对方写的', rev: 2 })
    const saves: any[] = []
    const s = await syncedRoot({
      '/api/marker/note/getlist': () => ok([{ ...theirs, content: '原来的', rev: 1 }]),
      '/api/marker/note/save': (body) =>
        saves.push(body) === 1 ? { status: 200, data: { header: { errcode: ERRCODE.CONFLICT, errmsg: '该备注已被他人修改' }, data: theirs } } : ok({ ...theirs, ...body, rev: 3 }),
    })
    await s.root.notes.load(1)
    const base = s.root.notes.notesOf(1)[0]
    const result = s.root.notes.save({ id: 70, marker_id: 1, content: '我写的', rev: base.rev }, base)
    await settle()
    expect(saves[0]).toMatchObject({ id: 70, rev: 1, content: '我写的' })
    expect(s.sync.conflict!.rows).toEqual([{ key: 'content', theirs: '对方写的', mine: '我写的', mineChanged: true, theirsChanged: true, pick: 'mine' }])
    await s.sync.keepMine()
    expect((await result)!.content).toBe('我写的')
    expect(saves[1]).toMatchObject({ id: 70, rev: 2, content: '我写的' })
    expect(s.root.notes.notesOf(1)[0].content).toBe('我写的')
  })
})

describe('conflicts on a layer, a custom field and a title style', () => {
  const stale = (errmsg: string, data: unknown) => ({ status: 200, data: { header: { errcode: ERRCODE.CONFLICT, errmsg }, data } })

  it('a layer renamed while a teammate moved it into a folder: 合并保存 keeps my name in their folder', async () => {
    const theirs = { ...spots, rev: 2, parent_id: 9, name: '客户' }
    const saves: any[] = []
    const s = await syncedRoot({ '/api/layer/save': (body) => (saves.push(body) === 1 ? stale('该图层已被他人修改', theirs) : ok({ ...theirs, ...body, rev: 3 })) })
    const renamed = s.root.layers.rename(1, '重点客户', 1)
    await settle()
    expect(saves[0]).toMatchObject({ id: 1, name: '重点客户', rev: 1 })
    // Both parts show; the folder is theirs alone (mine still had the layer at the top), so it starts picked theirs.
    expect(s.sync.conflict!.rows.map((r) => [r.key, r.pick]).sort()).toEqual([
      ['name', 'mine'],
      ['parent_id', 'theirs'],
    ])
    await s.sync.mergeSave()
    expect(await renamed).toBe(true)
    expect(saves[1]).toMatchObject({ id: 1, name: '重点客户', parent_id: 9, rev: 2 })
    expect(s.root.layers.byId.get(1)).toMatchObject({ name: '重点客户', parent_id: 9, rev: 3 })
  })

  it('a layer rename given up in the sheet saves nothing, and the rename dialog stays (false)', async () => {
    const saves: any[] = []
    const s = await syncedRoot({ '/api/layer/save': (body) => (saves.push(body), stale('该图层已被他人修改', { ...spots, rev: 2, name: '对方的名字' })) })
    const renamed = s.root.layers.rename(1, '我的名字', 1)
    await settle()
    expect(s.sync.conflict!.rows).toEqual([{ key: 'name', theirs: '对方的名字', mine: '我的名字', mineChanged: true, theirsChanged: true, pick: 'mine' }])
    s.sync.discard()
    expect(await renamed).toBe(false)
    expect(saves).toHaveLength(1)
    expect(s.root.layers.byId.get(1)!.name).toBe('客户')
  })

  it('a custom field edited on both phones: 保留我的 saves my definition over the current rev', async () => {
    const held = { id: 5, layer_id: 1, name: '状态', kind: 'choice' as const, options: ['好', '坏'], required: false, sort: 1, rev: 1 }
    const theirs = { ...held, options: ['好', '坏', '待查'], rev: 2 }
    const saves: any[] = []
    const s = await syncedRoot({
      '/api/layer/field/getlist': () => ok([held]),
      '/api/layer/field/save': (body) => (saves.push(body) === 1 ? stale('该字段已被他人修改', theirs) : ok({ ...theirs, ...body, rev: 3 })),
    })
    await s.root.fields.load(1)
    const saved = s.root.fields.save({ id: 5, layer_id: 1, name: '当前状态', kind: 'choice', options: ['好', '坏'], required: false, rev: 1 })
    await settle()
    expect(s.sync.conflict!.rows.map((r) => [r.key, r.pick])).toEqual([
      ['name', 'mine'],
      ['options', 'theirs'],
    ])
    await s.sync.keepMine()
    expect((await saved)!.name).toBe('当前状态')
    expect(saves[1]).toMatchObject({ id: 5, name: '当前状态', options: ['好', '坏'], rev: 2 })
    expect(s.root.fields.fieldsOf(1).find((f) => f.id === 5)).toMatchObject({ name: '当前状态', rev: 3 })
  })

  it('a title style saved over a teammate’s: 保留对方的 saves nothing and keeps their look', async () => {
    const held = { id: 3, layer_id: 1, font_size: 14, color: '#165DFF', bg_color: '#FFFFFF', padding: 4, border_weight: 1, border_color: '#165DFF', rev: 1 }
    const theirs = { ...held, font_size: 20, rev: 2 }
    const saves: any[] = []
    const s = await syncedRoot({
      '/api/system/title/style/getlist': () => ok([held]),
      '/api/system/title/style/save': (body) => (saves.push(body), stale('该标题样式已被他人修改', theirs)),
    })
    await s.root.layers.loadTitleStyles()
    const { id: _id, layer_id: _layer, rev: _rev, ...look } = held
    const done = s.root.layers.saveTitleStyle(1, { ...look, color: '#F53F3F' }, 1)
    await settle()
    expect(saves[0]).toMatchObject({ id: 3, layer_id: 1, color: '#F53F3F', rev: 1 })
    expect(s.sync.conflict!.kind).toBe('title_style')
    s.sync.keepTheirs()
    expect(await done).toBe(true)
    expect(saves).toHaveLength(1)
  })
})

describe('deletes send the rev they started from', () => {
  it('a marker delete sends the rev of the copy shown; refused as stale, the server’s word shows and nothing goes', async () => {
    const s = await syncedRoot({
      '/api/marker/delete': () => ({ status: 200, data: { header: { errcode: ERRCODE.CONFLICT, errmsg: '该标注已被他人修改' }, data: { ...m1, rev: 2 } } }),
    })
    await s.root.markers.openDetail(1)
    expect(await s.root.markers.remove(1)).toBe(false)
    expect(s.calls.at(-1)?.body).toMatchObject({ id: 1, rev: 1 })
    expect(s.root.app.currentNotice?.text).toBe('该标注已被他人修改')
    expect(s.root.markers.find(1)).toBeDefined()
  })
})
