/**
 * The worker thread of file-parser.ts: one task (workerData) and its answer. Runs bundled (esbuild,
 * packages included) as eval'd code, never loaded from this source directly.
 */
import { parentPort, workerData, type TransferListItem } from 'node:worker_threads'
import { bytesOfBase64, readImportFile } from '../../../src/domain/formats/read'
import type { ParseTask } from './file-parser'

const task = workerData as ParseTask
const post = (value: unknown, transfer: TransferListItem[] = []) => parentPort!.postMessage(value, transfer)

/** As the app's JSON parser refuses them (fastify's onProtoPoisoning and onConstructorPoisoning). */
function poisoned(value: unknown): boolean {
  if (!value || typeof value !== 'object') return false
  const own = (key: string) => Object.prototype.hasOwnProperty.call(value, key)
  if (own('__proto__')) return true
  const ctor = (value as Record<string, unknown>).constructor
  if (own('constructor') && ctor && typeof ctor === 'object' && Object.prototype.hasOwnProperty.call(ctor, 'prototype')) return true
  return Object.values(value).some(poisoned)
}

if (task.kind === 'body') {
  const body: unknown = JSON.parse(new TextDecoder().decode(task.bytes))
  if (poisoned(body)) throw new Error('the body sets __proto__ or constructor.prototype')
  const fields = body && typeof body === 'object' ? (body as Record<string, unknown>) : null
  if (fields && typeof fields.content === 'string') {
    // The file goes back as UTF-8 bytes, moved rather than copied: the main thread never holds its text.
    const bytes = new TextEncoder().encode(fields.content)
    post({ ...fields, content: bytes }, [bytes.buffer])
  } else post(body)
} else {
  const text = typeof task.content === 'string' ? task.content : new TextDecoder().decode(task.content)
  // A failure rejects unhandled, which ends the worker with an error the main thread reports.
  void readImportFile(task.format, task.base64 ? { bytes: bytesOfBase64(text) } : { text }, task.crs, task.maxRows, task.places).then((parsed) => post(parsed))
}
