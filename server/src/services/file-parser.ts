/**
 * Reads import files on worker threads: a large file (an 11 MB GeoJSON takes seconds to read
 * through, and even JSON.parse of its request body or a copy of its text takes tens of ms) would
 * otherwise hold every other client's call for as long. Two tasks: the request body of an import
 * (JSON, with the file's text handed back as UTF-8 bytes, moved rather than copied) and the file
 * itself (readImportFile of src/domain/formats/read.ts). One task at a time (the server has few cores and a
 * parse can take hundreds of MB), each in a fresh worker whose heap goes with it; a file that
 * outgrows the worker's heap is refused, the server lives on.
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

let queue: Promise<unknown> = Promise.resolve()

/** Runs tasks one after another, each in its own worker. */
function inWorker<T>(task: ParseTask): Promise<T> {
  const run = queue.then(() => runWorker<T>(task))
  queue = run.catch(() => undefined)
  return run
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
    worker.once('message', (value: T) => {
      answered = true
      resolve(value)
      void worker.terminate()
    })
    worker.once('error', (err: Error & { code?: string }) => reject(err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? new FileTooComplex(err.message) : err))
    worker.once('exit', (exitCode) => {
      if (!answered) reject(new Error(`file parser worker exited with ${exitCode} and no answer`))
    })
  })
}

/**
 * readImportFile (src/domain/formats/read.ts) off the main thread; content as text or UTF-8 bytes
 * (moved to the worker), or with base64 the file's bytes as base64 (decoded and their encoding
 * detected in the worker).
 */
export function parseFileOffThread(format: ImportFileFormat, content: string | Uint8Array, crs: FileCrs, maxRows: number, base64 = false, places?: AddressPlaces): Promise<ParsedFile> {
  return inWorker<ParsedFile>({ kind: 'file', format, content, base64, crs, maxRows, places })
}

/** JSON.parse of a request body off the main thread; a string `content` comes back as UTF-8 bytes. Rejects on invalid JSON. */
export function parseJsonOffThread(bytes: Uint8Array): Promise<unknown> {
  return inWorker<unknown>({ kind: 'body', bytes })
}
