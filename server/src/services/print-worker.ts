/**
 * The print worker thread (print.ts): draws one sheet at a time. A job arrives as JSON text (one
 * string crosses threads far faster than a structured clone of tens of thousands of objects); the
 * worker frames the map, asks the main thread for the base map tiles it needs (the main thread
 * fetches and caches them), builds the scene with progress, and hands back the PNG or PDF bytes,
 * moved rather than copied. Runs bundled (esbuild) as eval'd code; resvg, pdfkit and fontkit stay
 * packages, loaded through the main thread's module resolution (workerData.base).
 */
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { parentPort } from 'node:worker_threads'
import { buildScene, frameSheet, tilesFor, type PlacedTile, type PrintMarkerInput, type Scene, type SceneInput } from './print-scene'
import { GlyphFont, scenePdf, scenePng } from './print-render'
import type { PrintFormat } from '../../../types/print'

export interface WorkerJob {
  type: 'job'
  id: string
  /** SceneInput as JSON, without its markers. */
  input: string
  /** The markers: pages of the marker list's JSON, as the database built them (UTF-8). */
  pages: Uint8Array[]
  format: PrintFormat
  /** The CJK font file, or null to draw without text. */
  font: string | null
  /** The page in PDF points. */
  page: { width: number; height: number }
  title: string
  /** The point icons' images by their address (PNG or JPEG). */
  icons: { url: string; bytes: Uint8Array }[]
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
// A collection between the phases (markers, then the scene, then the picture) lets the picture's
// native memory reuse what the markers held instead of adding to it: the server's peak memory.
setFlagsFromString('--expose-gc')
const collect = runInNewContext('gc') as () => void
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

/** The markers and the scene of a job; its objects are garbage once this returns. */
async function sceneOf(job: WorkerJob, post: (m: WorkerOut) => void): Promise<Scene> {
  const input = JSON.parse(job.input) as SceneInput
  const decoder = new TextDecoder()
  for (const page of job.pages) {
    for (const m of JSON.parse(decoder.decode(page)) as PrintMarkerInput[]) {
      input.markers.push({ layer_id: m.layer_id, name: m.name, type: m.type, points: m.points, style: m.style && typeof m.style === 'object' ? m.style : {}, width: m.width, radius: m.radius })
    }
  }
  job.pages = []
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
  // Tiles were asked for but none came: the sheet says 无底图 (the scene counts the tiles drawn).
  const icons = new Map(job.icons.map((i) => [i.url, i.bytes]))
  return buildScene(input, framing, tiles, (p) => post({ type: 'progress', id: job.id, progress: p }), icons)
}

async function run(job: WorkerJob): Promise<void> {
  const post = (m: WorkerOut, transfer: ArrayBuffer[] = []) => port.postMessage(m, transfer)
  const scene = await sceneOf(job, post)
  collect()
  const file = job.format === 'pdf' ? await scenePdf(scene, job.font, job.page, job.title) : scenePng(scene, glyphsOf(job.font), collect)
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
