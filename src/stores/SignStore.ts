/**
 * Check-in (types/signs.ts): the check-in being made (CheckInDraft: locate, ticket from the
 * server, watermarked photos, remark, upload and save) and the sign list (scope mine / all, paging,
 * filters by task or marker). The server decides distance, time and validity; the client only shows
 * what it says.
 */
import { makeAutoObservable, observable, runInAction } from 'mobx'
import type { SignListRequest, SignRecord, SignTargetInput, SignTicket } from '../../types/signs'
import { ApiError } from '../api/errors'
import { CHECKIN_MSG } from '../domain/checkinMessages'
import { holdsModule } from '../domain/moduleGate'
import { PERM } from '../domain/permissions'
import { SIGN_ADDR_MAX, SIGN_PHOTOS_MAX, SIGN_REMARK_MAX } from '../domain/sign'
import { watermarkText, type WatermarkText } from '../domain/watermark'
import { LocationError } from '../platform/location/types'
import type { CapturedPhoto } from '../platform/camera/types'
import type { NetworkStatus } from '../platform/offline/types'
import type { UploadSender } from '../platform/upload/types'
import type { RootStore } from './RootStore'

export const SIGN_PAGE_SIZE = 20

export type SignScope = 'mine' | 'all'

/**
 * Where a check-in stands: finding the position, asking the server, ready for photos, stopped with a
 * message, or waiting for the network (it starts again by itself when the network returns).
 */
export type CheckInPhase = 'idle' | 'locating' | 'ready' | 'failed' | 'offline'

/** The check-in the sheet is making. */
export class CheckInDraft {
  target: SignTargetInput = {}
  phase: CheckInPhase = 'idle'
  /** Why the check-in cannot go on (position refused, out of range with the server's message, ...). */
  problem = ''
  ticket: SignTicket | null = null
  addr = ''
  photos: CapturedPhoto[] = []
  remark = ''
  submitting = false
  /**
   * Whether the device has a network while the sheet is open. A check-in is online only (the server
   * measures the position and signs the ticket at the time), so without one the sheet says so at
   * once and cannot submit, instead of failing after the photos were taken.
   */
  online = true
  /** Bumped by every start(): an answer for an older start is dropped. */
  private attempt = 0
  /** Stops following the network's changes (set while a check-in is open). */
  private unwatch: (() => void) | null = null

  constructor(private readonly root: RootStore) {
    makeAutoObservable<CheckInDraft, 'root' | 'attempt' | 'unwatch'>(this, { root: false, attempt: false, unwatch: false, ticket: observable.ref, photos: observable.ref })
  }

  /** What the watermark camera paints (null until the server issued the ticket). */
  get watermark(): WatermarkText | null {
    return this.ticket ? watermarkText(this.ticket, this.addr) : null
  }

  get canAddPhoto(): boolean {
    return this.phase === 'ready' && this.photos.length < SIGN_PHOTOS_MAX
  }

  get photosMax(): number {
    return SIGN_PHOTOS_MAX
  }

  /** Locates, looks up the address (best effort) and asks the server for the ticket of this target. */
  async start(target: SignTargetInput): Promise<boolean> {
    this.clear()
    this.target = { ...target }
    const attempt = ++this.attempt
    this.phase = 'locating'
    const network = (await this.root.platform.offline()).network
    if (attempt !== this.attempt) return false
    this.watch(network)
    if (!network.online()) return this.waitForNetwork()
    const geo = this.root.platform.geo
    let position: { lng: number; lat: number }
    try {
      position = await geo.locate()
    } catch (err) {
      if (attempt !== this.attempt) return false
      return this.stop(err instanceof LocationError ? (err.kind === 'denied' ? CHECKIN_MSG.locateDenied : err.kind === 'privacy' ? err.message : CHECKIN_MSG.locateFailed) : CHECKIN_MSG.locateFailed)
    }
    let addr = ''
    try {
      // an address longer than the server keeps is cut, not refused
      addr = ((await geo.reverseGeocode(position)) ?? '').trim().slice(0, SIGN_ADDR_MAX)
    } catch {
      // the address is a courtesy; the coordinates are on the watermark anyway
    }
    if (attempt !== this.attempt) return false
    let ticket: SignTicket
    try {
      ticket = await this.root.api.request('/api/sign/ticket', { lng: position.lng, lat: position.lat, ...this.target }, { quiet: true })
    } catch (err) {
      if (attempt !== this.attempt) return false
      if (!network.online()) return this.waitForNetwork()
      // business refusals (out of range, unknown marker) show in the sheet; others got the client's notice
      return this.stop(err instanceof ApiError && err.kind === 'business' ? err.message : CHECKIN_MSG.locateFailed)
    }
    if (attempt !== this.attempt) return false
    runInAction(() => {
      this.ticket = ticket
      this.addr = addr
      this.phase = 'ready'
    })
    return true
  }

  /** Follows the network while this check-in is open: offline it cannot submit; back online a check-in that waited starts again. */
  private watch(network: NetworkStatus): void {
    this.unwatch?.()
    this.online = network.online()
    this.unwatch = network.onChange((online) => {
      runInAction(() => {
        this.online = online
      })
      if (online && this.phase === 'offline') void this.start(this.target)
    })
  }

  private waitForNetwork(): false {
    runInAction(() => {
      this.online = false
      this.phase = 'offline'
      this.problem = CHECKIN_MSG.needsNetwork
    })
    return false
  }

  private stop(problem: string): false {
    runInAction(() => {
      this.phase = 'failed'
      this.problem = problem
    })
    return false
  }

  addPhoto(photo: CapturedPhoto): boolean {
    if (!this.canAddPhoto) {
      this.root.app.notify(CHECKIN_MSG.photosMax, 'warning')
      return false
    }
    this.photos = [...this.photos, photo]
    return true
  }

  removePhoto(index: number): void {
    const photo = this.photos[index]
    if (!photo) return
    this.photos = this.photos.filter((_, i) => i !== index)
    void this.root.platform.camera().then((c) => c.release(photo))
  }

  setRemark(remark: string): void {
    this.remark = remark
  }

  /** Why submitting cannot start now, or null. */
  check(requirePhoto: boolean, now: number = Date.now()): string | null {
    if (!this.online) return CHECKIN_MSG.needsNetwork
    if (!this.ticket) return this.problem || CHECKIN_MSG.locateFailed
    if (requirePhoto && this.photos.length === 0) return CHECKIN_MSG.photoRequired
    if (this.remark.trim().length > SIGN_REMARK_MAX) return CHECKIN_MSG.remarkTooLong
    if (Date.parse(this.ticket.expires_at) <= now) return CHECKIN_MSG.ticketExpired
    return null
  }

  /**
   * Uploads every photo (type 'sign') with the platform's sender, then saves the check-in. Any
   * failure shows its message and keeps the draft as it was, so the user can try again.
   */
  async submit(send: UploadSender, requirePhoto = false): Promise<SignRecord | null> {
    if (this.submitting) return null
    const problem = this.check(requirePhoto)
    if (problem) {
      if (problem === CHECKIN_MSG.ticketExpired) {
        // Not fixable in the sheet: the check-in starts again for a fresh ticket.
        this.ticket = null
        this.root.app.notify(problem, 'warning')
      } else {
        this.root.app.notifyInvalid(problem, () => this.check(requirePhoto) === problem)
      }
      return null
    }
    const ticket = this.ticket!
    this.submitting = true
    try {
      const urls: string[] = []
      for (const photo of this.photos) {
        const uploaded = await this.root.notes.uploadPhoto(photo.path, (path, target) => send(path, target, photo.fileName), 'sign')
        if (!uploaded) return null
        urls.push(this.root.notes.serverUrl(uploaded.url))
      }
      const record = await this.root.api.post('/api/sign/save', { ticket: ticket.ticket, addr: this.addr, photos: urls, remark: this.remark.trim() })
      if (!record) return null
      this.root.app.notify(CHECKIN_MSG.saved, 'success')
      this.root.sign.added(record)
      this.clear()
      return record
    } finally {
      runInAction(() => {
        this.submitting = false
      })
    }
  }

  /** Forgets everything (the sheet closed); photos taken are released. */
  clear(): void {
    const photos = this.photos
    this.attempt++
    this.unwatch?.()
    this.unwatch = null
    this.online = true
    this.target = {}
    this.phase = 'idle'
    this.problem = ''
    this.ticket = null
    this.addr = ''
    this.photos = []
    this.remark = ''
    if (photos.length) void this.root.platform.camera().then((c) => photos.forEach((p) => c.release(p)))
  }
}

export class SignStore {
  list: SignRecord[] = []
  total = 0
  page = 0
  scope: SignScope = 'mine'
  /** The list's filter (a task's or a marker's check-ins). */
  filter: Pick<SignListRequest, 'task_id' | 'marker_id'> = {}
  loading = false
  /** Records whose photo files the server has hashed again on request (a list page checks signatures only). */
  photosChecked: ReadonlySet<number> = new Set()
  /** The record whose photos are being checked. */
  checkingId: number | null = null
  readonly draft: CheckInDraft

  constructor(private readonly root: RootStore) {
    this.draft = new CheckInDraft(root)
    makeAutoObservable<SignStore, 'root'>(this, { root: false, list: observable.ref, photosChecked: observable.ref, draft: false })
  }

  /** Asks the server to hash one record's photo files again (/getbyid) and shows what it found in the list. */
  async checkPhotos(id: number): Promise<boolean> {
    if (this.checkingId !== null) return false
    this.checkingId = id
    const record = await this.root.api.post('/api/sign/getbyid', { id })
    runInAction(() => {
      this.checkingId = null
      if (!record) return
      this.list = this.list.map((r) => (r.id === id ? record : r))
      this.photosChecked = new Set([...this.photosChecked, id])
    })
    return !!record
  }

  /** SPEC 3 "sign list": managers and holders of sign_list see every member's check-ins. */
  get canSeeAll(): boolean {
    return this.root.session.is_admin || !!this.root.session.user?.is_manager || holdsModule(this.root.session.user?.modules, PERM.SIGN_LIST)
  }

  get hasMore(): boolean {
    return this.list.length < this.total
  }

  /** Loads the first page of a scope and filter ('all' falls back to 'mine' for those who may not see all). */
  async open(filter: { taskId?: number; markerId?: number } = {}, scope: SignScope = this.scope): Promise<boolean> {
    const next: Pick<SignListRequest, 'task_id' | 'marker_id'> = {}
    if (filter.taskId) next.task_id = filter.taskId
    if (filter.markerId) next.marker_id = filter.markerId
    this.filter = next
    this.scope = scope === 'all' && this.canSeeAll ? 'all' : 'mine'
    return this.load(1)
  }

  setScope(scope: SignScope): Promise<boolean> {
    return this.open({ taskId: this.filter.task_id, markerId: this.filter.marker_id }, scope)
  }

  async load(page = 1): Promise<boolean> {
    this.loading = true
    const key = this.listKey()
    const res = await this.root.api.post('/api/sign/getlist', { scope: this.scope, ...this.filter, pageindex: page, pagesize: SIGN_PAGE_SIZE })
    runInAction(() => {
      this.loading = false
      // another scope or filter was asked for meanwhile
      if (!res || key !== this.listKey()) return
      this.list = page === 1 ? res.list : [...this.list, ...res.list.filter((r) => !this.list.some((x) => x.id === r.id))]
      this.total = res.total
      this.page = page
    })
    return !!res
  }

  loadMore(): Promise<boolean> {
    if (!this.hasMore || this.loading) return Promise.resolve(false)
    return this.load(this.page + 1)
  }

  /** A check-in just saved: at the top of the list when the list would hold it. */
  added(record: SignRecord): void {
    const f = this.filter
    if (f.task_id && record.target.task_id !== f.task_id) return
    if (f.marker_id && record.target.marker_id !== f.marker_id) return
    if (this.scope === 'mine' && record.user.id !== this.root.session.user?.id) return
    if (this.list.some((r) => r.id === record.id)) return
    this.list = [record, ...this.list]
    this.total += 1
  }

  /** A photo's address for showing (the server gives paths on its own host). */
  photoUrl(url: string): string {
    return this.root.notes.photoUrl(url)
  }

  private listKey(): string {
    return `${this.scope}:${this.filter.task_id ?? ''}:${this.filter.marker_id ?? ''}`
  }

  reset(): void {
    this.list = []
    this.total = 0
    this.page = 0
    this.scope = 'mine'
    this.filter = {}
    this.draft.clear()
  }

  dispose(): void {
    this.draft.clear()
  }
}
