/** Notes of a marker with photos: list, add, edit, delete; and photo uploads for notes and fields. */
import { makeAutoObservable, observable, runInAction } from 'mobx'
import type { Note, Upload } from '../../types/mapdata'
import { ApiError } from '../api/errors'
import { NOTE_MAX } from '../domain/markers'
import { MAP_MSG, MAP_UI_MSG, MSG } from '../domain/messages'
import type { UploadKind, UploadSender, UploadTarget } from '../platform/upload/types'
import type { RootStore } from './RootStore'

export type { UploadKind } from '../platform/upload/types'

export const NOTE_PHOTOS_MAX = 9

export interface NoteInput {
  id?: number
  marker_id: number
  content: string
  photos?: string[]
  /** The rev of the note when its edit opened (types/sync.ts). */
  rev?: number
}

export class NoteStore {
  byMarker: ReadonlyMap<number, Note[]> = new Map()
  loadingMarkerId: number | null = null
  saving = false

  constructor(private readonly root: RootStore) {
    makeAutoObservable<NoteStore, 'root'>(this, { root: false, byMarker: observable.ref })
  }

  notesOf(markerId: number): Note[] {
    return this.byMarker.get(markerId) ?? []
  }

  /** `background`: a teammate's change pulled by the sync store (no loading mask, no error notice). */
  async load(markerId: number, background = false): Promise<boolean> {
    // A marker kept on the phone (temp id): its notes are the ones kept with it.
    if (markerId < 0) return true
    this.loadingMarkerId = markerId
    const list = await this.root.read('/api/marker/note/getlist', { markerid: markerId }, { background })
    runInAction(() => {
      if (this.loadingMarkerId === markerId) this.loadingMarkerId = null
      if (list) this.set(markerId, list)
    })
    return !!list
  }

  check(input: NoteInput): string | null {
    const content = input.content.trim()
    if (!content && !(input.photos ?? []).length) return MAP_MSG.noteEmpty
    if (content.length > NOTE_MAX) return MAP_UI_MSG.noteTooLong(NOTE_MAX)
    return null
  }

  /** Adds or edits a note; a stale edit (CONFLICT) opens the conflict sheet, and what was typed stays in the form until the user chooses. */
  async save(input: NoteInput, base?: Note): Promise<Note | undefined> {
    const problem = this.check(input)
    if (problem) {
      this.root.app.notify(problem, 'warning')
      return undefined
    }
    if (this.saving) return undefined
    const sink = this.root.outboxSink
    const body = {
      ...(input.id ? { id: input.id } : { client_id: sink?.newClientId() }),
      marker_id: input.marker_id,
      content: input.content.trim(),
      photos: (input.photos ?? []).slice(0, NOTE_PHOTOS_MAX),
      rev: input.rev,
    }
    // No network, a marker or note kept on the phone, photos not uploaded yet, or changes of this note still queued: the outbox keeps it, in order.
    if (sink && (!sink.online() || input.marker_id < 0 || (!!input.id && sink.holds('note', input.id)) || sink.holds('marker', input.marker_id) || body.photos.some((p) => p.startsWith('kept:'))))
      return sink.saveNote(body, base)
    this.saving = true
    const [saved, sheet] = await this.root.saveRev(
      '/api/marker/note/save',
      body,
      {
        kind: 'note',
        base,
        resave: (next: NoteInput, current) => {
          // The refused save still holds the flag; the one the sheet asks for goes ahead.
          runInAction(() => (this.saving = false))
          return this.save(next, current as Note)
        },
      },
      sink ? () => sink.saveNote(body, base) : undefined,
    )
    runInAction(() => (this.saving = false))
    if (!saved || sheet) return saved
    this.applySaved(saved, MSG.savedOk)
    return saved
  }

  /** A saved note (or one the outbox kept, under a temp id) shows in its marker's list. */
  applySaved(saved: Note, message?: string): void {
    this.root.app.clearNotices()
    const list = this.notesOf(saved.marker_id)
    this.set(saved.marker_id, list.some((n) => n.id === saved.id) ? list.map((n) => (n.id === saved.id ? saved : n)) : [saved, ...list])
    if (message) this.root.app.notify(message, 'success')
  }

  /** A note gone from this phone. */
  applyRemoved(note: Pick<Note, 'id' | 'marker_id'>, message?: string): void {
    this.set(
      note.marker_id,
      this.notesOf(note.marker_id).filter((n) => n.id !== note.id),
    )
    if (message) this.root.app.notify(message, 'success')
  }

  async remove(note: Pick<Note, 'id' | 'marker_id'> & { rev?: number }): Promise<boolean> {
    const sink = this.root.outboxSink
    if (sink && (!sink.online() || note.id < 0 || sink.holds('note', note.id))) return sink.removeNote(note)
    let lost = false
    const ok = await this.root.api.request('/api/marker/note/delete', { ids: [note.id], revs: note.rev ? [note.rev] : undefined }, { offlineKept: !!sink }).then(
      () => true,
      (e: ApiError) => {
        lost = e.kind === 'network'
        return false
      },
    )
    if (lost && sink) return sink.removeNote(note)
    if (!ok) return false
    this.applyRemoved(note, MAP_UI_MSG.deletedOk)
    return true
  }

  /** A photo URL the device can show: server paths are relative to the API host. */
  photoUrl(url: string): string {
    // A photo kept on the phone until it can be uploaded shows from the local file.
    if (url.startsWith('kept:')) return this.root.outboxSink?.localUrl(url) ?? ''
    return /^(https?:|data:|blob:|wxfile:)/.test(url) || !url.startsWith('/') ? url : `${this.root.baseUrl}${url}`
  }

  /** Back to the form the server gave (what notes and fields store). */
  serverUrl(url: string): string {
    const kept = this.root.outboxSink?.keptOf(url)
    if (kept) return kept
    const base = this.root.baseUrl
    return base && url.startsWith(base + '/') ? url.slice(base.length) : url
  }

  /** Where photos go, with the multipart fields SPEC 7 names. */
  uploadTarget(kind: UploadKind = 'note'): UploadTarget {
    const h = this.root.session.header
    return {
      url: `${this.root.baseUrl}/api/system/upload`,
      formData: { type: kind, userid: String(h.userid), groupid: String(h.groupid), token: h.token },
    }
  }

  /** Loads the platform's image picker and uploader ahead of a tap (an H5 picker opens only while the tap's activation lasts). */
  preloadUploader(): void {
    void this.root.platform.upload().catch(() => undefined)
  }

  /** Lets the user pick images (camera or album) through the platform; empty when cancelled. */
  async chooseImages(count: number): Promise<string[]> {
    let upload
    try {
      upload = await this.root.platform.upload()
    } catch {
      return []
    }
    return upload.chooseImages(count)
  }

  /** Sends one file with the platform's uploader: the usual `send` of uploadPhoto. */
  readonly sendFile: UploadSender = async (filePath, target, fileName) => (await this.root.platform.upload()).send(filePath, target, fileName)

  /**
   * Uploads one picked photo with the platform's sender. Failures show the SPEC 8 message (a 401
   * logs out, as for every call) and resolve to undefined, so the uploader marks the photo failed.
   */
  async uploadPhoto(filePath: string, send: UploadSender, kind: UploadKind = 'note'): Promise<Upload | undefined> {
    // A note's or a photo field's photo picked without network is kept on the phone and uploaded before what shows it.
    const sink = kind === 'note' || kind === 'field' ? this.root.outboxSink : null
    if (sink && !sink.online()) return sink.keepPhoto(filePath)
    try {
      return await send(filePath, this.uploadTarget(kind))
    } catch (e) {
      const err = e instanceof ApiError ? e : null
      // No signal (or the uploader's own code could not load without it): kept for the outbox.
      if (sink && (!err || err.kind === 'network')) return sink.keepPhoto(filePath)
      if (err?.kind === 'unauthorized') {
        this.root.app.notify(err.message, 'warning')
        this.root.session.handleUnauthorized()
      } else {
        this.root.app.notify(err?.message || MAP_MSG.uploadFailed, 'danger')
      }
      return undefined
    }
  }

  reset(): void {
    this.byMarker = new Map()
  }

  private set(markerId: number, list: Note[]): void {
    const next = new Map(this.byMarker)
    next.set(
      markerId,
      [...list].sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : b.id - a.id)),
    )
    this.byMarker = next
  }
}
