/**
 * Reads import files on worker threads: a large file (an 11 MB GeoJSON takes seconds to read
 * through, and even JSON.parse of its request body or a copy of its text takes tens of ms) would
 * otherwise hold every other client's call for as long. Two tasks: the request body of an import
 * (JSON, with the file's text handed back as UTF-8 bytes, moved rather than copied) and the file
 * itself (readImportFile of src/domain/formats/read.ts). One task at a time (the server has few cores and a
 * parse can take hundreds of MB), taken from the groups waiting in turn (one team's ten files do not
 * hold another's one), each in a fresh worker whose memory goes with it; a file that outgrows the
 * worker's heap, or makes the process grow past what a worker may add (buffers are outside the
 * heap), is refused and its worker ended: the server lives on.
 *
 * The worker runs as code bundled by esbuild (packages included), handed to `new Worker` with
 * eval, in every way the server runs: the compiled server (scripts/build-server.mjs) carries that
 * code as the constant PARSE_WORKER_CODE; from source (tsx, and jest, whose babel transform does
 * not reach worker threads) file-parser.worker.ts is bundled on first use. One form everywhere,
 * and no TypeScript loader or module resolution inside the worker.
 */
import { join } from 'node:path'
import { Worker, type TransferListItem } from 'node:worker_threads'
import type { FileCrs, ImportFileFormat } from '../../../types/mapdata'
import type { AddressPlaces, ParsedFile } from '../../../src/domain/formats'

/** Set by scripts/build-server.mjs (esbuild define) in the compiled server; undefined from source. */
declare const PARSE_WORKER_CODE: string | undefined

/** The worker's heap; a file needing more is refused as unreadable. */
const WORKER_HEAP_MB = 512
/**
 * What a running worker may add to the process's resident memory, heap and buffers together
 * (ArrayBuffers live outside the heap that resourceLimits caps); past it the worker is ended. An
 * object so that a test can lower it.
 */
export const parseWorkerMemory = { mb: 640 }
/** How often the process's memory is read while a worker runs. */
const MEMORY_CHECK_MS = 50

/** Where the worker's source is and how it is bundled; scripts/build-server.mjs uses the same options. */
export const PARSE_WORKER_ENTRY = join(__dirname, 'file-parser.worker.ts')
export const PARSE_WORKER_BUILD = { bundle: true, platform: 'node', target: 'node20', format: 'cjs', write: false, logLevel: 'warning' } as const

/** A file task's content is the file's text (or its UTF-8 bytes), or with base64 the file's own bytes as base64 text (or that text's bytes). */
export type ParseTask =
  { kind: 'body'; bytes: Uint8Array } | { kind: 'file'; format: ImportFileFormat; content: string | Uint8Array; base64: boolean; crs: FileCrs; maxRows: number; places?: AddressPlaces }

let source: Promise<string> | undefined

function workerSource(): Promise<string> {
  if (typeof PARSE_WORKER_CODE === 'string') return Promise.resolve(PARSE_WORKER_CODE)
  source ??= import('esbuild').then((esbuild) => esbuild.build({ ...PARSE_WORKER_BUILD, entryPoints: [PARSE_WORKER_ENTRY] })).then((built) => built.outputFiles[0].text)
  source.catch(() => (source = undefined))
  return source
}

/** Thrown when the file needs more memory than the worker has. */
export class FileTooComplex extends Error {}

/**
 * Runs jobs one at a time, taking them from the owners waiting in turn (round robin), each owner's
 * own jobs in the order they came.
 */
export class FairQueue {
  private readonly waiting = new Map<string, (() => Promise<void>)[]>()
  private running = false
  private queued = 0

  /** How many jobs were ever queued. */
  get total(): number {
    return this.queued
  }

  run<T>(owner: string, job: () => Promise<T>): Promise<T> {
    this.queued++
    return new Promise<T>((resolve, reject) => {
      const jobs = this.waiting.get(owner) ?? []
      jobs.push(() => job().then(resolve, reject))
      this.waiting.set(owner, jobs)
      if (!this.running) void this.next()
    })
  }

  private async next(): Promise<void> {
    this.running = true
    for (;;) {
      const first = this.waiting.entries().next()
      if (first.done) break
      const [owner, jobs] = first.value
      const job = jobs.shift()!
      // To the back of the turn: the other owners waiting go first.
      this.waiting.delete(owner)
      if (jobs.length) this.waiting.set(owner, jobs)
      await job()
    }
    this.running = false
  }
}

const queue = new FairQueue()

/** How many parse tasks were ever queued (none is, for a request whose session was refused). */
export function parseTasksQueued(): number {
  return queue.total
}

/** Runs tasks one at a time, the owners (groups) in turn, each in its own worker. */
function inWorker<T>(owner: string, task: ParseTask): Promise<T> {
  return queue.run(owner, () => runWorker<T>(task))
}

/** Bytes that can be moved to another thread as they are (not a slice of a shared pool). */
function movable(bytes: Uint8Array): TransferListItem[] {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer ? [bytes.buffer] : []
}

async function runWorker<T>(task: ParseTask): Promise<T> {
  const code = await workerSource()
  const bytes = task.kind === 'body' ? task.bytes : typeof task.content === 'string' ? null : task.content
  return new Promise<T>((resolve, reject) => {
    const worker = new Worker(code, { eval: true, workerData: task, transferList: bytes ? movable(bytes) : [], resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } })
    let answered = false
    let overgrown = false
    const limitMb = parseWorkerMemory.mb
    const ceiling = process.memoryUsage.rss() + limitMb * 1024 * 1024
    const check = () => {
      if (overgrown || process.memoryUsage.rss() <= ceiling) return
      overgrown = true
      void worker.terminate()
    }
    const watch = setInterval(check, MEMORY_CHECK_MS)
    worker.once('online', check)
    worker.once('message', (value: T) => {
      answered = true
      resolve(value)
      void worker.terminate()
    })
    worker.once('error', (err: Error & { code?: string }) => reject(err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? new FileTooComplex(err.message) : err))
    worker.once('exit', (exitCode) => {
      clearInterval(watch)
      if (answered) return
      reject(overgrown ? new FileTooComplex(`the worker grew the process past ${limitMb} MB`) : new Error(`file parser worker exited with ${exitCode} and no answer`))
    })
  })
}

/**
 * readImportFile (src/domain/formats/read.ts) off the main thread; content as text or UTF-8 bytes
 * (moved to the worker), or with base64 the file's bytes as base64 (decoded and their encoding
 * detected in the worker).
 */
export function parseFileOffThread(owner: string, format: ImportFileFormat, content: string | Uint8Array, crs: FileCrs, maxRows: number, base64 = false, places?: AddressPlaces): Promise<ParsedFile> {
  return inWorker<ParsedFile>(owner, { kind: 'file', format, content, base64, crs, maxRows, places })
}

/** JSON.parse of a request body off the main thread; a string `content` comes back as UTF-8 bytes. Rejects on invalid JSON. */
export function parseJsonOffThread(owner: string, bytes: Uint8Array): Promise<unknown> {
  return inWorker<unknown>(owner, { kind: 'body', bytes })
}
