/**
 * The print module (打印, module_print): a print-ready picture (PNG) or PDF of the map's view, of
 * chosen layers, of a saved route or of a task, drawn on the server (server/src/services/print.ts)
 * from one layout (src/domain/print.ts) so that both targets print the same sheet.
 */

export type PrintPaper = 'A4' | 'A3'
export type PrintOrientation = 'portrait' | 'landscape'
/** 标准 150 dpi, 高清 300 dpi. */
export type PrintQuality = 'standard' | 'hd'
export type PrintFormat = 'png' | 'pdf'

/** A box of GCJ-02 coordinates (the map's view). */
export interface PrintBounds {
  west: number
  south: number
  east: number
  north: number
}

/** What the sheet shows besides the map. */
export interface PrintSwitches {
  legend: boolean
  scale_bar: boolean
  north_arrow: boolean
  /** Marker titles in the layers' title styles. */
  titles: boolean
  /** The date (YYYY-MM-DD) and the team's name at the foot. */
  footer: boolean
  /** The operator's print base map, when one is configured. */
  basemap: boolean
}

export interface PrintOptions extends PrintSwitches {
  paper: PrintPaper
  orientation: PrintOrientation
  quality: PrintQuality
  title: string
  note: string
}

/**
 * What is printed: the layers drawn (only those the caller may read are), and the area: the given
 * view, or (without one) everything drawn fitted on the sheet. A route or a task prints its stops
 * and line over the layers given.
 */
export interface PrintSubject {
  layer_ids: number[]
  view?: PrintBounds | null
  route_id?: number | null
  task_id?: number | null
}

/** POST /api/print/start: a print job; `preview` draws the same sheet small, for the sheet's live preview. */
export interface PrintStartRequest extends PrintSubject {
  options: PrintOptions
  format: PrintFormat
  preview?: boolean
}

/** POST /api/print/share/start (public): a shared view printed by its own rules (what the share shows, its password proof). */
export interface PrintShareStartRequest {
  share_id: string
  proof?: string | null
  layer_ids?: number[]
  view?: PrintBounds | null
  options: PrintOptions
  format: PrintFormat
  preview?: boolean
}

export interface PrintStartResponse {
  job_id: string
}

export type PrintJobState = 'queued' | 'running' | 'done' | 'failed'

/** POST /api/print/progress {job_id}. */
export interface PrintProgress {
  state: PrintJobState
  /** 0-100. */
  progress: number
  /** Jobs ahead of this one while queued. */
  ahead: number
  /** When done: where the file is (GET, valid for a while, the job id is its only key). */
  url?: string
  /** When done: the file's name (the title and the date). */
  filename?: string
  /** When failed: why, in Chinese. */
  error?: string
}

export interface PrintApi {
  /** Queues a print (or, with `preview`, the sheet small); refused without module_print, over PRINT_MAX_MARKERS, or with bad options. */
  '/api/print/start': { req: PrintStartRequest; res: PrintStartResponse }
  '/api/print/progress': { req: { job_id: string }; res: PrintProgress }
  '/api/print/share/start': { req: PrintShareStartRequest; res: PrintStartResponse }
  /** Public: a shared print's progress, by its job id alone. */
  '/api/print/share/progress': { req: { job_id: string }; res: PrintProgress }
}
