/**
 * Parses import files on a worker thread: a large file (an 11 MB GeoJSON takes seconds to read
 * through) would otherwise hold every other client's call for as long. One parse at a time (the
 * server has few cores and a parse can take hundreds of MB), each in a fresh worker whose heap goes
 * with it; a file that outgrows the worker's heap is refused, the server lives on.
 *
 * The worker runs as code bundled by esbuild (packages included), handed to `new Worker` with
 * eval, in every way the server runs: the compiled server (scripts/build-server.mjs) carries that
 * code as the constant PARSE_WORKER_CODE; from source (tsx, and jest, whose babel transform does
 * not reach worker threads) file-parser.worker.ts is bundled on first use. One form everywhere,
 * and no TypeScript loader or module resolution inside the worker.
 */
import { join } from 'node:path'
import { Worker } from 'node:worker_threads'
import type { FileCrs, ImportFormat } from '../../../types/mapdata'
import type { ParsedFile } from '../../../src/domain/formats'

/** Set by scripts/build-server.mjs (esbuild define) in the compiled server; undefined from source. */
declare const PARSE_WORKER_CODE: string | undefined

/** The worker's heap; a file needing more is refused as unreadable. */
const WORKER_HEAP_MB = 512

/** Where the worker's source is and how it is bundled; scripts/build-server.mjs uses the same options. */
export const PARSE_WORKER_ENTRY = join(__dirname, 'file-parser.worker.ts')
export const PARSE_WORKER_BUILD = { bundle: true, platform: 'node', target: 'node20', format: 'cjs', write: false, logLevel: 'warning' } as const

let source: Promise<string> | undefined

function workerSource(): Promise<string> {
  if (typeof PARSE_WORKER_CODE === 'string') return Promise.resolve(PARSE_WORKER_CODE)
  source ??= import('esbuild')
    .then((esbuild) => esbuild.build({ ...PARSE_WORKER_BUILD, entryPoints: [PARSE_WORKER_ENTRY] }))
    .then((built) => built.outputFiles[0].text)
  source.catch(() => (source = undefined))
  return source
}

/** Thrown when the file needs more memory than the worker has. */
export class FileTooComplex extends Error {}

let queue: Promise<unknown> = Promise.resolve()

/** parseFile (src/domain/formats) off the main thread, one file at a time. */
export function parseFileOffThread(format: ImportFormat, text: string, crs: FileCrs, maxRows: number): Promise<ParsedFile> {
  const run = queue.then(() => parseInWorker(format, text, crs, maxRows))
  queue = run.catch(() => undefined)
  return run
}

async function parseInWorker(format: ImportFormat, text: string, crs: FileCrs, maxRows: number): Promise<ParsedFile> {
  const code = await workerSource()
  return new Promise<ParsedFile>((resolve, reject) => {
    const worker = new Worker(code, { eval: true, workerData: { format, text, crs, maxRows }, resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } })
    let result: ParsedFile | undefined
    worker.once('message', (parsed: ParsedFile) => {
      result = parsed
      void worker.terminate()
    })
    worker.once('error', (err: Error & { code?: string }) => reject(err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? new FileTooComplex(err.message) : err))
    worker.once('exit', (code) => {
      if (result) resolve(result)
      else reject(new Error(`file parser worker exited with ${code} and no result`))
    })
  })
}
