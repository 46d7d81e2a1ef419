/**
 * Print jobs (打印, /api/print/*): a sheet of the caller's layers (only those they may read), of a
 * route or of a task, drawn as PNG or PDF off the request thread.
 *
 * - Gated by module_print (FEATURES.print, as routing and dispatch are): refused with the module's
 *   message for a caller whose modules lack it.
 * - More than PRINT_MAX_MARKERS markers in the chosen layers is refused before anything is queued.
 * - Jobs queue fairly per group (one group's pile of prints waits its turn with the others') and
 *   run PRINT_WORKERS at a time (1 by default, 2 at most) on worker threads (print-worker.ts), each
 *   worker kept for the next job (its font is loaded once); a worker that dies fails its job and
 *   is replaced. A new preview of the same user replaces their queued one.
 * - The base map comes only from the operator's print tile source (PRINT_TILE_URL with its
 *   attribution and 审图号 PRINT_TILE_REVIEW_NO; without the review number no tiles are used),
 *   fetched here with a timeout and cached; a tile that does not come is left out, and a sheet
 *   without tiles says 无底图: never a failed print.
 * - A finished file is kept in memory for PRINT_FILE_TTL_MS under the job's random id, which is its
 *   only key (GET /api/print/file/<id>.<ext>): the mini-program's downloadFile and previewImage
 *   cannot send the session header.
 */
import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import { Worker } from 'node:worker_threads'
import { GifReader } from 'omggif'
import { PNG } from 'pngjs'
import { ErrCode } from '../../../types/api'
import type { PrintProgress, PrintShareStartRequest, PrintStartRequest, PrintStartResponse } from '../../../types/print'
import { FEATURES, moduleName } from '../../../src/domain/moduleGate'
import { TEAM_UI_MSG } from '../../../src/domain/messages'
import { enabledCatalogueIds } from '../../../src/domain/teams'
import { openShare, sharedLayers, sharedMarkersPage } from './shares'
import { PREVIEW_DPI, PRINT_MAX_MARKERS, QUALITY_DPI, checkPrintOptions, pagePt, printDay, printFileName, validBounds } from '../../../src/domain/print'
import { PRINT_MSG } from '../../../src/domain/printMessages'
import type { Caller } from '../auth'
import type { Database, Executor } from '../db/connection'
import { layersOfGroup } from '../db/layers'
import { pageOfMarkersJson } from '../db/markers'
import { iconsOfLayers } from '../db/print-icons'
import { isStorageKey, type FileStorage } from './storage'
import { stylesOfGroup } from '../db/title-styles'
import { BusinessError, fail } from '../envelope'
import { cardFontFile } from './share-card'
import { mapCaller, requireFeature, usableLayerIds, type MapCaller } from './permissions'
import { getRoute } from './routes'
import { getTask } from './tasks'
import type { PrintLayerInput, PrintLineInput, PlacedTile, SceneInput, TileSourceInfo } from './print-scene'
import type { WorkerIn, WorkerJob, WorkerOut } from './print-worker'

/** Set by scripts/build-server.mjs (esbuild define) in the compiled server; undefined from source. */
declare const PRINT_WORKER_CODE: string | undefined

export const PRINT_WORKER_ENTRY = join(__dirname, 'print-worker.ts')
/** Packages the worker loads rather than carries: native code (resvg) and data files beside their code (pdfkit's, fontkit's). */
export const PRINT_WORKER_BUILD = { bundle: true, platform: 'node', target: 'node20', format: 'cjs', write: false, logLevel: 'warning', external: ['@resvg/resvg-js', 'pdfkit', 'fontkit'] } as const

/** How long a finished file stays downloadable. */
export const PRINT_FILE_TTL_MS = 15 * 60_000
/** Finished files kept at once (the oldest goes first). */
export const PRINT_FILES_MAX = 40
/** Prints (not previews) one user may have queued or running. */
export const PRINT_JOBS_PER_USER = 3
/** One tile request's time limit. */
export const PRINT_TILE_TIMEOUT_MS = 4000
const TILE_CACHE_MAX = 2000
const TILE_FETCHES_AT_ONCE = 6
const WORKER_HEAP_MB = 512
/** Markers per page read for a print (the marker list's page size). */
const MARKER_PAGE = 5000
/** Markers' JSON above which the worker is replaced after the job (about 10,000 markers). */
const BIG_JOB_BYTES = 2 * 1024 * 1024

/** The operator's print base map (env PRINT_TILE_*). */
export interface PrintTileSource extends TileSourceInfo {
  /** 'https://…/{z}/{x}/{y}.png'. */
  url: string
}

/** PRINT_TILE_URL, PRINT_TILE_ATTRIBUTION, PRINT_TILE_REVIEW_NO (审图号) and PRINT_TILE_DATUM (gcj02 | wgs84); null unless both the address and the review number are set. */
export function printTileSourceFromEnv(env: NodeJS.ProcessEnv): PrintTileSource | null {
  const url = env.PRINT_TILE_URL?.trim()
  const reviewNo = env.PRINT_TILE_REVIEW_NO?.trim()
  if (!url || !reviewNo || !/^https?:\/\//.test(url) || !url.includes('{z}')) return null
  return { url, reviewNo, attribution: env.PRINT_TILE_ATTRIBUTION?.trim() ?? '', datum: env.PRINT_TILE_DATUM?.trim().toLowerCase() === 'wgs84' ? 'wgs84' : 'gcj02' }
}

type TileFetch = (url: string, init: { signal: AbortSignal }) => Promise<{ ok: boolean; headers: { get(name: string): string | null }; arrayBuffer(): Promise<ArrayBuffer> }>

export interface PrintDeps {
  db: Database
  now: () => Date
  /** CARD_FONT, as the share cards use it. */
  font?: string
  tiles?: PrintTileSource | null
  /** 1 or 2. */
  workers?: number
  fetch?: TileFetch
  /** Where uploaded point icons are (GET /files/<key>). */
  storage?: FileStorage
  log?: (line: string) => void
}

interface Job {
  id: string
  /** The signed-in user's id; 0 for the print of a shared view (its id is its only key). */
  userId: number
  groupId: number
  /** Who asked, for the limit of waiting prints: 'user:<id>', or 'ip:<address>' for a shared view. */
  from: string
  preview: boolean
  state: PrintProgress['state']
  progress: number
  error?: string
  filename: string
  mime: string
  load: () => Promise<{ input: SceneInput; pages: Buffer[]; job: Omit<WorkerJob, 'type' | 'id' | 'input' | 'pages'> }>
  file?: Buffer
  doneAt?: number
}

class WorkerSlot {
  worker: Worker | null = null
  busy: Job | null = null
}

let workerCode: Promise<string> | undefined

function workerSource(): Promise<string> {
  if (typeof PRINT_WORKER_CODE === 'string') return Promise.resolve(PRINT_WORKER_CODE)
  workerCode ??= import('esbuild')
    .then((esbuild) => esbuild.build({ ...PRINT_WORKER_BUILD, external: [...PRINT_WORKER_BUILD.external], entryPoints: [PRINT_WORKER_ENTRY] }))
    .then((built) => built.outputFiles[0].text)
  workerCode.catch(() => (workerCode = undefined))
  return workerCode
}

/** A tile's bytes are a PNG or a JPEG (what both renderers read). */
function imageBytes(bytes: Uint8Array): boolean {
  return (bytes[0] === 0x89 && bytes[1] === 0x50) || (bytes[0] === 0xff && bytes[1] === 0xd8)
}

/** The most pixels of a GIF icon decoded for a print: a 5 mm icon needs a few thousand, and a huge one must not fill memory. */
const GIF_ICON_MAX_PIXELS = 1024 * 1024

/**
 * A GIF icon (an upload may be one) as a PNG of its first frame, which both renderers read; null
 * when it is not a GIF or does not decode, so the point keeps its pin.
 */
function gifIconPng(bytes: Uint8Array): Uint8Array | null {
  const head = Buffer.from(bytes.subarray(0, 6)).toString('latin1')
  if (head !== 'GIF87a' && head !== 'GIF89a') return null
  try {
    const gif = new GifReader(Buffer.from(bytes))
    if (gif.numFrames() < 1 || gif.width * gif.height > GIF_ICON_MAX_PIXELS) return null
    const png = new PNG({ width: gif.width, height: gif.height })
    gif.decodeAndBlitFrameRGBA(0, png.data)
    return new Uint8Array(PNG.sync.write(png))
  } catch {
    return null
  }
}

export class PrintService {
  private readonly queues = new Map<number, Job[]>()
  /** Groups with queued jobs, in turn order. */
  private readonly turns: number[] = []
  private readonly jobs = new Map<string, Job>()
  private readonly slots: WorkerSlot[]
  private readonly tileCache = new Map<string, Uint8Array | null>()
  private readonly font: string | null
  private closed = false

  constructor(private readonly deps: PrintDeps) {
    this.slots = Array.from({ length: Math.max(1, Math.min(2, deps.workers ?? 1)) }, () => new WorkerSlot())
    this.font = cardFontFile(deps.font)
    if (!this.font) deps.log?.('print: no CJK font found, sheets are drawn without text; install fonts-wqy-zenhei or set CARD_FONT')
  }

  /** Queues a print or a preview; the checks that can refuse it run here, before anything is queued. */
  async start(caller: Caller, request: PrintStartRequest): Promise<PrintStartResponse> {
    const db = this.deps.db.kysely
    const who = await mapCaller(db, caller)
    requireFeature(who, FEATURES.print)
    const refusal = checkPrintOptions(request.options)
    if (refusal) throw fail(ErrCode.VALIDATION, refusal)
    if (request.view && !validBounds(request.view)) throw fail(ErrCode.VALIDATION, PRINT_MSG.viewInvalid)
    const layerIds = await usableLayerIds(db, who, request.layer_ids)
    const lines = await this.linesOf(caller, request)
    if (layerIds.length === 0 && lines.length === 0) throw fail(ErrCode.VALIDATION, request.layer_ids.length ? PRINT_MSG.nothingToPrint : PRINT_MSG.layersRequired)
    // The layers' kept counts: counting the markers themselves would scan a big group on every start.
    const counts = new Map((await layersOfGroup(db, who.groupId)).map((l) => [l.id, l.marker_count]))
    const total = layerIds.reduce((s, id) => s + (counts.get(id) ?? 0), 0)
    if (total > PRINT_MAX_MARKERS) throw fail(ErrCode.LIMIT_REACHED, PRINT_MSG.tooManyMarkers(PRINT_MAX_MARKERS))
    const preview = request.preview === true
    if (preview) this.dropQueuedPreviews(who.userId)
    else if ([...this.jobs.values()].filter((j) => j.userId === who.userId && !j.preview && (j.state === 'queued' || j.state === 'running')).length >= PRINT_JOBS_PER_USER) {
      throw fail(ErrCode.RATE_LIMITED, PRINT_MSG.jobBusy(PRINT_JOBS_PER_USER))
    }
    const format = preview ? 'png' : request.format
    const now = this.deps.now()
    const id = randomBytes(16).toString('base64url')
    const job: Job = {
      id,
      userId: who.userId,
      from: `user:${who.userId}`,
      groupId: who.groupId,
      preview,
      state: 'queued',
      progress: 0,
      filename: printFileName(request.options.title, now, format),
      mime: format === 'pdf' ? 'application/pdf' : 'image/png',
      load: () => this.loadInput(who, request, layerIds, lines, preview, format, now),
    }
    this.jobs.set(id, job)
    this.enqueue(job)
    this.pump()
    return { job_id: id }
  }

  /** Where the caller's job is (a shared view's job with no caller); another user's job is not found alike. */
  progress(caller: Caller | null, jobId: string): PrintProgress {
    const job = this.jobs.get(jobId)
    if (!job || job.userId !== (caller?.userId ?? 0)) throw fail(ErrCode.NOT_FOUND, PRINT_MSG.jobNotFound)
    const out: PrintProgress = { state: job.state, progress: job.progress, ahead: job.state === 'queued' ? this.ahead(job) : 0 }
    if (job.state === 'done') {
      out.url = `/api/print/file/${job.id}.${job.mime === 'application/pdf' ? 'pdf' : 'png'}`
      out.filename = job.filename
    }
    if (job.state === 'failed') out.error = job.error
    return out
  }

  /** A finished file by its job id (the URL's only key); null when unknown or expired. */
  file(name: string): { bytes: Buffer; mime: string; filename: string } | null {
    const id = name.replace(/\.(png|pdf)$/, '')
    this.expire()
    const job = this.jobs.get(id)
    if (!job?.file) return null
    return { bytes: job.file, mime: job.mime, filename: job.filename }
  }

  /**
   * Queues the print of a shared view by the share's own rules: the share opened (expired, unknown
   * or a password share without its proof refused as the share view refuses them), only what it
   * shows drawn, and the print module of the sharing team's tier.
   */
  async startShared(request: PrintShareStartRequest, secret: () => Promise<string>, from: string): Promise<PrintStartResponse> {
    const db = this.deps.db.kysely
    const now = this.deps.now()
    const share = await openShare(db, secret, request.share_id, request.proof ?? undefined, now)
    if (!enabledCatalogueIds(share.group.level).includes(FEATURES.print.module)) throw fail(ErrCode.FORBIDDEN, TEAM_UI_MSG.moduleLocked(moduleName(FEATURES.print.module)))
    const refusal = checkPrintOptions(request.options)
    if (refusal) throw fail(ErrCode.VALIDATION, refusal)
    if (request.view && !validBounds(request.view)) throw fail(ErrCode.VALIDATION, PRINT_MSG.viewInvalid)
    const layers = await sharedLayers(db, share, request.layer_ids)
    if (!layers.length) throw fail(ErrCode.VALIDATION, PRINT_MSG.nothingToPrint)
    const query = { layer_ids: layers.map((l) => l.id) }
    const first = await sharedMarkersPage(db, share, query, { pageindex: 1, pagesize: 1 })
    const total = 'total' in first ? first.total : 0
    if (total > PRINT_MAX_MARKERS) throw fail(ErrCode.LIMIT_REACHED, PRINT_MSG.tooManyMarkers(PRINT_MAX_MARKERS))
    const preview = request.preview === true
    const queuedFrom = [...this.jobs.values()].filter((j) => j.from === from && (j.state === 'queued' || j.state === 'running')).length
    if (queuedFrom >= PRINT_JOBS_PER_USER) throw fail(ErrCode.RATE_LIMITED, PRINT_MSG.jobBusy(PRINT_JOBS_PER_USER))
    const format = preview ? 'png' : request.format
    const id = randomBytes(16).toString('base64url')
    const job: Job = {
      id,
      userId: 0,
      from,
      groupId: share.group.id,
      preview,
      state: 'queued',
      progress: 0,
      filename: printFileName(request.options.title, now, format),
      mime: format === 'pdf' ? 'application/pdf' : 'image/png',
      load: async () => {
        const pages: Buffer[] = []
        for (let pageindex = 1; (pageindex - 1) * MARKER_PAGE < Math.max(total, 1); pageindex++) {
          const page = await sharedMarkersPage(db, share, query, { pageindex, pagesize: MARKER_PAGE })
          if ('listJson' in page) pages.push(page.listJson)
          await new Promise((resolve) => setImmediate(resolve))
        }
        const tiles = request.options.basemap && this.deps.tiles ? this.deps.tiles : null
        const input: SceneInput = {
          options: request.options,
          dpi: preview ? PREVIEW_DPI : QUALITY_DPI[request.options.quality],
          view: request.view ?? null,
          layers: layers.map((l) => ({ id: l.id, name: l.name, type: l.type, title: l.title_style })),
          markers: [],
          lines: [],
          team: share.group.name ?? '',
          day: printDay(now),
          tiles: tiles ? { datum: tiles.datum, attribution: tiles.attribution, reviewNo: tiles.reviewNo } : null,
        }
        return {
          input,
          pages,
          job: { icons: [], format, font: this.font, page: pagePt(request.options.paper, request.options.orientation), title: request.options.title || PRINT_MSG.untitled, wantTiles: !!tiles },
        }
      },
    }
    this.jobs.set(id, job)
    this.enqueue(job)
    this.pump()
    return { job_id: id }
  }

  async close(): Promise<void> {
    this.closed = true
    await Promise.all(this.slots.map((s) => s.worker?.terminate()))
  }

  // -------------------------------------------------------------------------------------------

  private async linesOf(caller: Caller, request: PrintStartRequest): Promise<PrintLineInput[]> {
    const lines: PrintLineInput[] = []
    if (request.route_id) {
      // getRoute applies the routing module and who sees which route.
      const route = await getRoute(this.deps.db.kysely, caller, request.route_id)
      lines.push({ name: route.name, kind: 'route', stops: route.stops.map((s) => ({ lng: s.lng, lat: s.lat })) })
    }
    if (request.task_id) {
      const task = await getTask({ db: this.deps.db, proofs: async () => new Map() }, caller, request.task_id, this.deps.now())
      const at = task.marker ?? task.place
      if (at) lines.push({ name: task.title, kind: 'task', stops: [{ lng: at.lng, lat: at.lat }] })
    }
    return lines
  }

  private async loadInput(who: MapCaller, request: PrintStartRequest, layerIds: number[], lines: PrintLineInput[], preview: boolean, format: 'png' | 'pdf', now: Date) {
    const db: Executor = this.deps.db.kysely
    const [layers, styles] = await Promise.all([layersOfGroup(db, who.groupId), stylesOfGroup(db, who.groupId)])
    const wanted = new Set(layerIds)
    const groupStyle = styles.find((s) => s.layer_id === null) ?? null
    const look = (s: (typeof styles)[number] | null) =>
      s ? { font_size: s.font_size, color: s.color, bg_color: s.bg_color, padding: s.padding, border_weight: s.border_weight, border_color: s.border_color } : null
    const printLayers: PrintLayerInput[] = layers
      .filter((l) => wanted.has(l.id))
      .map((l) => ({ id: l.id, name: l.name, type: l.type, title: look(styles.find((s) => s.layer_id === l.id) ?? groupStyle) }))
    // Page by page, each page's JSON built by the database and handed to the worker as bytes: the
    // request thread never holds the markers as objects (tens of thousands of them, and their
    // serialisation, held other calls for over a hundred milliseconds). Other calls run between pages.
    const pages: Buffer[] = []
    const total = printLayers.length ? layerIds.reduce((n, id) => n + (layers.find((l) => l.id === id)?.marker_count ?? 0), 0) : 0
    for (let pageindex = 1; (pageindex - 1) * MARKER_PAGE < Math.max(total, 1); pageindex++) {
      pages.push(await pageOfMarkersJson(db, who.groupId, layerIds, { pageindex, pagesize: MARKER_PAGE }, { hideCreator: true }))
      await new Promise((resolve) => setImmediate(resolve))
    }
    const icons = await this.iconFiles(await iconsOfLayers(db, who.groupId, layerIds))
    const tiles = request.options.basemap && this.deps.tiles ? this.deps.tiles : null
    const dpi = preview ? PREVIEW_DPI : QUALITY_DPI[request.options.quality]
    const input: SceneInput = {
      options: request.options,
      dpi,
      view: request.view ?? null,
      layers: printLayers,
      markers: [],
      lines,
      team: who.group.name ?? '',
      day: printDay(now),
      tiles: tiles ? { datum: tiles.datum, attribution: tiles.attribution, reviewNo: tiles.reviewNo } : null,
    }
    return {
      input,
      pages,
      job: { icons, format, font: this.font, page: pagePt(request.options.paper, request.options.orientation), title: request.options.title || PRINT_MSG.untitled, wantTiles: !!tiles },
    }
  }

  /**
   * The icons' images that both renderers read (PNG, JPEG, and a GIF's first frame as PNG): uploaded
   * files, or data: addresses; others (WebP, broken files) are drawn as pins.
   */
  private async iconFiles(urls: string[]): Promise<{ url: string; bytes: Uint8Array }[]> {
    const out: { url: string; bytes: Uint8Array }[] = []
    for (const url of urls) {
      let bytes: Uint8Array | null = null
      const key = url.replace(/^(?:https?:\/\/[^/]+)?\/files\//, '')
      if (key !== url && isStorageKey(key)) bytes = (await this.deps.storage?.get(key).catch(() => null)) ?? null
      else {
        const data = /^data:image\/(?:png|jpeg);base64,(.+)$/.exec(url)
        if (data) bytes = Buffer.from(data[1], 'base64')
      }
      if (bytes && !imageBytes(bytes)) bytes = gifIconPng(bytes)
      if (bytes && imageBytes(bytes)) out.push({ url, bytes: new Uint8Array(bytes) })
    }
    return out
  }

  private enqueue(job: Job): void {
    const q = this.queues.get(job.groupId)
    if (q) q.push(job)
    else {
      this.queues.set(job.groupId, [job])
      this.turns.push(job.groupId)
    }
  }

  /** The next job in turn: the first group's first job; that group then waits behind the others. */
  private next(): Job | null {
    while (this.turns.length) {
      const group = this.turns.shift()!
      const q = this.queues.get(group)!
      const job = q.shift()
      if (q.length) this.turns.push(group)
      else this.queues.delete(group)
      if (job && job.state === 'queued') return job
    }
    return null
  }

  /** Jobs that run before this one (those running, then the queued ones in the order next() takes them). */
  private ahead(job: Job): number {
    const queues = new Map([...this.queues].map(([g, q]) => [g, [...q]]))
    const turns = [...this.turns]
    let n = this.slots.filter((s) => s.busy).length
    while (turns.length) {
      const group = turns.shift()!
      const q = queues.get(group)!
      const j = q.shift()
      if (j === job) return n
      if (q.length) turns.push(group)
      n++
    }
    return n
  }

  private dropQueuedPreviews(userId: number): void {
    for (const [group, q] of this.queues) {
      const kept = q.filter((j) => !(j.preview && j.userId === userId))
      for (const j of q) if (!kept.includes(j)) this.jobs.delete(j.id)
      if (kept.length) this.queues.set(group, kept)
      else {
        this.queues.delete(group)
        this.turns.splice(this.turns.indexOf(group), 1)
      }
    }
  }

  private pump(): void {
    if (this.closed) return
    for (const slot of this.slots) {
      if (slot.busy) continue
      const job = this.next()
      if (!job) return
      slot.busy = job
      job.state = 'running'
      void this.runOn(slot, job)
    }
  }

  private async workerOf(slot: WorkerSlot): Promise<Worker> {
    if (slot.worker) return slot.worker
    const code = await workerSource()
    // The worker requires its packages as this module would (node_modules of the project).
    const wrapped = `(function (require) {\n${code}\n})(require('node:module').createRequire(${JSON.stringify(__filename)}))`
    const worker = new Worker(wrapped, { eval: true, resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } })
    worker.unref()
    slot.worker = worker
    worker.once('exit', () => {
      if (slot.worker === worker) slot.worker = null
    })
    return worker
  }

  private async recycle(slot: WorkerSlot): Promise<void> {
    const worker = slot.worker
    slot.worker = null
    await worker?.terminate()
  }

  private async runOn(slot: WorkerSlot, job: Job): Promise<void> {
    try {
      const { input, pages, job: rest } = await job.load()
      const worker = await this.workerOf(slot)
      const file = await new Promise<Buffer>((resolve, reject) => {
        const onMessage = (m: WorkerOut) => {
          if (m.id !== job.id) return
          if (m.type === 'progress') job.progress = Math.max(job.progress, m.progress)
          else if (m.type === 'tiles') void this.fetchTiles(m.tiles).then((images) => worker.postMessage({ type: 'tiles', id: job.id, images } satisfies WorkerIn))
          else {
            cleanup()
            if (m.type === 'done') resolve(Buffer.from(m.file.buffer, m.file.byteOffset, m.file.byteLength))
            else reject(new Error(m.message))
          }
        }
        const onExit = (code: number) => {
          cleanup()
          reject(Object.assign(new Error(`print worker exited with ${code}`), { code: 'WORKER_EXIT' }))
        }
        const onError = (err: Error & { code?: string }) => {
          cleanup()
          reject(err)
        }
        const cleanup = () => {
          worker.off('message', onMessage)
          worker.off('exit', onExit)
          worker.off('error', onError)
        }
        worker.on('message', onMessage)
        worker.once('exit', onExit)
        worker.once('error', onError)
        // The pages' bytes are moved, not copied (a buffer shared with others is copied once).
        const owned = pages.map((b) => (b.byteOffset === 0 && b.byteLength === b.buffer.byteLength ? new Uint8Array(b.buffer) : new Uint8Array(b)))
        worker.postMessage(
          { type: 'job', id: job.id, input: JSON.stringify(input), pages: owned, ...rest } satisfies WorkerIn,
          owned.map((u) => u.buffer as ArrayBuffer),
        )
      })
      // A big sheet leaves the worker's heap grown (hundreds of MB until V8 gives it back): a fresh
      // worker for the next job keeps the server's memory down; small sheets keep the warm one.
      if (input.dpi >= 300 || pages.reduce((n, p) => n + p.byteLength, 0) > BIG_JOB_BYTES) void this.recycle(slot)
      job.file = file
      job.state = 'done'
      job.progress = 100
      job.doneAt = Date.now()
    } catch (err) {
      const e = err as Error & { code?: string; errcode?: number }
      job.state = 'failed'
      job.error = e.code === 'ERR_WORKER_OUT_OF_MEMORY' ? PRINT_MSG.tooComplex : err instanceof BusinessError ? e.message : PRINT_MSG.failed
      this.deps.log?.(`print job ${job.id} failed: ${e.message}`)
    } finally {
      slot.busy = null
      this.expire()
      this.pump()
    }
  }

  private expire(): void {
    const now = Date.now()
    const done = [...this.jobs.values()].filter((j) => j.doneAt !== undefined || j.state === 'failed')
    for (const j of done) if ((j.doneAt ?? 0) + PRINT_FILE_TTL_MS < now && j.state !== 'queued' && j.state !== 'running') this.jobs.delete(j.id)
    const files = [...this.jobs.values()].filter((j) => j.file).sort((a, b) => (a.doneAt ?? 0) - (b.doneAt ?? 0))
    for (const j of files.slice(0, Math.max(0, files.length - PRINT_FILES_MAX))) this.jobs.delete(j.id)
  }

  /** The tiles' bytes in order (null for each one that did not come in time or is not an image); cached by address. */
  private async fetchTiles(tiles: readonly PlacedTile[]): Promise<(Uint8Array | null)[]> {
    const source = this.deps.tiles
    if (!source) return tiles.map(() => null)
    const fetchImpl = this.deps.fetch ?? (fetch as unknown as TileFetch)
    const out: (Uint8Array | null)[] = new Array(tiles.length).fill(null)
    let nextIndex = 0
    const one = async () => {
      for (;;) {
        const i = nextIndex++
        if (i >= tiles.length) return
        const t = tiles[i]
        const url = source.url.replace('{z}', String(t.z)).replace('{x}', String(t.x)).replace('{y}', String(t.y))
        if (this.tileCache.has(url)) {
          out[i] = this.tileCache.get(url) ?? null
          continue
        }
        let bytes: Uint8Array | null = null
        try {
          const res = await fetchImpl(url, { signal: AbortSignal.timeout(PRINT_TILE_TIMEOUT_MS) })
          if (res.ok) {
            const b = new Uint8Array(await res.arrayBuffer())
            bytes = imageBytes(b) ? b : null
          }
        } catch {
          bytes = null
        }
        // Only tiles that came are kept: one that timed out is asked for again by the next print.
        if (bytes) {
          if (this.tileCache.size >= TILE_CACHE_MAX) this.tileCache.delete(this.tileCache.keys().next().value!)
          this.tileCache.set(url, bytes)
        }
        out[i] = bytes
      }
    }
    await Promise.all(Array.from({ length: TILE_FETCHES_AT_ONCE }, one))
    if (out.some((b) => !b)) this.deps.log?.(`print: ${out.filter((b) => !b).length} of ${tiles.length} base map tiles did not come`)
    return out
  }
}
