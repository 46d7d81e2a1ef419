/**
 * The copy of the map data this phone keeps for working without signal (the offline storage of
 * src/platform/offline): after every load and every live-sync change it saves, a little later and
 * outside the call that changed it, the layer list, the markers of each loaded layer, their custom
 * fields, the notes opened and the live-sync seq; without network it answers the stores' reads from
 * that copy (RootStore.offlineSink), says once what the map shows, and makes room when the storage is
 * full by dropping the least recently shown layers not pinned (离线保留). Created with the map
 * (syncStores.ts), so none of this is in the /login bundle; the rules live in src/domain/offline.ts.
 */
import { makeAutoObservable, reaction, runInAction, type IReactionDisposer } from 'mobx'
import type { ApiPath, ApiReq, ApiRes } from '../../types/api'
import type { Layer, LayerField, Marker, Note, TitleStyle } from '../../types/mapdata'
import {
  EMPTY_META,
  OFFLINE_CHUNK_MARKERS,
  chunkKeys,
  dropOrder,
  isManifest,
  layerName,
  pageSlices,
  savedLayerIds,
  searchSaved,
  snapshotKeys,
  staleChunkKeys,
  type MarkersManifest,
  type SavedMarkersRecord,
  type SavedMeta,
  type SnapshotKeys,
} from '../domain/offline'
import { OFFLINE_MSG } from '../domain/offlineMessages'
import { OfflineQuotaError, type OfflinePlatform } from '../platform/offline/types'
import type { RootStore } from './RootStore'

/** How long after the last change the copy is written: a burst of changes (pages, a sync pull) is written once. */
export const OFFLINE_WRITE_DELAY_MS = 1500

interface Scope {
  userId: number
  groupId: number
  keys: SnapshotKeys
}

/** The shortest idle period a chunk is written in (a chunk's step takes a few milliseconds on a slow phone). */
const IDLE_STEP_MS = 8
/** A chunk waits at most this long for such a period: a map panned without a pause still gets its copy. */
const IDLE_WAIT_MAX_MS = 3000

/**
 * One saved chunk's markers, or undefined (missing or unreadable). Chunks are kept in columns; a copy
 * saved before that holds the markers' own arrays, read as they are.
 */
async function savedChunk(storage: OfflinePlatform['storage'], key: string): Promise<Marker[] | undefined> {
  const saved = await storage.get<unknown>(key)
  if (Array.isArray(saved)) return saved as Marker[]
  if (!saved || typeof saved !== 'object') return undefined
  const { decodeMarkerColumns } = await import('../domain/markerColumns')
  try {
    return decodeMarkerColumns(saved).list
  } catch {
    return undefined
  }
}

interface IdleDeadline {
  didTimeout: boolean
  timeRemaining(): number
}

/**
 * Waits for the page to be idle long enough for one chunk (the browser's idle callback; a macrotask
 * where there is none, as in the mini-program): each chunk of a layer's copy is written in its own
 * task, after frames and input, and not in the sliver of time left between two frames of a pan.
 */
function idle(): Promise<void> {
  const ric = (globalThis as { requestIdleCallback?: (fn: (deadline: IdleDeadline) => void, opts?: { timeout: number }) => unknown }).requestIdleCallback
  if (!ric) return new Promise((resolve) => setTimeout(resolve, 0))
  const since = Date.now()
  return new Promise((resolve) => {
    const wait = () =>
      ric((deadline) => (deadline.didTimeout || deadline.timeRemaining() >= IDLE_STEP_MS || Date.now() - since >= IDLE_WAIT_MAX_MS ? resolve() : wait()), { timeout: IDLE_WAIT_MAX_MS })
    wait()
  })
}

function isQuotaError(e: unknown): boolean {
  return e instanceof OfflineQuotaError || (e as Error | null)?.name === 'OfflineQuotaError'
}

export class OfflineCacheStore {
  /** Layers kept for offline use whatever the room (离线保留), of the current map. */
  pinned: number[] = []
  /** When the copy was last written from the server's data (ISO; empty when never). */
  savedAt = ''
  private platform: OfflinePlatform | null = null
  private readonly ready: Promise<OfflinePlatform | null>
  private meta: SavedMeta = { ...EMPTY_META }
  private metaLoaded: Promise<void> = Promise.resolve()
  /** The value last written (or answered from the copy) per key: a key is written again only when its value is another object. */
  private readonly seen = new Map<string, unknown>()
  /** Keys whose next store value came from the copy itself: not written back. */
  private readonly served = new Set<string>()
  private readonly dirty = new Set<string>()
  /** Markers (by layer) whose notes changed. */
  private readonly dirtyNotes = new Map<number, Set<number>>()
  private pendingSince: { groupId: number; seq: number } | null = null
  /** The oldest seq of the saved markers answered since start: the live sync resumes from there. */
  private servedSeq: number | null = null
  private noticeShown = false
  private timer: unknown = null
  /** Makes each copy's chunk keys unique within this run (with the time, across runs). */
  private stampSeq = 0
  private writing: Promise<void> = Promise.resolve()
  /** Bumped on every reset: writes of another user or map are not made. */
  private generation = 0
  private readonly disposers: (IReactionDisposer | (() => void))[] = []

  constructor(private readonly root: RootStore) {
    makeAutoObservable<
      OfflineCacheStore,
      | 'root'
      | 'platform'
      | 'ready'
      | 'meta'
      | 'metaLoaded'
      | 'seen'
      | 'served'
      | 'dirty'
      | 'dirtyNotes'
      | 'pendingSince'
      | 'servedSeq'
      | 'noticeShown'
      | 'timer'
      | 'stampSeq'
      | 'writing'
      | 'generation'
      | 'disposers'
    >(this, {
      root: false,
      platform: false,
      ready: false,
      meta: false,
      metaLoaded: false,
      seen: false,
      served: false,
      dirty: false,
      dirtyNotes: false,
      pendingSince: false,
      servedSeq: false,
      noticeShown: false,
      timer: false,
      stampSeq: false,
      writing: false,
      generation: false,
      disposers: false,
    })
    this.ready = root.platform.offline().then(
      (platform) => {
        this.platform = platform
        // Back online: the next time the copy answers, say so again.
        this.disposers.push(platform.network.onChange((online) => online && (this.noticeShown = false)))
        return platform
      },
      () => null,
    )
    this.serve()
    this.disposers.push(
      reaction(
        () => this.scopeKey,
        () => this.reset(),
        { fireImmediately: true },
      ),
      reaction(
        () => [this.root.layers.layers, this.root.layers.loaded, this.root.layers.titleStyles, this.root.markers.byLayer, this.root.fields.byLayer, this.root.notes.byMarker] as const,
        () => this.collect(),
      ),
    )
  }

  /** Answers the stores' reads without network from now on (RootStore.read); the map calls it before its first load. */
  serve(): void {
    this.root.offlineSink = {
      offline: () => !!this.platform && !this.platform.network.online(),
      answer: <P extends ApiPath>(path: P, body: ApiReq<P>) => this.answer(path, body),
    }
  }

  private get scopeKey(): string {
    const user = this.root.session.user
    return user && this.root.session.loggedIn ? `${user.id}:${Number(user.select_groupid ?? 0)}` : ''
  }

  private get scope(): Scope | null {
    const user = this.root.session.user
    if (!user || !this.root.session.loggedIn) return null
    const groupId = Number(user.select_groupid ?? 0)
    return { userId: user.id, groupId, keys: snapshotKeys(user.id, groupId) }
  }

  isPinned(layerId: number): boolean {
    return this.pinned.includes(layerId)
  }

  /** 离线保留: a pinned layer is never dropped to make room. */
  async setPinned(layerId: number, on: boolean): Promise<void> {
    await this.metaLoaded
    const pinned = new Set(this.meta.pinned)
    if (on) pinned.add(layerId)
    else pinned.delete(layerId)
    this.meta = { ...this.meta, pinned: Array.from(pinned) }
    runInAction(() => (this.pinned = this.meta.pinned))
    const name = layerName(this.root.layers.layers, layerId)
    this.root.app.notify(on ? OFFLINE_MSG.pinned(name) : OFFLINE_MSG.unpinned(name), 'success')
    this.mark('meta')
    // A pinned layer not saved yet (hidden) is saved when it is next shown; a shown one is saved now.
    if (on && this.root.markers.byLayer.has(layerId)) this.mark(`markers:${layerId}`)
  }

  // ---- the live-sync seq ------------------------------------------------------------------------

  /**
   * Where the live sync resumes after a start: the saved seq, or older when the copy answered reads
   * with markers saved before it. `reload`: the copy answered with data of unknown age (ask for everything).
   */
  async restoreSince(groupId: number): Promise<{ since: number; reload: boolean }> {
    const platform = await this.ready
    const scope = this.scope
    if (!platform || !scope || scope.groupId !== groupId) return { since: 0, reload: false }
    const saved = (await platform.storage.get<number>(scope.keys.since).catch(() => undefined)) ?? 0
    if (this.servedSeq === null) return { since: saved, reload: false }
    if (this.servedSeq === 0) return { since: saved, reload: true }
    return { since: Math.min(saved || this.servedSeq, this.servedSeq), reload: false }
  }

  /** The live sync applied changes up to `seq`: saved with the data it brought. */
  keepSince(groupId: number, seq: number): void {
    this.pendingSince = { groupId, seq }
    this.mark('since')
  }

  // ---- writing ------------------------------------------------------------------------------

  /** What changed in the stores since the last look: marks the keys to write. Cheap (compares references). */
  private collect(): void {
    if (!this.scope) return
    const { layers, markers, fields, notes } = this.root
    if (layers.loaded) this.look('layers', layers.layers)
    // Empty until loaded (and after a reset): an empty list is never saved over the group's styles.
    if (layers.titleStyles.length) this.look('styles', layers.titleStyles)
    for (const [id, list] of markers.byLayer) this.look(`markers:${id}`, list)
    // A hidden layer's markers are not held here after the store let them go (its copy stays saved).
    for (const key of Array.from(this.seen.keys())) if (key.startsWith('markers:') && !markers.byLayer.has(Number(key.slice(8)))) this.seen.delete(key)
    for (const [id, list] of fields.byLayer) this.look(`fields:${id}`, list)
    for (const [markerId, list] of notes.byMarker) {
      if (!this.look(`notes@${markerId}`, list)) continue
      const layerId = markers.find(markerId)?.layer_id
      if (layerId === undefined) continue
      const set = this.dirtyNotes.get(layerId) ?? new Set<number>()
      set.add(markerId)
      this.dirtyNotes.set(layerId, set)
      this.mark(`notes:${layerId}`)
    }
  }

  /** True (and the key marked, unless the copy itself gave the value) when the value is new. */
  private look(key: string, value: unknown): boolean {
    if (this.seen.get(key) === value) return false
    this.seen.set(key, value)
    if (this.served.delete(key)) return false
    if (!key.includes('@')) this.mark(key)
    return true
  }

  private mark(key: string): void {
    this.dirty.add(key)
    if (this.timer !== null) this.root.scheduler.clearTimeout(this.timer)
    this.arm()
  }

  private arm(): void {
    this.timer = this.root.scheduler.setTimeout(() => {
      this.timer = null
      // Pages still coming: the copy is written once the map has them all and has drawn them.
      if (this.root.markers.loading) this.arm()
      else void this.flush()
    }, OFFLINE_WRITE_DELAY_MS)
  }

  /** Writes what changed now (the timer does it on its own; tests and the pages leaving call it). */
  flush(): Promise<void> {
    if (this.timer !== null) {
      this.root.scheduler.clearTimeout(this.timer)
      this.timer = null
    }
    // One write at a time: a later flush waits for the one under way.
    this.writing = this.writing.then(() => this.write()).catch(() => undefined)
    return this.writing
  }

  private async write(): Promise<void> {
    const gen = this.generation
    const scope = this.scope
    const platform = await this.ready
    if (!platform || !scope || !this.dirty.size) return
    await this.metaLoaded
    if (gen !== this.generation) return
    const keys = Array.from(this.dirty)
    this.dirty.clear()
    const notesOf = new Map(this.dirtyNotes)
    this.dirtyNotes.clear()
    const { layers, markers, fields, notes } = this.root
    const seq = this.pendingSince?.groupId === scope.groupId ? this.pendingSince.seq : ((await platform.storage.get<number>(scope.keys.since).catch(() => undefined)) ?? 0)
    let data = false
    const dropped: number[] = []
    // Data first, the seq after it: a copy is never older than the seq saved with it.
    for (const key of keys.sort((a, b) => (a === 'since' || a === 'meta' ? 1 : 0) - (b === 'since' || b === 'meta' ? 1 : 0))) {
      if (gen !== this.generation) return
      const [kind, idText] = key.split(':')
      const id = Number(idText)
      if (kind === 'layers') data = (await this.put(platform, scope, scope.keys.layers, layers.layers, null, dropped)) || data
      else if (kind === 'styles') await this.put(platform, scope, scope.keys.styles, layers.titleStyles, null, dropped)
      else if (kind === 'markers') {
        const list = markers.byLayer.get(id)
        if (!list) continue
        this.meta.shown[String(id)] = Date.now()
        data = (await this.putMarkers(platform, scope, id, list, seq, dropped, gen)) || data
      } else if (kind === 'fields') {
        const list = fields.byLayer.get(id)
        if (list) data = (await this.put(platform, scope, scope.keys.fields(id), list, id, dropped)) || data
      } else if (kind === 'notes') {
        const saved = (await platform.storage.get<Record<string, Note[]>>(scope.keys.notes(id)).catch(() => undefined)) ?? {}
        for (const markerId of notesOf.get(id) ?? []) {
          const list = notes.byMarker.get(markerId)
          if (list) saved[String(markerId)] = list
        }
        data = (await this.put(platform, scope, scope.keys.notes(id), saved, id, dropped)) || data
      } else if (kind === 'since' && this.pendingSince?.groupId === scope.groupId) {
        await this.put(platform, scope, scope.keys.since, this.pendingSince.seq, null, dropped)
      }
    }
    if (gen !== this.generation) return
    if (data) this.meta.savedAt = new Date().toISOString()
    await this.put(platform, scope, scope.keys.meta, this.meta, null, dropped)
    runInAction(() => (this.savedAt = this.meta.savedAt))
    if (dropped.length) this.root.app.notify(OFFLINE_MSG.dropped(dropped.map((id) => layerName(this.root.layers.layers, id))), 'warning')
  }

  /**
   * Saves a layer's markers in chunks, each in its own idle task, then the manifest naming them, then
   * drops the chunks of the copy it replaces: until the manifest is written the previous copy stays
   * whole, and a copy cut short (the app closed, another user signed in) is never read.
   */
  private async putMarkers(platform: OfflinePlatform, scope: Scope, layerId: number, list: Marker[], seq: number, dropped: number[], gen: number): Promise<boolean> {
    const manifest: MarkersManifest = { seq, stamp: `${Date.now().toString(36)}${(++this.stampSeq).toString(36)}`, count: list.length, size: OFFLINE_CHUNK_MARKERS }
    const keys = chunkKeys(scope.keys, layerId, manifest)
    // Each chunk is kept in the wire's columns (src/domain/markerColumns.ts): a fraction of the
    // markers' own JSON to serialise, hand to the storage and count against its quota. The codec is
    // the one the marker pages were decoded with, fetched with the first of them.
    const { encodeMarkerColumns } = await import('../domain/markerColumns')
    let ok = true
    for (let n = 0; n < keys.length && ok; n++) {
      await idle()
      const chunk = list.slice(n * manifest.size, (n + 1) * manifest.size)
      ok = gen === this.generation && (await this.put(platform, scope, keys[n], encodeMarkerColumns(chunk, chunk.length), layerId, dropped, manifest.stamp))
    }
    if (ok) ok = gen === this.generation && (await this.put(platform, scope, scope.keys.markers(layerId), manifest, layerId, dropped, manifest.stamp))
    const all = await platform.storage.keys()
    // Written: the earlier copies' chunks go. Not written: this copy's own chunks go, the earlier copy stays.
    const drop = ok ? staleChunkKeys(all, scope.keys, layerId, manifest.stamp) : all.filter((key) => keys.includes(key))
    for (const key of drop) await platform.storage.remove(key).catch(() => undefined)
    return ok
  }

  /** The saved copy of a layer's markers, whole, or undefined (none, or a chunk missing). */
  private async savedMarkers(platform: OfflinePlatform, scope: Scope, layerId: number): Promise<{ seq: number; list: Marker[] } | undefined> {
    const record = await platform.storage.get<SavedMarkersRecord>(scope.keys.markers(layerId))
    if (!record || !isManifest(record)) return record
    const chunks = await Promise.all(chunkKeys(scope.keys, layerId, record).map((key) => savedChunk(platform.storage, key)))
    if (chunks.some((c) => !c)) return undefined
    const list = (chunks as Marker[][]).flat()
    return list.length === record.count ? { seq: record.seq, list } : undefined
  }

  /**
   * Stores one value; when the storage is full, drops the least recently shown layers not pinned
   * (never `layerId`, the one being written, and never a key outside this map: the outbox keeps its own) until it fits.
   */
  private async put(platform: OfflinePlatform, scope: Scope, key: string, value: unknown, layerId: number | null, dropped: number[], stamp: string | null = null): Promise<boolean> {
    for (;;) {
      try {
        await platform.storage.set(key, value)
        return true
      } catch (e) {
        if (!isQuotaError(e)) return false
        const saved = savedLayerIds(await platform.storage.keys(), scope.keys)
        const next = dropOrder(saved, this.meta, layerId)[0]
        // Nothing else may go: the copy of this layer being replaced makes room for the new one.
        if (next === undefined && layerId !== null && stamp !== null && (await this.dropOldCopy(platform, scope, layerId, stamp))) continue
        if (next === undefined) {
          this.tooBig(layerId)
          return false
        }
        await this.dropLayer(platform, scope, next)
        dropped.push(next)
      }
    }
  }

  /** Nothing left to drop and still no room: says which layers stay unsaved. */
  private tooBig(layerId: number | null): void {
    const layers = this.root.layers.layers
    const pinned = this.meta.pinned
    if (layerId !== null && !pinned.includes(layerId)) this.root.app.notify(OFFLINE_MSG.notSaved([layerName(layers, layerId)]), 'warning')
    else if (pinned.length) this.root.app.notify(OFFLINE_MSG.pinnedTooBig(pinned.map((id) => layerName(layers, id))), 'warning')
  }

  /** Removes a layer's earlier copy (its record first, so that it is never half there); false when there was none. */
  private async dropOldCopy(platform: OfflinePlatform, scope: Scope, layerId: number, stamp: string): Promise<boolean> {
    const all = await platform.storage.keys()
    const record = await platform.storage.get<SavedMarkersRecord>(scope.keys.markers(layerId))
    const stale = staleChunkKeys(all, scope.keys, layerId, stamp)
    const hasOld = !!record && (!isManifest(record) || record.stamp !== stamp)
    if (!hasOld && !stale.length) return false
    if (hasOld) await platform.storage.remove(scope.keys.markers(layerId))
    for (const key of stale) await platform.storage.remove(key)
    return true
  }

  private async dropLayer(platform: OfflinePlatform, scope: Scope, layerId: number): Promise<void> {
    await platform.storage.remove(scope.keys.markers(layerId))
    for (const key of staleChunkKeys(await platform.storage.keys(), scope.keys, layerId, null)) await platform.storage.remove(key)
    await platform.storage.remove(scope.keys.fields(layerId))
    await platform.storage.remove(scope.keys.notes(layerId))
    delete this.meta.shown[String(layerId)]
    // Still on the map: written again on its next change, if there is room then.
    this.seen.delete(`markers:${layerId}`)
    this.seen.delete(`fields:${layerId}`)
  }

  // ---- answering without network ------------------------------------------------------------------

  /** The saved answer to a read, or undefined (nothing saved for it). */
  async answer<P extends ApiPath>(path: P, body: ApiReq<P>): Promise<ApiRes<P> | undefined> {
    const platform = await this.ready
    const scope = this.scope
    if (!platform || !scope) return undefined
    await this.metaLoaded
    const res = await this.lookUp(platform, scope, path, body).catch(() => undefined)
    if (res !== undefined && !this.noticeShown) {
      this.noticeShown = true
      this.root.app.notify(OFFLINE_MSG.showingSaved(this.meta.savedAt), 'warning')
    }
    return res as ApiRes<P> | undefined
  }

  private async lookUp(platform: OfflinePlatform, scope: Scope, path: ApiPath, body: unknown): Promise<unknown> {
    const { storage } = platform
    const k = scope.keys
    switch (path) {
      case '/api/layer/getlist': {
        const list = await storage.get<Layer[]>(k.layers)
        if (list) this.served.add('layers')
        return list
      }
      case '/api/system/title/style/getlist': {
        const list = await storage.get<TitleStyle[]>(k.styles)
        if (list) this.served.add('styles')
        // None saved: the group had none (the built-in look), if this map was saved at all.
        return list ?? ((await storage.get<Layer[]>(k.layers)) ? [] : undefined)
      }
      case '/api/marker/getlist': {
        const req = body as ApiReq<'/api/marker/getlist'>
        const saved = await Promise.all(req.layer_ids.map((id) => storage.get<SavedMarkersRecord>(k.markers(id))))
        if (saved.some((s) => !s)) return undefined
        const records = saved as SavedMarkersRecord[]
        // Only the chunks this page needs are read: a page of 5,000 reads five of them, not the whole layer.
        const copies = records.map((r) => (isManifest(r) ? r : { count: r.list.length, size: Math.max(1, r.list.length) }))
        const { slices, total } = pageSlices(copies, req.pageindex, req.pagesize)
        const parts = await Promise.all(
          slices.map(async (s) => {
            const r = records[s.layer]
            const chunk = isManifest(r) ? await savedChunk(storage, chunkKeys(k, req.layer_ids[s.layer], r)[s.chunk]) : r.list
            return chunk && chunk.length >= s.to ? chunk.slice(s.from, s.to) : null
          }),
        )
        if (parts.some((p) => !p)) return undefined
        const now = Date.now()
        req.layer_ids.forEach((id, i) => {
          this.served.add(`markers:${id}`)
          this.meta.shown[String(id)] = now
          const seq = records[i].seq
          this.servedSeq = this.servedSeq === null ? seq : Math.min(this.servedSeq, seq)
        })
        return { list: (parts as Marker[][]).flat(), total }
      }
      case '/api/marker/getbyid': {
        const ids = new Set((body as ApiReq<'/api/marker/getbyid'>).ids)
        const found = (await this.allSaved(platform, scope)).filter((m) => ids.has(m.id))
        return found.length ? found : undefined
      }
      case '/api/layer/field/getlist': {
        const layerId = (body as ApiReq<'/api/layer/field/getlist'>).layer_id
        const list = await storage.get<LayerField[]>(k.fields(layerId))
        if (list) this.served.add(`fields:${layerId}`)
        return list
      }
      case '/api/marker/note/getlist': {
        const markerId = (body as ApiReq<'/api/marker/note/getlist'>).markerid
        const list = (await this.savedNotes(platform, scope)).get(markerId)
        if (list) this.served.add(`notes@${markerId}`)
        return list
      }
      case '/api/marker/search': {
        const req = body as ApiReq<'/api/marker/search'>
        return searchSaved(await this.allSaved(platform, scope), await this.savedNotes(platform, scope), req.kw ?? '', req.pageindex ?? 1, req.pagesize ?? 50)
      }
      default:
        return undefined
    }
  }

  /** Every saved marker of this map: the saved layers', newest copy of each (the loaded ones first). */
  private async allSaved(platform: OfflinePlatform, scope: Scope): Promise<Marker[]> {
    const ids = savedLayerIds(await platform.storage.keys(), scope.keys)
    const loaded = this.root.markers.byLayer
    const lists = await Promise.all(ids.map((id) => (loaded.has(id) ? Promise.resolve(loaded.get(id)!) : this.savedMarkers(platform, scope, id).then((s) => s?.list ?? []))))
    for (const [id, list] of loaded) if (!ids.includes(id)) lists.push(list)
    return lists.flat()
  }

  private async savedNotes(platform: OfflinePlatform, scope: Scope): Promise<Map<number, Note[]>> {
    const head = `${scope.keys.prefix}notes:`
    const keys = (await platform.storage.keys()).filter((key) => key.startsWith(head))
    const all = new Map<number, Note[]>()
    for (const key of keys) {
      const saved = await platform.storage.get<Record<string, Note[]>>(key)
      for (const [markerId, list] of Object.entries(saved ?? {})) all.set(Number(markerId), list)
    }
    return all
  }

  // ---- lifecycle ------------------------------------------------------------------------------

  /** Another user or map (or logout): pending writes are dropped and that map's saved state is read. */
  reset(): void {
    this.generation++
    if (this.timer !== null) this.root.scheduler.clearTimeout(this.timer)
    this.timer = null
    this.seen.clear()
    this.served.clear()
    this.dirty.clear()
    this.dirtyNotes.clear()
    this.pendingSince = null
    this.servedSeq = null
    this.noticeShown = false
    this.meta = { ...EMPTY_META, shown: {}, pinned: [] }
    this.pinned = []
    this.savedAt = ''
    const scope = this.scope
    const gen = this.generation
    this.metaLoaded = scope
      ? this.ready
          .then((platform) => platform?.storage.get<SavedMeta>(scope.keys.meta))
          .then(
            (meta) => {
              if (gen !== this.generation || !meta) return
              this.meta = { savedAt: meta.savedAt ?? '', shown: { ...(meta.shown ?? {}) }, pinned: Array.isArray(meta.pinned) ? meta.pinned : [] }
              runInAction(() => {
                this.pinned = this.meta.pinned
                this.savedAt = this.meta.savedAt
              })
            },
            () => undefined,
          )
      : Promise.resolve()
  }

  dispose(): void {
    for (const d of this.disposers) d()
    if (this.timer !== null) this.root.scheduler.clearTimeout(this.timer)
    this.timer = null
    if (this.root.offlineSink) this.root.offlineSink = null
  }
}
