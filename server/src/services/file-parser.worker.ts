/**
 * The worker thread of file-parser.ts: parses one import file (workerData) and posts the result.
 * Runs bundled (esbuild, packages included) as eval'd code, never loaded from this source directly.
 */
import { parentPort, workerData } from 'node:worker_threads'
import type { FileCrs, ImportFormat } from '../../../types/mapdata'
import { parseFile } from '../../../src/domain/formats'

const { format, text, crs, maxRows } = workerData as { format: ImportFormat; text: string; crs: FileCrs; maxRows: number }
parentPort!.postMessage(parseFile(format, text, crs, maxRows))
