/**
 * The print sheet (/print, 打印): what is printed (the map's view, or the chosen layers, a route or a
 * task fitted on the sheet), the sheet's options, its live preview (the same sheet drawn small by
 * the server, asked for again a moment after the last change) and the output: a print job polled
 * until done, then the picture saved (album, host app or download) or the PDF opened.
 */
import { makeAutoObservable, runInAction } from 'mobx'
import type { PrintBounds, PrintFormat, PrintOptions, PrintProgress, PrintStartRequest } from '../../types/print'
import { FEATURES, featureOpen } from '../domain/moduleGate'
import { DEFAULT_PRINT_OPTIONS, PRINT_NOTE_MAX, PRINT_TITLE_MAX, checkPrintOptions, validBounds } from '../domain/print'
import { PRINT_MSG } from '../domain/printMessages'
import type { RootStore } from './RootStore'

/** Quiet time after the last change before the preview is drawn again. */
export const PREVIEW_DELAY_MS = 500
/** How often a job is asked how it goes. */
export const PRINT_POLL_MS = 400
/** A job not done after this many polls is given up (about two minutes). */
const POLL_LIMIT = 300

export type PrintArea = 'view' | 'fit'

/** What opened the sheet: the map's tools (its view), a layer's menu, a route's or a task's detail. */
export interface PrintEntry {
  layer?: number
  route?: number
  task?: number
  /** The route's or task's name, the default title. */
  name?: string
}

export interface PrintOutput {
  format: PrintFormat
  state: PrintProgress['state']
  progress: number
  ahead: number
  error?: string
}

export class PrintStore {
  options: PrintOptions = { ...DEFAULT_PRINT_OPTIONS }
  area: PrintArea = 'fit'
  /** The map's view when the sheet opened (null without one). */
  view: PrintBounds | null = null
  layerIds: number[] = []
  routeId: number | null = null
  taskId: number | null = null
  previewUrl: string | null = null
  previewing = false
  previewError: string | null = null
  output: PrintOutput | null = null
  /** The picture could not be saved: album access is refused (SPEC 8's permission dialog shows). */
  albumDenied = false
  private previewTimer: unknown = null
  /** Bumped by every preview asked for: an older one's answer is dropped. */
  private previewSeq = 0

  constructor(private readonly root: RootStore) {
    makeAutoObservable<PrintStore, 'root' | 'previewTimer' | 'previewSeq'>(this, { root: false, previewTimer: false, previewSeq: false })
  }

  /** Whether the user's modules hold 打印 (the entries show and the calls work). */
  get allowed(): boolean {
    return featureOpen(FEATURES.print, this.root.session.user?.modules)
  }

  /** The layers that can be printed: the caller's visible non-folder layers. */
  get printableLayers() {
    return this.root.layers.layers.filter((l) => l.type !== 0)
  }

  get validation(): string | null {
    if (!this.layerIds.length && !this.routeId && !this.taskId) return PRINT_MSG.layersRequired
    return checkPrintOptions(this.options)
  }

  get request(): PrintStartRequest {
    return {
      layer_ids: this.layerIds,
      view: this.area === 'view' ? this.view : null,
      route_id: this.routeId,
      task_id: this.taskId,
      options: this.options,
      format: 'png',
    }
  }

  /** Opens the sheet for an entry: its subject, its default title and area, then the first preview. */
  open(entry: PrintEntry): void {
    const v = this.root.map.view
    this.view = v && validBounds(v) ? { west: v.west, south: v.south, east: v.east, north: v.north } : null
    this.routeId = entry.route ?? null
    this.taskId = entry.task ?? null
    const layer = entry.layer ? this.root.layers.layers.find((l) => l.id === entry.layer) : undefined
    if (layer) this.layerIds = [layer.id]
    else if (entry.route || entry.task) this.layerIds = []
    else this.layerIds = this.root.layers.shownLayerIds.filter((id) => this.printableLayers.some((l) => l.id === id))
    // The map's tools print what the map shows; a layer, route or task is fitted on the sheet.
    this.area = !layer && !entry.route && !entry.task && this.view ? 'view' : 'fit'
    const title = layer?.name ?? entry.name ?? this.root.session.user?.select_groupname ?? ''
    this.options = { ...DEFAULT_PRINT_OPTIONS, title: Array.from(title).slice(0, PRINT_TITLE_MAX).join('') }
    this.output = null
    this.albumDenied = false
    this.previewUrl = null
    void this.preview()
  }

  set<K extends keyof PrintOptions>(key: K, value: PrintOptions[K]): void {
    if (key === 'title' && typeof value === 'string') value = Array.from(value).slice(0, PRINT_TITLE_MAX).join('') as PrintOptions[K]
    if (key === 'note' && typeof value === 'string') value = Array.from(value).slice(0, PRINT_NOTE_MAX).join('') as PrintOptions[K]
    this.options = { ...this.options, [key]: value }
    this.schedulePreview()
  }

  setArea(area: PrintArea): void {
    this.area = area === 'view' && this.view ? 'view' : 'fit'
    this.schedulePreview()
  }

  toggleLayer(id: number): void {
    this.layerIds = this.layerIds.includes(id) ? this.layerIds.filter((x) => x !== id) : [...this.layerIds, id]
    this.schedulePreview()
  }

  schedulePreview(): void {
    if (this.previewTimer !== null) this.root.scheduler.clearTimeout(this.previewTimer)
    this.previewTimer = this.root.scheduler.setTimeout(() => {
      this.previewTimer = null
      void this.preview()
    }, PREVIEW_DELAY_MS)
  }

  /** Draws the sheet small; the last one asked for wins. */
  async preview(): Promise<void> {
    const seq = ++this.previewSeq
    const invalid = this.validation
    if (invalid) {
      this.previewError = invalid
      this.previewing = false
      return
    }
    this.previewing = true
    this.previewError = null
    const started = await this.root.api.post('/api/print/start', { ...this.request, preview: true }, { background: true })
    if (!started || seq !== this.previewSeq) return this.previewDone(seq, started ? undefined : PRINT_MSG.failed)
    const done = await this.poll(started.job_id, () => seq !== this.previewSeq)
    if (seq !== this.previewSeq) return
    runInAction(() => {
      this.previewing = false
      if (done?.state === 'done' && done.url) this.previewUrl = this.fileUrl(done.url)
      else this.previewError = done?.error ?? PRINT_MSG.failed
    })
  }

  private previewDone(seq: number, error?: string): void {
    if (seq !== this.previewSeq) return
    this.previewing = false
    if (error) this.previewError = error
  }

  /** Prints the sheet as PNG or PDF, then saves the picture or opens the PDF. */
  async make(format: PrintFormat): Promise<void> {
    if (this.output && (this.output.state === 'queued' || this.output.state === 'running')) return
    const invalid = this.validation
    if (invalid) {
      this.root.app.notify(invalid, 'warning')
      return
    }
    this.albumDenied = false
    this.output = { format, state: 'queued', progress: 0, ahead: 0 }
    const started = await this.root.api.post('/api/print/start', { ...this.request, format }, { ownProgress: true })
    if (!started) {
      runInAction(() => (this.output = null))
      return
    }
    const done = await this.poll(
      started.job_id,
      () => false,
      (p) => runInAction(() => (this.output = { format, state: p.state, progress: p.progress, ahead: p.ahead })),
    )
    if (!done || done.state !== 'done' || !done.url) {
      const error = done?.error ?? PRINT_MSG.failed
      runInAction(() => (this.output = { format, state: 'failed', progress: 0, ahead: 0, error }))
      this.root.app.notify(error, 'danger')
      return
    }
    runInAction(() => (this.output = { format, state: 'done', progress: 100, ahead: 0 }))
    await this.deliver(format, this.fileUrl(done.url), done.filename ?? '')
  }

  private async deliver(format: PrintFormat, url: string, filename: string): Promise<void> {
    const platform = await this.root.platform.print()
    if (format === 'pdf') {
      const opened = await platform.openPdf(url, filename)
      if (opened === 'downloaded') this.root.app.notify(PRINT_MSG.downloaded, 'success')
      else if (opened === 'failed') this.root.app.notify(PRINT_MSG.openFailed, 'danger')
      return
    }
    const outcome = await platform.savePicture(url, filename)
    if (outcome === 'saved') this.root.app.notify(PRINT_MSG.saved, 'success')
    else if (outcome === 'sent') this.root.app.notify(PRINT_MSG.sentToHost, 'success')
    else if (outcome === 'downloaded') this.root.app.notify(PRINT_MSG.downloaded, 'success')
    else if (outcome === 'denied') runInAction(() => (this.albumDenied = true))
    else this.root.app.notify(PRINT_MSG.saveFailed, 'danger')
  }

  /** The printed picture full screen (previewImage on the mini-program). */
  async showPicture(): Promise<void> {
    if (this.previewUrl) await (await this.root.platform.print()).previewImage(this.previewUrl)
  }

  async openAlbumSettings(): Promise<void> {
    this.albumDenied = false
    await (await this.root.platform.print()).openSettings()
  }

  closeAlbumDialog(): void {
    this.albumDenied = false
  }

  /** What the output button row says while a job runs. */
  get outputText(): string {
    const o = this.output
    if (!o) return ''
    if (o.state === 'queued') return PRINT_MSG.queued(o.ahead)
    if (o.state === 'running') return PRINT_MSG.drawing(o.progress)
    return ''
  }

  private fileUrl(path: string): string {
    return /^https?:\/\//.test(path) ? path : `${this.root.baseUrl}${path}`
  }

  private async poll(jobId: string, cancelled: () => boolean, onProgress?: (p: PrintProgress) => void): Promise<PrintProgress | null> {
    for (let i = 0; i < POLL_LIMIT; i++) {
      const p = await this.root.api.post('/api/print/progress', { job_id: jobId }, { background: true })
      if (cancelled()) return null
      if (!p) return null
      if (p.state === 'done' || p.state === 'failed') return p
      onProgress?.(p)
      await new Promise<void>((resolve) => this.root.scheduler.setTimeout(resolve, PRINT_POLL_MS))
      if (cancelled()) return null
    }
    return null
  }

  reset(): void {
    if (this.previewTimer !== null) this.root.scheduler.clearTimeout(this.previewTimer)
    this.previewTimer = null
    this.previewSeq++
    this.output = null
    this.previewUrl = null
  }
}
