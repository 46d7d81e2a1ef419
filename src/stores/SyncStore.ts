/**
 * Live team sync, the app half (types/sync.ts): a push socket while signed in with a group
 * (hello, ping, reconnect with backoff), polling /api/sync/changes while it is down, pulling the
 * change log on every push and applying it in place (markers fetched by id, never the 5000-marker
 * pages again), presence (who is online, who edits which marker), and the conflict sheet a refused
 * save opens. Created with the map (syncStores.ts), so none of this is in the /login bundle; the
 * rules live in src/domain/sync.ts.
 */
import { makeAutoObservable, observable, reaction, runInAction, type IReactionDisposer } from 'mobx'
import type { Marker } from '../../types/mapdata'
import type { PresenceEntry, SyncChange, SyncKind, SyncServerMessage } from '../../types/sync'
import {
  SYNC_PING_INTERVAL_MS,
  SYNC_POLL_INTERVAL_MS,
  applyMarkerChanges,
  conflictRows,
  facetsOf,
  inputFromFacets,
  mergeFacets,
  planChanges,
  reconnectDelay,
  socketUrl,
  type Choice,
  type ConflictRow,
  type Facets,
} from '../domain/sync'
import { SYNC_KIND_NAMES, SYNC_MSG } from '../domain/syncMessages'
import type { SocketConnection } from '../platform/socket/types'
import type { RefusedSave, RootStore } from './RootStore'

export type SyncStatus = 'synced' | 'syncing' | 'offline'

/** Markers asked for by id in one call. */
const FETCH_CHUNK = 500

/** A conflict the sheet shows: the rows that differ and the user's pick for each. */
export interface OpenConflict {
  kind: SyncKind
  /** The entity as it is now on the server; null when a teammate deleted it. */
  theirs: Record<string, unknown> | null
  rows: ConflictRow[]
  picks: Record<string, Choice>
  mine: Facets
  theirsFacets: Facets
  busy: boolean
}

interface ConflictJob {
  refused: RefusedSave
  mineInput: Record<string, unknown>
  settle: (value: unknown) => void
}

export class SyncStore {
  /** The socket said `ready` and has not dropped since. */
  connected = false
  /** A socket is being opened for the first time (the chip says 同步中, not 离线). */
  connecting = false
  pulling = false
  /** Everyone else in the group with the map open (presence). */
  people: PresenceEntry[] = []
  conflict: OpenConflict | null = null
  /** The marker /addinfo has open for editing. */
  formMarkerId: number | null = null
  /** The last applied seq of each group (also saved with the offline copy, restored on the first pull after a start). */
  private readonly sinceByGroup = new Map<number, number>()
  private conn: SocketConnection | null = null
  /** Bumped on every connect and stop: events of an older socket are ignored. */
  private generation = 0
  private attempt = 0
  private active = false
  private reconnectTimer: unknown = null
  private pingTimer: unknown = null
  private pollTimer: unknown = null
  private pullAgain = false
  private editingId: number | null = null
  private job: ConflictJob | null = null
  private readonly disposers: IReactionDisposer[] = []

  constructor(private readonly root: RootStore) {
    makeAutoObservable<
      SyncStore,
      'root' | 'sinceByGroup' | 'conn' | 'generation' | 'attempt' | 'active' | 'reconnectTimer' | 'pingTimer' | 'pollTimer' | 'pullAgain' | 'editingId' | 'job' | 'disposers'
    >(this, {
      root: false,
      sinceByGroup: false,
      conn: false,
      generation: false,
      attempt: false,
      active: false,
      reconnectTimer: false,
      pingTimer: false,
      pollTimer: false,
      pullAgain: false,
      editingId: false,
      job: false,
      disposers: false,
      people: observable.ref,
      conflict: observable.ref,
    })
    root.conflictSink = (refused, theirs) => this.openConflict(refused, theirs)
    // The saved copy answers the map's reads without network and keeps the seq across restarts.
    root.offlineCache.serve()
    // The outbox starts with the map: it shows what waits and sends it when the network returns.
    void root.outbox
    // Runs exactly while someone is signed in with a group; another user or group starts over.
    this.disposers.push(
      reaction(
        () => (this.root.session.loggedIn && this.root.session.hasGroup ? `${this.root.session.user?.id}:${this.groupId}` : ''),
        (key) => {
          this.stop()
          if (key) this.start()
        },
        { fireImmediately: true },
      ),
      // Presence: the marker whose editor, position editing or detail is open here.
      reaction(
        () => this.formMarkerId ?? this.root.map.editing?.marker.id ?? (this.root.markers.detailOpen ? (this.root.markers.detail?.id ?? null) : null),
        (id) => this.setEditing(id),
        { fireImmediately: true },
      ),
    )
  }

  /** /addinfo opened (or closed: null) the editor of a marker. */
  setFormMarker(id: number | null): void {
    this.formMarkerId = id
  }

  private get groupId(): number {
    return Number(this.root.session.user?.select_groupid ?? 0)
  }

  get since(): number {
    return this.sinceByGroup.get(this.groupId) ?? 0
  }

  get status(): SyncStatus {
    if (this.connected) return this.pulling ? 'syncing' : 'synced'
    return this.connecting ? 'syncing' : 'offline'
  }

  get statusText(): string {
    return SYNC_MSG[this.status]
  }

  /** How many others have the map open. */
  get othersOnline(): number {
    return this.people.length
  }

  /** Names of the others editing this marker now. */
  editorsOf(markerId: number): string[] {
    return this.people.filter((p) => p.editing === markerId && p.user_id !== this.root.session.user?.id).map((p) => p.nickname)
  }

  // ---- the socket -------------------------------------------------------------------------------

  start(): void {
    if (this.active) return
    this.active = true
    this.connecting = true
    this.attempt = 0
    this.startPolling()
    this.connect()
  }

  stop(): void {
    this.active = false
    this.generation++
    this.clearTimer('reconnectTimer')
    this.clearTimer('pingTimer')
    this.stopPolling()
    const conn = this.conn
    this.conn = null
    if (conn) conn.close(1000)
    this.connected = false
    this.connecting = false
    this.people = []
  }

  private connect(): void {
    const gen = ++this.generation
    this.root.platform.socket().then(
      (platform) => {
        if (!this.active || gen !== this.generation) return
        let conn: SocketConnection
        try {
          conn = platform.connect(socketUrl(this.root.baseUrl))
        } catch {
          this.dropped(gen)
          return
        }
        this.conn = conn
        conn.onOpen(() => {
          const user = this.root.session.user
          if (gen === this.generation && user) this.send({ type: 'hello', token: user.token, userid: user.id })
        })
        conn.onMessage((text) => gen === this.generation && this.receive(text))
        conn.onClose(() => this.dropped(gen))
        conn.onError(() => undefined)
      },
      () => this.dropped(gen),
    )
  }

  private send(msg: unknown): void {
    this.conn?.send(JSON.stringify(msg))
  }

  private receive(text: string): void {
    let msg: SyncServerMessage
    try {
      msg = JSON.parse(text) as SyncServerMessage
    } catch {
      return
    }
    switch (msg.type) {
      case 'ready':
        this.connected = true
        this.connecting = false
        this.attempt = 0
        this.stopPolling()
        this.clearTimer('pingTimer')
        this.pingTimer = this.root.scheduler.setInterval(() => this.send({ type: 'ping' }), SYNC_PING_INTERVAL_MS)
        if (this.editingId !== null) this.send({ type: 'editing', marker_id: this.editingId })
        void this.pull()
        // Back online: what was saved without network goes now.
        void this.root.outbox.replay()
        break
      case 'seq':
        if (msg.seq > this.since) void this.pull()
        break
      case 'presence':
        this.people = Array.isArray(msg.people) ? msg.people : []
        break
    }
  }

  /** The socket went (or never came): poll meanwhile and try again after the backoff. */
  private dropped(gen: number): void {
    if (gen !== this.generation) return
    this.generation++
    this.conn = null
    this.connected = false
    this.connecting = false
    this.people = []
    this.clearTimer('pingTimer')
    if (!this.active) return
    this.startPolling()
    this.clearTimer('reconnectTimer')
    const delay = reconnectDelay(this.attempt++)
    this.reconnectTimer = this.root.scheduler.setTimeout(() => {
      this.reconnectTimer = null
      if (this.active) this.connect()
    }, delay)
  }

  private startPolling(): void {
    if (this.pollTimer === null) this.pollTimer = this.root.scheduler.setInterval(() => void this.pull(), SYNC_POLL_INTERVAL_MS)
  }

  private stopPolling(): void {
    this.clearTimer('pollTimer', true)
  }

  private clearTimer(which: 'reconnectTimer' | 'pingTimer' | 'pollTimer', interval = which !== 'reconnectTimer'): void {
    const t = this[which]
    if (t === null) return
    if (interval) this.root.scheduler.clearInterval(t)
    else this.root.scheduler.clearTimeout(t)
    this[which] = null
  }

  /** The marker whose detail or editor this phone has open (null when closed), told to the others. */
  setEditing(markerId: number | null): void {
    if (this.editingId === markerId) return
    this.editingId = markerId
    if (this.connected) this.send({ type: 'editing', marker_id: markerId })
  }

  // ---- pulling and applying -------------------------------------------------------------------

  /** Pulls the change log since the last applied seq (again at once while `more`) and applies it. */
  async pull(): Promise<void> {
    if (!this.active) return
    if (this.pulling) {
      this.pullAgain = true
      return
    }
    this.pulling = true
    const group = this.groupId
    try {
      // After a start: on from the seq the saved copy was current at, so only what changed since comes.
      let reload = false
      if (!this.sinceByGroup.has(group)) {
        const saved = await this.root.offlineCache.restoreSince(group)
        if (!this.sinceByGroup.has(group)) this.sinceByGroup.set(group, saved.since)
        reload = saved.reload
      }
      for (let guard = 0; guard < 1000; guard++) {
        const since = this.sinceByGroup.get(group) ?? 0
        const res = await this.root.api.request('/api/sync/changes', { since }, { quiet: true, background: true }).catch(() => undefined)
        if (!res || !this.active || this.groupId !== group) {
          // Not applied: the next pull restores the saved seq (and its reload) again.
          if (reload) this.sinceByGroup.delete(group)
          break
        }
        if (res.reload || reload) await this.reloadAll()
        else if (since > 0) await this.apply(res.changes)
        reload = false
        this.sinceByGroup.set(group, res.seq)
        this.root.offlineCache.keepSince(group, res.seq)
        if (res.more) continue
        if (!this.pullAgain) break
        this.pullAgain = false
      }
    } finally {
      runInAction(() => {
        this.pulling = false
        this.pullAgain = false
      })
    }
  }

  /** The log no longer reaches back to our seq: layers and markers once more from the start. */
  private async reloadAll(): Promise<void> {
    if (!this.root.layers.loaded) return
    if (await this.root.layers.load()) await this.root.markers.loadShown()
    void this.root.layers.loadTitleStyles()
  }

  /** Applies pulled changes in place. */
  async apply(changes: SyncChange[]): Promise<void> {
    if (!changes.length) return
    this.root.dataListSink?.(changes)
    const { markers, layers, notes, fields } = this.root
    let markerRevs: Map<number, number> | null = null
    const markerRev = (id: number) => {
      if (!markerRevs) {
        markerRevs = new Map()
        for (const list of markers.byLayer.values()) for (const m of list) markerRevs.set(m.id, m.rev)
        if (markers.detail) markerRevs.set(markers.detail.id, Math.max(markers.detail.rev, markerRevs.get(markers.detail.id) ?? 0))
      }
      return markerRevs.get(id)
    }
    const plan = planChanges(changes, {
      rev: (kind, id) => {
        if (kind === 'marker') return markerRev(id)
        if (kind === 'layer') return layers.byId.get(id)?.rev
        if (kind === 'note') return findIn(notes.byMarker, id)?.rev
        if (kind === 'field') return findIn(fields.byLayer, id)?.rev
        return layers.titleStyles.find((s) => s.id === id)?.rev
      },
      markerLayerLoaded: (layerId) => markers.byLayer.has(layerId),
      notesLoaded: (markerId) => notes.byMarker.has(markerId),
      fieldsLoaded: (layerId) => fields.isLoaded(layerId),
    })
    if (plan.layers) {
      const list = await this.root.api.request('/api/layer/getlist', {}, { quiet: true, background: true }).catch(() => undefined)
      if (list) {
        runInAction(() => layers.adoptList(list))
        markers.dropLayers(plan.layerDrop)
        await markers.syncShown()
      }
    }
    if (plan.markerFetch.length || plan.markerDrop.length) await this.applyMarkers(plan.markerFetch, plan.markerDrop, !plan.layers)
    for (const markerId of plan.noteMarkers) void notes.load(markerId, true)
    for (const layerId of plan.fieldLayers) void fields.load(layerId, true)
    if (plan.titleStyles) void layers.loadTitleStyles()
  }

  private async applyMarkers(fetchIds: number[], dropIds: number[], adjustCounts: boolean): Promise<void> {
    const fetched: Marker[] = []
    const missing: number[] = []
    for (let i = 0; i < fetchIds.length; i += FETCH_CHUNK) {
      const ids = fetchIds.slice(i, i + FETCH_CHUNK)
      const list = await this.root.api.request('/api/marker/getbyid', { ids }, { quiet: true, background: true }).catch(() => undefined)
      if (!list) return
      const got = new Set(list.map((m) => m.id))
      fetched.push(...list)
      // Not readable any more (moved to a layer I may not see): gone from this phone.
      for (const id of ids) if (!got.has(id)) missing.push(id)
    }
    runInAction(() => {
      const { markers, layers } = this.root
      const drop = [...dropIds, ...missing]
      const before = new Map<number, Marker>()
      for (const list of markers.byLayer.values()) for (const m of list) before.set(m.id, m)
      markers.byLayer = applyMarkerChanges(markers.byLayer, fetched, drop, (layerId) => !!layers.byId.get(layerId)?.show && !markers.loadingLayerIds.includes(layerId))
      if (adjustCounts) {
        for (const id of drop) {
          const m = before.get(id)
          if (m) layers.adjustCount(m.layer_id, -1)
        }
        for (const m of fetched) {
          const was = before.get(m.id)
          if (!was) layers.adjustCount(m.layer_id, 1)
          else if (was.layer_id !== m.layer_id) {
            layers.adjustCount(was.layer_id, -1)
            layers.adjustCount(m.layer_id, 1)
          }
        }
      }
      const fresh = new Map(fetched.map((m) => [m.id, m]))
      const gone = new Set(drop)
      const d = markers.detail
      if (d && fresh.has(d.id) && fresh.get(d.id)!.rev > d.rev) markers.detail = fresh.get(d.id)!
      if (d && gone.has(d.id)) {
        if (markers.detailOpen) this.root.app.notify(SYNC_MSG.deleted(SYNC_KIND_NAMES.marker), 'warning')
        markers.detailOpen = false
        markers.detail = null
      }
      if (markers.searchResults.some((m) => fresh.has(m.id) || gone.has(m.id))) markers.searchResults = markers.searchResults.filter((m) => !gone.has(m.id)).map((m) => fresh.get(m.id) ?? m)
      // A create this phone queued may come back through the pull before its own answer: one marker shows, not two.
      this.root.outbox.adoptPulled(fetched)
    })
  }

  // ---- conflicts --------------------------------------------------------------------------------

  /** Opens the sheet for a refused save; settles with what the user's choice saved (undefined: given up). */
  openConflict(refused: RefusedSave, theirs: unknown): Promise<unknown> {
    // A sheet already open (a second refused save) gives up the older one: its form keeps its values.
    this.job?.settle(undefined)
    return new Promise((settle) => {
      const mineInput = (refused.mine ?? {}) as Record<string, unknown>
      const mine = facetsOf(refused.kind, mineInput)
      const current = theirs && typeof theirs === 'object' ? (theirs as Record<string, unknown>) : null
      const theirsFacets = current ? facetsOf(refused.kind, current) : {}
      const base = refused.base && typeof refused.base === 'object' ? facetsOf(refused.kind, refused.base as Record<string, unknown>) : null
      const rows = current ? conflictRows(base, mine, theirsFacets) : []
      this.job = { refused, mineInput, settle }
      this.conflict = {
        kind: refused.kind,
        theirs: current,
        rows,
        picks: Object.fromEntries(rows.map((r) => [r.key, r.pick])),
        mine,
        theirsFacets,
        busy: false,
      }
    })
  }

  pick(key: string, choice: Choice): void {
    if (this.conflict) this.conflict = { ...this.conflict, picks: { ...this.conflict.picks, [key]: choice } }
  }

  /** 保留对方的: my edit is dropped, the current version stays and shows. */
  keepTheirs(): void {
    const c = this.conflict
    const job = this.job
    if (!c || !job || !c.theirs) return
    this.close()
    if (c.kind === 'marker') {
      const theirs = c.theirs as unknown as Marker
      this.root.markers.byLayer = applyMarkerChanges(this.root.markers.byLayer, [theirs], [])
      if (this.root.markers.detail?.id === theirs.id) this.root.markers.detail = theirs
    } else {
      void this.pull()
    }
    job.settle(c.theirs)
  }

  /** 保留我的: my version saved again over the current rev. */
  keepMine(): Promise<unknown> {
    return this.resave('mine')
  }

  /** 合并保存: the current version with the parts picked 'mine' from mine. */
  mergeSave(): Promise<unknown> {
    return this.resave('merge')
  }

  /** 重新创建: the teammate deleted it; mine is saved as a new one. */
  recreate(): Promise<unknown> {
    return this.resave('recreate')
  }

  /** 放弃: nothing is saved; the form that asked keeps what was typed. */
  discard(): void {
    const job = this.job
    this.close()
    job?.settle(undefined)
  }

  private async resave(how: 'mine' | 'merge' | 'recreate'): Promise<unknown> {
    const c = this.conflict
    const job = this.job
    if (!c || !job || c.busy) return undefined
    if (how !== 'recreate' && !c.theirs) return undefined
    const facets = how === 'merge' ? mergeFacets(c.mine, c.theirsFacets, c.picks) : c.mine
    const id = how === 'recreate' ? undefined : Number(c.theirs!.id)
    const rev = how === 'recreate' ? undefined : Number(c.theirs!.rev)
    const input = inputFromFacets(c.kind, facets, job.mineInput, id, rev)
    this.close()
    // A save refused again opens the sheet again; this settles when that one is decided.
    const saved = await job.refused.resave(input, how === 'recreate' ? undefined : c.theirs)
    job.settle(saved)
    return saved
  }

  private close(): void {
    this.conflict = null
    this.job = null
  }

  reset(): void {
    this.sinceByGroup.clear()
    this.discard()
  }

  dispose(): void {
    for (const d of this.disposers) d()
    this.stop()
    if (this.root.conflictSink) this.root.conflictSink = null
  }
}

function findIn<T extends { id: number }>(byKey: ReadonlyMap<number, T[]>, id: number): T | undefined {
  for (const list of byKey.values()) {
    const found = list.find((x) => x.id === id)
    if (found) return found
  }
  return undefined
}
