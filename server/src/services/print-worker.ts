/**
 * The print worker thread (print.ts): draws one sheet at a time. A job arrives as JSON text (one
 * string crosses threads far faster than a structured clone of tens of thousands of objects); the
 * worker frames the map, asks the main thread for the base map tiles it needs (the main thread
 * fetches and caches them), builds the scene with progress, and hands back the PNG or PDF bytes,
 * moved rather than copied. Runs bundled (esbuild) as eval'd code; resvg, pdfkit and fontkit stay
 * packages, loaded through the main thread's module resolution (workerData.base).
 */
import { parentPort } from 'node:worker_threads'
import { buildScene, frameSheet, tilesFor, type PlacedTile, type SceneInput } from './print-scene'
import { GlyphFont, scenePdf, scenePng } from './print-render'
import type { PrintFormat } from '../../../types/print'

export interface WorkerJob {
  type: 'job'
  id: string
  /** SceneInput as JSON. */
  input: string
  format: PrintFormat
  /** The CJK font file, or null to draw without text. */
  font: string | null
  /** The page in PDF points. */
  page: { width: number; height: number }
  title: string
  /** Ask for tiles at all (a print source is configured and the base map is on). */
  wantTiles: boolean
}

export type WorkerIn = WorkerJob | { type: 'tiles'; id: string; images: (Uint8Array | null)[] }

export type WorkerOut =
  | { type: 'tiles'; id: string; tiles: PlacedTile[] }
  | { type: 'progress'; id: string; progress: number }
  | { type: 'done'; id: string; file: Uint8Array; stats: Record<string, number> }
  | { type: 'failed'; id: string; message: string }

const port = parentPort!
const fonts = new Map<string, GlyphFont>()
let tileWait: ((images: (Uint8Array | null)[]) => void) | null = null

function glyphsOf(font: string | null): GlyphFont | null {
  if (!font) return null
  let g = fonts.get(font)
  if (!g) {
    g = new GlyphFont(font)
    fonts.set(font, g)
  }
  return g
}

async function run(job: WorkerJob): Promise<void> {
  const post = (m: WorkerOut, transfer: ArrayBuffer[] = []) => port.postMessage(m, transfer)
  const input = JSON.parse(job.input) as SceneInput
  const framing = frameSheet(input)
  let tiles: { tile: PlacedTile; png: Uint8Array }[] = []
  if (job.wantTiles) {
    const wanted = tilesFor(framing)
    const images = await new Promise<(Uint8Array | null)[]>((resolve) => {
      tileWait = resolve
      post({ type: 'tiles', id: job.id, tiles: wanted })
    })
    tiles = wanted.flatMap((tile, i) => (images[i] ? [{ tile, png: images[i]! }] : []))
  }
  // Tiles were asked for but none came: the sheet says 无底图 (the scene reads tiles.length).
  const scene = buildScene(input, framing, tiles, (p) => post({ type: 'progress', id: job.id, progress: p }))
  const file = job.format === 'pdf' ? await scenePdf(scene, job.font, job.page, job.title) : scenePng(scene, glyphsOf(job.font))
  post({ type: 'progress', id: job.id, progress: 100 })
  const bytes = new Uint8Array(file.buffer, file.byteOffset, file.byteLength)
  const own = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice()
  post({ type: 'done', id: job.id, file: own, stats: scene.stats }, [own.buffer as ArrayBuffer])
}

port.on('message', (m: WorkerIn) => {
  if (m.type === 'tiles') {
    tileWait?.(m.images)
    tileWait = null
    return
  }
  run(m).catch((err: unknown) => port.postMessage({ type: 'failed', id: m.id, message: err instanceof Error ? err.message : String(err) } satisfies WorkerOut))
})
