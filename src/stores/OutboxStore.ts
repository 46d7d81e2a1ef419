/**
 * The outbox: saves made without network (markers, notes, their photos), kept in the offline storage
 * on every change so that killing the app loses nothing, shown on the phone at once (a create under a
 * temp id), and sent in order, one at a time, when the network returns (network events, the sync
 * socket reconnecting, a retry with backoff). Loaded with the map (syncStores.ts); the core stores
 * reach it only through RootStore.outboxSink. The rules live in src/domain/outbox.ts.
 */
import { makeAutoObservable, observable, reaction, runInAction, type IReactionDisposer } from 'mobx'
import type { Marker, MarkerInput, Note, Upload } from '../../types/mapdata'
import { ApiError, ERRCODE } from '../api/errors'
import { newClientId } from '../domain/clientId'
import {
  classifyFailure,
  dropWithDependents,
  enqueue,
  isCreate,
  isTempId,
  keptPhoto,
  keptRef,
  keptInFields,
  nextTempId,
  orphanPhotos,
  outboxKey,
  restored,
  retryDelay,
  rewriteMarkerId,
  rewriteNoteId,
  rewritePhoto,
  visibleItems,
  type MarkerSaveItem,
  type NoteBody,
  type NoteSaveItem,
  type OutboxItem,
  type PhotoItem,
} from '../domain/outbox'
import { OUTBOX_MSG } from '../domain/outboxMessages'
import { localMarker, localNote, nextToSend } from '../domain/outboxQueue'
import type { OfflinePlatform } from '../platform/offline/types'
import type { OutboxSink, RefusedSave, RootStore } from './RootStore'

type Outcome = 'done' | 'held' | 'network' | 'unauthorized'

export class OutboxStore implements OutboxSink {
  items: OutboxItem[] = []
  /** The client_id of the item on the wire. */
  sending: string | null = null
  /** The item the discard dialog asks about. */
  confirming: OutboxItem | null = null
  sheetOpen = false
  /** Local URLs of kept photos (what the uploader picked), by their `kept:` name. */
  private readonly localUrls = observable.map<string, string>()
  private platform: OfflinePlatform | null = null
  private key = ''
  /** Settles when the outbox of the current user and group is read back. */
  private restoring: Promise<void> = Promise.resolve()
  private replaying = false
  private again = false
  private attempt = 0
  private retryTimer: unknown = null
  private readonly disposers: (IReactionDisposer | (() => void))[] = []

  constructor(private readonly root: RootStore) {
    makeAutoObservable<OutboxStore, 'root' | 'platform' | 'key' | 'restoring' | 'replaying' | 'again' | 'attempt' | 'retryTimer' | 'disposers'>(this, {
      root: false,
      platform: false,
      key: false,
      restoring: false,
      replaying: false,
      again: false,
      attempt: false,
      retryTimer: false,
      disposers: false,
      items: observable.ref,
      confirming: observable.ref,
    })
    root.outboxSink = this
    const loaded = root.platform.offline().then(
      (p) => {
        this.platform = p
        this.disposers.push(p.network.onChange((online) => online && void this.replay()))
      },
      () => undefined,
    )
    this.disposers.push(
      // Each user keeps an outbox per group; another user or group reads its own.
      reaction(
        () => {
          const u = this.root.session.user
          return u?.id && u.select_groupid ? outboxKey(u.id, Number(u.select_groupid)) : ''
        },
        (key) => {
          this.restoring = loaded.then(() => this.restore(key))
        },
        { fireImmediately: true },
      ),
      // Layers reloaded from the server (or pulled) replace their lists: what waits here shows again on top.
      // The item being sent is left out meanwhile (its answer decides what shows), so the end of a send that
      // failed shows it again too: a list read while it was under way (the phone's copy, after a reload
      // without signal) has it without its pending look.
      reaction(
        () => [this.root.markers.byLayer, this.root.notes.byMarker, this.items, this.sending] as const,
        () => this.overlay(),
      ),
    )
  }

  // ---- what the user sees -------------------------------------------------------------------

  /** Items the user counts (photos travel with their note). */
  get shown(): OutboxItem[] {
    return visibleItems(this.items)
  }

  get count(): number {
    return this.shown.length
  }

  get failedCount(): number {
    return this.shown.filter((it) => it.status === 'refused').length
  }

  get chipText(): string {
    const failed = this.failedCount
    return failed ? `${OUTBOX_MSG.pending(this.count)} · ${OUTBOX_MSG.failed(failed)}` : OUTBOX_MSG.pending(this.count)
  }

  /** What the logout dialog says first when saves would be lost (null: nothing waits). */
  get logoutWarning(): string | null {
    return this.count ? OUTBOX_MSG.logoutWarn(this.count) : null
  }

  /** The marker (or note) an item is about, named for the sheet. */
  subjectOf(it: OutboxItem): string {
    if (it.kind === 'marker.save') return it.input.name || OUTBOX_MSG.untitled
    if (it.kind === 'marker.delete') return it.name || OUTBOX_MSG.untitled
    const marker = this.root.markers.find(it.marker_id)
    if (it.kind === 'note.save') return `${marker?.name ?? OUTBOX_MSG.untitled}：${it.input.content || OUTBOX_MSG.photo}`
    return marker?.name ?? OUTBOX_MSG.untitled
  }

  statusOf(it: OutboxItem): string {
    if (it.client_id === this.sending) return OUTBOX_MSG.statusSending
    if (it.status === 'refused') return OUTBOX_MSG.statusRefused
    if (it.status === 'conflict') return OUTBOX_MSG.statusConflict
    return OUTBOX_MSG.statusPending
  }

  openSheet(): void {
    this.sheetOpen = true
  }

  closeSheet(): void {
    this.sheetOpen = false
  }

  // ---- the sink the core stores use -----------------------------------------------------------

  newClientId(): string {
    return newClientId()
  }

  online(): boolean {
    return this.platform?.network.online() ?? true
  }

  holds(kind: 'marker' | 'note', id: number): boolean {
    if (isTempId(id)) return true
    return this.items.some((it) => (kind === 'marker' ? it.kind.startsWith('marker.') && it.marker_id === id : (it.kind === 'note.save' || it.kind === 'note.delete') && it.note_id === id))
  }

  localUrl(kept: string): string | undefined {
    return this.localUrls.get(kept)
  }

  keptOf(localUrl: string): string | undefined {
    for (const [kept, url] of this.localUrls) if (url === localUrl) return kept
    return undefined
  }

  async saveMarker(body: MarkerInput, base?: Marker): Promise<Marker | undefined> {
    await this.restoring
    const before = body.id ? this.root.markers.find(body.id) : undefined
    const id = body.id ?? nextTempId(this.items, this.tempIdsShown())
    const item: MarkerSaveItem = {
      kind: 'marker.save',
      client_id: body.client_id ?? newClientId(),
      status: 'pending',
      marker_id: id,
      input: body,
      base: base ?? (before && !isTempId(before.id) ? before : undefined),
    }
    let items = this.items
    // Photos of its photo fields picked without network go first (each with its own client_id).
    for (const p of keptInFields(body.fields)) items = enqueue(items, { kind: 'photo', client_id: newClientId(), status: 'pending', ref: keptRef(p)!, marker_id: 0, for: 'field' })
    items = enqueue(items, item, this.sending ?? undefined)
    const kept = items.find((it): it is MarkerSaveItem => it.kind === 'marker.save' && it.marker_id === id && it.client_id !== this.sending)
    if (!kept) return undefined
    const local = localMarker(kept, this.who(), new Date().toISOString())
    runInAction(() => {
      this.items = items
      this.root.markers.applySaved(local, before, OUTBOX_MSG.savedOffline)
    })
    await this.changed()
    return local
  }

  async removeMarker(id: number): Promise<boolean> {
    await this.restoring
    const known = this.root.markers.find(id)
    const items = enqueue(this.items, { kind: 'marker.delete', client_id: newClientId(), status: 'pending', marker_id: id, layer_id: known?.layer_id ?? 0, name: known?.name ?? '', rev: known?.rev })
    runInAction(() => {
      this.items = items
      this.root.markers.applyRemoved(id, OUTBOX_MSG.deletedOffline)
    })
    await this.changed()
    return true
  }

  async saveNote(body: NoteBody, base?: Note): Promise<Note | undefined> {
    await this.restoring
    const id = body.id ?? nextTempId(this.items, this.tempIdsShown())
    let items = this.items
    // The photos it shows go first (each with its own client_id).
    for (const p of body.photos) {
      const ref = keptRef(p)
      if (ref) items = enqueue(items, { kind: 'photo', client_id: newClientId(), status: 'pending', ref, marker_id: body.marker_id })
    }
    const item: NoteSaveItem = { kind: 'note.save', client_id: body.client_id ?? newClientId(), status: 'pending', note_id: id, marker_id: body.marker_id, input: body, base }
    items = enqueue(items, item, this.sending ?? undefined)
    const kept = items.find((it): it is NoteSaveItem => it.kind === 'note.save' && it.note_id === id && it.client_id !== this.sending)
    if (!kept) return undefined
    const local = localNote(kept, this.who(), base?.created_at ?? new Date().toISOString())
    runInAction(() => {
      this.items = items
      this.root.notes.applySaved(local, OUTBOX_MSG.savedOffline)
    })
    await this.changed()
    return local
  }

  async removeNote(note: { id: number; marker_id: number; rev?: number }): Promise<boolean> {
    await this.restoring
    const items = enqueue(this.items, { kind: 'note.delete', client_id: newClientId(), status: 'pending', note_id: note.id, marker_id: note.marker_id, rev: note.rev })
    runInAction(() => {
      this.items = items
      this.root.notes.applyRemoved(note, OUTBOX_MSG.deletedOffline)
    })
    await this.changed()
    return true
  }

  async keepPhoto(filePath: string): Promise<Upload | undefined> {
    await this.restoring
    if (!this.platform) return undefined
    const ref = await this.platform.storage.keepFile(filePath)
    const kept = keptPhoto(ref)
    runInAction(() => this.localUrls.set(kept, filePath))
    return { url: kept, size_kb: 0, name: filePath.split('/').pop() ?? '' }
  }

  // ---- retry and discard --------------------------------------------------------------------

  /** 重试: a refused item (and what waits on it) is sent again now. */
  retry(it?: OutboxItem): Promise<void> {
    this.items = this.items.map((x) => (x.status === 'refused' && (!it || x.client_id === it.client_id) ? { ...x, status: 'pending', error: undefined } : x))
    this.attempt = 0
    void this.persist()
    return this.replay()
  }

  askDiscard(it: OutboxItem | null): void {
    this.confirming = it
  }

  /** What the discard dialog says is lost. */
  discardText(it: OutboxItem): string {
    return isCreate(it) ? OUTBOX_MSG.discardCreate(this.subjectOf(it)) : OUTBOX_MSG.discardChange(this.subjectOf(it))
  }

  /** 放弃 (confirmed): the item and what waits on it are dropped; a queued create takes its marker or note off the phone. */
  async discard(it: OutboxItem): Promise<void> {
    this.confirming = null
    if (it.client_id === this.sending) return
    const gone = new Set(this.items.map((x) => x.client_id))
    const items = dropWithDependents(this.items, it)
    for (const x of items) gone.delete(x.client_id)
    const dropped = this.items.filter((x) => gone.has(x.client_id))
    this.items = items
    for (const x of dropped) {
      if (x.kind === 'marker.save' && isTempId(x.marker_id)) this.root.markers.applyRemoved(x.marker_id)
      if (x.kind === 'note.save' && isTempId(x.note_id)) this.root.notes.applyRemoved({ id: x.note_id, marker_id: x.marker_id })
      if (x.kind === 'photo') void this.platform?.storage.dropFile(x.ref)
    }
    // Edits given up: the server's version shows again.
    const edited = dropped.filter((x) => x.kind === 'marker.save' && !isTempId(x.marker_id)).map((x) => x.marker_id)
    if (edited.length) void this.root.markers.getById(edited[0])
    await this.persist()
  }

  /** Logout: the outbox of this user goes with the rest of the local data (SPEC 4). */
  async forget(): Promise<void> {
    const p = this.platform
    const refs = this.items.filter((it): it is PhotoItem => it.kind === 'photo').map((it) => it.ref)
    const key = this.key
    runInAction(() => (this.items = []))
    if (!p || !key) return
    for (const ref of refs) await p.storage.dropFile(ref)
    await p.storage.remove(key)
  }

  // ---- replay -------------------------------------------------------------------------------

  /** Sends what waits, in order, one at a time; stops at a network failure (and tries again later) or at a 401. */
  async replay(): Promise<void> {
    await this.restoring
    if (this.replaying) {
      this.again = true
      return
    }
    if (!this.key || !this.items.length) return
    this.replaying = true
    this.clearRetry()
    try {
      for (let guard = 0; guard < 100000; guard++) {
        const it = nextToSend(this.items)
        if (!it) break
        runInAction(() => (this.sending = it.client_id))
        const outcome = await this.send(it)
        runInAction(() => (this.sending = null))
        if (outcome === 'network') {
          this.scheduleRetry()
          break
        }
        if (outcome === 'unauthorized') break
        this.attempt = 0
        if (this.again) this.again = false
      }
    } finally {
      this.replaying = false
      runInAction(() => (this.sending = null))
    }
  }

  private async send(it: OutboxItem): Promise<Outcome> {
    try {
      switch (it.kind) {
        case 'marker.save': {
          const body = isTempId(it.marker_id) ? { ...it.input, client_id: it.client_id } : it.input
          const saved = await this.root.api.request('/api/marker/save', body, { quiet: true, background: true })
          this.markerSaved(it, saved)
          break
        }
        case 'marker.delete':
          await this.root.api.request('/api/marker/delete', { id: it.marker_id, rev: it.rev }, { quiet: true, background: true }).catch((e: ApiError) => {
            // Already gone on the server: what the delete wanted.
            if (e.errcode !== ERRCODE.NOT_FOUND) throw e
          })
          this.done(it)
          break
        case 'note.save': {
          const body = isTempId(it.note_id) ? { ...it.input, client_id: it.client_id } : it.input
          const saved = await this.root.api.request('/api/marker/note/save', body, { quiet: true, background: true })
          this.noteSaved(it, saved)
          break
        }
        case 'note.delete':
          await this.root.api.request('/api/marker/note/delete', { ids: [it.note_id], revs: it.rev ? [it.rev] : undefined }, { quiet: true, background: true }).catch((e: ApiError) => {
            if (e.errcode !== ERRCODE.NOT_FOUND) throw e
          })
          this.done(it)
          break
        case 'photo': {
          const uploaded = await this.upload(it)
          runInAction(() => {
            this.items = rewritePhoto(
              this.items.filter((x) => x.client_id !== it.client_id),
              it.ref,
              uploaded.url,
            )
          })
          void this.platform?.storage.dropFile(it.ref)
          await this.persist()
          break
        }
      }
      return 'done'
    } catch (e) {
      const err = e instanceof ApiError ? e : new ApiError('network', '')
      const failure = classifyFailure(err, ERRCODE.CONFLICT)
      if (failure === 'network' || failure === 'unauthorized') return failure
      if (failure === 'conflict' && (it.kind === 'marker.save' || it.kind === 'note.save')) {
        this.setStatus(it, 'conflict')
        this.openConflict(it, err.data ?? null)
      } else {
        this.setStatus(it, 'refused', err.message)
      }
      await this.persist()
      return 'held'
    }
  }

  private async upload(it: PhotoItem): Promise<Upload> {
    const p = this.platform
    if (!p) throw new ApiError('network', '')
    const path = await p.storage.fileUrl(it.ref)
    const target = this.root.notes.uploadTarget(it.for ?? 'note')
    const upload = await this.root.platform.upload()
    return upload.send(path, { ...target, formData: { ...target.formData, client_id: it.client_id } })
  }

  private markerSaved(it: MarkerSaveItem, saved: Marker): void {
    runInAction(() => {
      let items = this.items.filter((x) => x.client_id !== it.client_id)
      // Later changes of this marker (queued while this one was on the wire) start from the rev it made.
      items = rewriteMarkerId(items, it.marker_id, saved.id, saved.rev)
      this.items = items
      if (isTempId(it.marker_id)) {
        this.replaceTempMarker(it.marker_id, saved)
        this.moveNotes(it.marker_id, saved.id)
      } else if (!items.some((x) => x.marker_id === saved.id && x.kind.startsWith('marker.'))) {
        this.root.markers.upsertLocal(saved)
      }
    })
    void this.persist()
  }

  private noteSaved(it: NoteSaveItem, saved: Note): void {
    runInAction(() => {
      this.items = rewriteNoteId(
        this.items.filter((x) => x.client_id !== it.client_id),
        it.note_id,
        saved.id,
        saved.rev,
      )
      if (!this.holds('note', saved.id)) {
        this.root.notes.applyRemoved({ id: it.note_id, marker_id: saved.marker_id })
        this.root.notes.applySaved(saved)
      }
    })
    void this.persist()
  }

  private done(it: OutboxItem): void {
    runInAction(() => (this.items = this.items.filter((x) => x.client_id !== it.client_id)))
    void this.persist()
  }

  private setStatus(it: OutboxItem, status: OutboxItem['status'], error?: string): void {
    this.items = this.items.map((x) => (x.client_id === it.client_id ? { ...x, status, error } : x))
  }

  /** The conflict sheet takes the item; the replay goes on with the rest. The user's choice settles it. */
  private openConflict(it: MarkerSaveItem | NoteSaveItem, theirs: unknown): void {
    // The sheet's code loads with the sync store.
    void this.root.sync
    const sink = this.root.conflictSink
    if (!sink) {
      this.setStatus(it, 'refused')
      return
    }
    const temp = it.kind === 'marker.save' ? it.marker_id : it.note_id
    const refused: RefusedSave =
      it.kind === 'marker.save'
        ? { kind: 'marker', base: it.base, mine: it.input, resave: (input: MarkerInput, current) => this.root.markers.save(dropClientId(input), current as Marker) }
        : { kind: 'note', base: it.base, mine: it.input, resave: (input: NoteBody, current) => this.root.notes.save(dropClientId(input), current as Note) }
    void sink(refused, theirs).then((result) =>
      runInAction(() => {
        const still = this.items.find((x) => x.client_id === it.client_id)
        if (!still) return
        const saved = result as { id?: number; rev?: number } | undefined
        if (isTempId(temp) && saved?.id && saved.id > 0) {
          // Made again as a new entity: what waited on the temp one follows it.
          this.items = it.kind === 'marker.save' ? rewriteMarkerId(this.items, temp, saved.id, saved.rev) : rewriteNoteId(this.items, temp, saved.id, saved.rev)
          this.items = this.items.filter((x) => x.client_id !== it.client_id)
          if (it.kind === 'marker.save') {
            this.root.markers.applyRemoved(temp)
            this.moveNotes(temp, saved.id)
          } else this.root.notes.applyRemoved({ id: temp, marker_id: it.marker_id })
        } else if (isTempId(temp) && !saved) {
          void this.discard(still)
          return
        } else {
          this.items = this.items.filter((x) => x.client_id !== it.client_id)
        }
        void this.persist()
        void this.replay()
      }),
    )
  }

  /** A queued create answered: the temp marker becomes the real one everywhere (the pull may have brought it first). */
  private replaceTempMarker(tempId: number, real: Marker): void {
    const markers = this.root.markers
    const temp = markers.find(tempId)
    const pulled = markers.all.some((m) => m.id === real.id)
    markers.removeLocal(tempId)
    markers.upsertLocal(real)
    // The temp marker was counted when it was kept; the pull counted the real one again.
    if (temp && pulled) this.root.layers.adjustCount(temp.layer_id, -1)
    if (markers.detail?.id === tempId) markers.detail = real
    if (markers.searchResults.some((m) => m.id === tempId)) markers.searchResults = markers.searchResults.map((m) => (m.id === tempId ? real : m))
  }

  /** The notes of a temp marker move to the real one. */
  private moveNotes(fromMarkerId: number, toMarkerId: number): void {
    const notes = this.root.notes
    for (const n of notes.notesOf(fromMarkerId)) {
      notes.applyRemoved(n)
      notes.applySaved({ ...n, marker_id: toMarkerId })
    }
  }

  /** The live-sync pull brought entities this phone made: a queued create already reached the server (its answer was lost), so its temp copy goes. */
  adoptPulled(markers: readonly Marker[]): void {
    const byClient = new Map<string, Marker>()
    for (const m of markers) {
      const cid = (m as Marker & { client_id?: string }).client_id
      if (cid) byClient.set(cid, m)
    }
    if (!byClient.size) return
    for (const it of this.items) {
      const real = it.kind === 'marker.save' && isTempId(it.marker_id) && it.client_id !== this.sending ? byClient.get(it.client_id) : undefined
      if (real) this.markerSaved(it as MarkerSaveItem, real)
    }
  }

  // ---- persistence --------------------------------------------------------------------------

  private async restore(key: string): Promise<void> {
    runInAction(() => {
      this.key = key
      this.items = []
    })
    const p = this.platform
    if (!key || !p) return
    const items = restored(await p.storage.get<OutboxItem[]>(key).catch(() => undefined))
    const urls: [string, string][] = []
    for (const it of items) if (it.kind === 'photo') urls.push([keptPhoto(it.ref), await p.storage.fileUrl(it.ref)])
    if (this.key !== key) return
    runInAction(() => {
      this.items = items
      for (const [k, u] of urls) this.localUrls.set(k, u)
    })
    if (items.length) void this.replay()
  }

  private async persist(): Promise<void> {
    const p = this.platform
    if (!p || !this.key) return
    for (const orphan of orphanPhotos(this.items)) {
      this.items = this.items.filter((x) => x !== orphan)
      void p.storage.dropFile(orphan.ref)
    }
    // Keeping the outbox comes first: a full storage is the read cache's to make room in.
    await p.storage.set(this.key, this.items).catch(() => undefined)
  }

  /** After a change: kept on the phone, and sent now when the network is there. */
  private async changed(): Promise<void> {
    await this.persist()
    if (this.online()) void this.replay()
  }

  /** Shows again, over what the server lists, the markers and notes that wait here (after a reload, a pull, a restart). */
  private overlay(): void {
    const who = this.who()
    const now = new Date().toISOString()
    const { markers, notes } = this.root
    for (const it of this.items) {
      if (it.client_id === this.sending) continue
      if (it.kind === 'marker.save') {
        const shown = markers.find(it.marker_id) as (Marker & { pending?: boolean }) | undefined
        if (!shown?.pending && (shown || markers.byLayer.has(it.input.layer_id))) markers.upsertLocal(localMarker(it, who, now))
      } else if (it.kind === 'marker.delete') {
        if (markers.all.some((m) => m.id === it.marker_id)) markers.removeLocal(it.marker_id)
      } else if (it.kind === 'note.save' && notes.byMarker.has(it.marker_id)) {
        const shown = notes.notesOf(it.marker_id).find((n) => n.id === it.note_id) as (Note & { pending?: boolean }) | undefined
        if (!shown?.pending) notes.applySaved(localNote(it, who, it.base?.created_at ?? now))
      } else if (it.kind === 'note.delete' && notes.notesOf(it.marker_id).some((n) => n.id === it.note_id)) {
        notes.applyRemoved({ id: it.note_id, marker_id: it.marker_id })
      }
    }
  }

  private tempIdsShown(): number[] {
    const ids: number[] = []
    for (const list of this.root.markers.byLayer.values()) for (const m of list) if (m.id < 0) ids.push(m.id)
    for (const list of this.root.notes.byMarker.values()) for (const n of list) if (n.id < 0) ids.push(n.id)
    return ids
  }

  private who(): { id: number; name: string } {
    const u = this.root.session.user
    return { id: u?.id ?? 0, name: u?.nickname ?? '' }
  }

  private scheduleRetry(): void {
    this.clearRetry()
    this.retryTimer = this.root.scheduler.setTimeout(() => {
      this.retryTimer = null
      void this.replay()
    }, retryDelay(this.attempt++))
  }

  private clearRetry(): void {
    if (this.retryTimer !== null) this.root.scheduler.clearTimeout(this.retryTimer)
    this.retryTimer = null
  }

  reset(): void {
    this.sheetOpen = false
    this.confirming = null
  }

  dispose(): void {
    for (const d of this.disposers) d()
    this.clearRetry()
    if (this.root.outboxSink === this) this.root.outboxSink = null
  }
}

function dropClientId<T extends { client_id?: string }>(input: T): T {
  const { client_id: _c, ...rest } = input
  return rest as T
}
